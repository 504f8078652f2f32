// The minimal time of each construct on the user's machine, measured by a bottleneck-free
// benchmark (`causeway baseline` traces measure/baseline/baseline_bench.c and keeps the
// shortest instance of each construct and size): baseline filtering (detection.h) compares a
// call path's mean instance time with it (PPW §5.2.2, §5.3).
//
// The file is text, one baseline per line, `#` starting a comment:
//   CONSTRUCT PROCESSES BYTES SECONDS        e.g.  MPI_Barrier 4 0 2.1e-06
// BYTES is the size bucket (the bytes one instance moves); a construct is looked up between the
// process counts and sizes measured, linearly, and clamped to the ends.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "analysis/generic/generic_types.h"
#include "base/status.h"
#include "trace/trace.h"

namespace cw::analysis {

class Baselines {
 public:
  struct Entry {
    uint32_t processes = 0;
    uint64_t bytes = 0;
    double seconds = 0;
  };

  // A malformed line is an error naming the file and line.
  static Result<Baselines> Read(const std::string& path);
  static Result<Baselines> Parse(std::string_view text, std::string_view origin);

  // The baseline of `construct` for `processes` processes and `bytes` per instance, or nullopt
  // if the construct was not measured.
  std::optional<double> Seconds(std::string_view construct, uint32_t processes, double bytes) const;

  // The minimal instance time of every construct (a region that is not a local operation,
  // initialisation, termination or query) per bytes moved, over all locations of a trace of
  // the baseline benchmark, for the trace's process count.
  static Baselines Measure(const trace::Trace& trace, std::span<const GenericType> region_types);

  // Adds `other`'s entries, replacing this one's for the process counts `other` measured.
  void Replace(const Baselines& other);
  // The file's text: a header, then one line per entry.
  std::string ToText() const;

  bool empty() const { return entries_.empty(); }
  const std::map<std::string, std::vector<Entry>, std::less<>>& entries() const { return entries_; }

 private:
  std::map<std::string, std::vector<Entry>, std::less<>> entries_;  // sorted by (processes, bytes)
};

}  // namespace cw::analysis
