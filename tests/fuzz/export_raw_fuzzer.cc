// libFuzzer target over the export of a traced run's raw files (measure/export/raw_export.h):
// what `causeway trace` and `causeway trace --finish` turn into OTF2, from files that a crash, a
// kill or a full disk may have cut short or damaged, and that --finish reads from any directory
// it is given. Any crash, sanitizer report, hang or runaway allocation is a defect; so is an
// archive the export wrote that causeway's own reader then refuses (a trace causeway wrote must
// always be read back whole).
//
// The input is archive_container.h's, its files named as in the run's directory
// ("raw/rank-0.defs", "raw/rank-0.events", "raw/rank-0.maps", "raw/complete").
//
//   build-fuzz/bin/export_raw_fuzzer tests/fuzz/raw_corpus -max_total_time=60
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "measure/export/raw_export.h"
#include "otf2/trace_reader.h"
#include "tests/fuzz/archive_container.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const cw::fuzz::Container container = cw::fuzz::Unpack(data, size);
  const std::string dir = cw::fuzz::WriteToWorkDirectory(container);
  cw::Result<cw::measure::ExportSummary> summary = cw::measure::ExportRawTrace(dir, 1);
  if (!summary) return 0;
  cw::otf2::ReadOptions options;
  options.threads = 1;
  cw::Result<cw::trace::Trace> trace = cw::otf2::ReadTrace(summary->anchor, options);
  if (!trace) {
    std::fprintf(stderr, "the export wrote an archive its reader refuses: %s\n",
                 trace.error().message().c_str());
    std::abort();
  }
  return 0;
}
