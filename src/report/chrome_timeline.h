// The trace as a Chrome trace-event JSON file (`causeway analyze --timeline FILE`,
// `causeway export chrome TRACE -o FILE`), which Perfetto (ui.perfetto.dev) and chrome://tracing
// open:
//   - one process per MPI rank (or location group), one thread per location, named;
//   - a complete event ("X") per region visit, nested as the calls were;
//   - a flow arrow per matched message, from the slice that sent it to the slice that received
//     it (both bound to their enclosing slice);
//   - an instant marker per wait-state instance the analysis kept, with its value.
// A rank range and a time window narrow it; before writing, the size is computed, and a file
// larger than Perfetto can open (about 500 MB by default) is refused with the way to narrow it.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <utility>

#include "analysis/metrics/severity.h"
#include "base/status.h"
#include "match/sync_graph.h"
#include "trace/trace.h"

namespace cw::report {

struct TimelineOptions {
  std::optional<std::pair<uint32_t, uint32_t>> ranks;  // first..last MPI rank kept (inclusive)
  std::optional<std::pair<double, double>> window;     // seconds since the trace's first event
  uint64_t max_bytes = 500'000'000;
};

struct TimelineStats {
  uint64_t slices = 0;
  uint64_t flows = 0;    // messages drawn as arrows
  uint64_t markers = 0;  // wait-state instances
  uint64_t bytes = 0;
  uint64_t estimated_bytes = 0;  // what the size guard expected before writing
};

// Writes the timeline of `trace` to `path`. `instances` are the analysis's kept wait-state
// instances (may be empty).
Result<TimelineStats> WriteChromeTimeline(const trace::Trace& trace, const match::SyncGraph& graph,
                                          std::span<const analysis::Instance> instances,
                                          const TimelineOptions& options, const std::string& path);

// "3-7" or "5" as a rank range; an error names what is wrong.
Result<std::pair<uint32_t, uint32_t>> ParseRankRange(const std::string& text);
// "0.5:1.25" (seconds) as a time window.
Result<std::pair<double, double>> ParseTimeWindow(const std::string& text);

}  // namespace cw::report
