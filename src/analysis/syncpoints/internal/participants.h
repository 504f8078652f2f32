// Who takes part in the synchronisation points and over which window (private to
// analysis/syncpoints/; sync_points.h says why).
#pragma once

#include <cstdint>
#include <vector>

#include "analysis/syncpoints/sync_points.h"
#include "analysis/waitstates/sync_edges.h"
#include "trace/trace.h"

namespace cw::analysis::internal {

// The locations that stand for a process: the first CPU thread of every location group.
std::vector<bool> FindProcesses(const trace::Trace& trace);

// The processes and, in a trace with OpenMP, every CPU thread of a process.
std::vector<bool> FindParticipants(const trace::Trace& trace, const std::vector<bool>& processes);

// The window over `processes` (ascending): from the last one's arrival at MPI_Init to the last
// one's arrival at MPI_Finalize. Distributed, every rank calls it with its share.
AnalysisWindow FindWindow(const trace::Trace& trace, const SyncEdges& sync,
                          const std::vector<uint32_t>& processes, const RankShare& share);

}  // namespace cw::analysis::internal
