// Probe matching (private to match/): see LinkProbes in matcher.h for the rules.
#pragma once

#include "match/sync_graph.h"
#include "trace/trace.h"

namespace cw::match::internal {

// Fills graph.probes, by_location[*].first_probe/probe_count, the probe stats and diagnostics.
// Needs the messages (MatchPointToPoint) first.
void LinkProbes(const trace::Trace& trace, unsigned threads, SyncGraph& graph);

}  // namespace cw::match::internal
