// Collective instance matching (private to match/): see matcher.h for the rules.
#pragma once

#include "comm/communicator.h"
#include "match/sync_graph.h"
#include "trace/partition.h"
#include "trace/trace.h"

namespace cw::match::internal {

// Fills graph.collectives, graph.members, by_location[*].collectives, stats and diagnostics.
void MatchCollectives(const trace::Trace& trace, unsigned threads, SyncGraph& graph);
// The same for the locations one rank of an MPI analysis job owns (see MatchOwnedLocations).
void MatchCollectives(const trace::Trace& trace, const trace::Partition& partition,
                      comm::Communicator& comm, unsigned threads, SyncGraph& graph);

}  // namespace cw::match::internal
