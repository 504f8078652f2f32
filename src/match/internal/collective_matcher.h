// Collective instance matching (private to match/): see matcher.h for the rules.
#pragma once

#include "match/sync_graph.h"
#include "trace/trace.h"

namespace cw::match::internal {

// Fills graph.collectives, graph.members, by_location[*].collectives, stats and diagnostics.
void MatchCollectives(const trace::Trace& trace, unsigned threads, SyncGraph& graph);

}  // namespace cw::match::internal
