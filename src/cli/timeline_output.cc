#include "cli/timeline_output.h"

#include <cstdio>

namespace cw::cli {

Result<report::TimelineOptions> ParseTimelineFlags(const TimelineFlags& flags,
                                                   const std::string& ranks_option,
                                                   const std::string& window_option) {
  report::TimelineOptions options;
  if (!flags.ranks.empty()) {
    Result<std::pair<uint32_t, uint32_t>> ranks = report::ParseRankRange(flags.ranks);
    if (!ranks) {
      return MakeError(ErrorCode::kInvalidArgument, ranks_option + ": " + ranks.error().message());
    }
    options.ranks = *ranks;
  }
  if (!flags.window.empty()) {
    Result<std::pair<double, double>> window = report::ParseTimeWindow(flags.window);
    if (!window) {
      return MakeError(ErrorCode::kInvalidArgument,
                       window_option + ": " + window.error().message());
    }
    options.window = *window;
  }
  return options;
}

Status WriteTimeline(const trace::Trace& trace, const match::SyncGraph& graph,
                     std::span<const analysis::Instance> instances,
                     const report::TimelineOptions& options, const std::string& path) {
  CW_ASSIGN_OR_RETURN(report::TimelineStats stats,
                      report::WriteChromeTimeline(trace, graph, instances, options, path));
  std::printf(
      "Timeline written to %s (%.1f MB: %llu slices, %llu message arrows, %llu wait-state "
      "markers; open it in ui.perfetto.dev)\n",
      path.c_str(), static_cast<double>(stats.bytes) / 1e6,
      static_cast<unsigned long long>(stats.slices), static_cast<unsigned long long>(stats.flows),
      static_cast<unsigned long long>(stats.markers));
  return OkStatus();
}

}  // namespace cw::cli
