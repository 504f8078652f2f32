// libFuzzer target over causeway's reading path: anchor check, global and local definitions,
// events, nesting repairs, matching, the analyses and the task activity graphs, on archives
// unpacked from the input (archive_container.h); and, where the input holds rank segments of a
// run recorded online (tag/rank-<r>.seg), their checks and graphs. Any crash, sanitizer
// report, hang or runaway allocation is a defect.
//
//   build-fuzz/bin/read_trace_fuzzer tests/fuzz/corpus -max_total_time=60

#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <string>

#include "analysis/pipeline/analysis.h"
#include "match/matcher.h"
#include "otf2/trace_reader.h"
#include "tag/build/trace_graphs.h"
#include "tag/online/online_graphs.h"
#include "tag/output/tag_writers.h"
#include "tests/fuzz/archive_container.h"

namespace {

namespace fs = std::filesystem;

// The graphs' analyses and tag.json, as `causeway tag` runs them.
void DescribeGraphs(std::vector<cw::tag::ProcessGraph> processes) {
  cw::tag::TagDocument doc;
  doc.processes = std::move(processes);
  cw::tag::AnalyzeGraphs(doc);
  (void)cw::tag::TagJson(doc);
  (void)cw::tag::TagSummary(doc);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const cw::fuzz::Container container = cw::fuzz::Unpack(data, size);
  const std::string dir = cw::fuzz::WriteToWorkDirectory(container);
  std::error_code ec;
  fs::create_directories(dir + "/traces", ec);
  cw::otf2::ReadOptions options;
  options.threads = 1;
  options.allow_partial = (container.flags & 1) != 0;
  if (cw::tag::IsOnlineRun(dir)) {
    cw::Result<std::vector<cw::tag::OnlineRank>> ranks = cw::tag::ReadOnlineRun(dir, "");
    if (ranks) DescribeGraphs(cw::tag::BuildOnlineGraphs(*ranks, {}).processes);
  }
  cw::Result<cw::trace::Trace> trace = cw::otf2::ReadTrace(dir + "/traces.otf2", options);
  if (!trace) return 0;
  const cw::match::SyncGraph graph = cw::match::MatchTrace(*trace, 1);
  cw::analysis::AnalysisOptions analysis;
  analysis.root_causes = (container.flags & 2) != 0;
  cw::analysis::AnalyzeTrace(*trace, graph, analysis);
  DescribeGraphs(cw::tag::BuildTraceGraphs(*trace, graph, {}).processes);
  return 0;
}
