// The Chrome/Perfetto timeline options that `causeway analyze --timeline` and
// `causeway export chrome` share, and the message each prints after writing one.
#pragma once

#include <span>
#include <string>

#include "analysis/metrics/severity.h"
#include "base/status.h"
#include "match/sync_graph.h"
#include "report/chrome_timeline.h"
#include "trace/trace.h"

namespace cw::cli {

struct TimelineFlags {
  std::string ranks;   // "0-15", empty for all
  std::string window;  // "1.5:2.0" seconds from the trace's start, empty for all
};

// Checks the flags before any work is done; an error names the option (`ranks_option`,
// `window_option`) as the user typed it.
Result<report::TimelineOptions> ParseTimelineFlags(const TimelineFlags& flags,
                                                   const std::string& ranks_option,
                                                   const std::string& window_option);

// Writes the timeline to `path` and says on stdout what it holds.
Status WriteTimeline(const trace::Trace& trace, const match::SyncGraph& graph,
                     std::span<const analysis::Instance> instances,
                     const report::TimelineOptions& options, const std::string& path);

}  // namespace cw::cli
