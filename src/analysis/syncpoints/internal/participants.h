// Who takes part in the synchronisation points, over which window, and from when an OpenMP worker
// takes part in a team (private to analysis/syncpoints/; sync_points.h says why).
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

// The wake-ups of OpenMP worker `loc` (its roles made, the groups kept): from its master's fork
// to each ThreadTeamBegin, inside the window, as its time in the parallel region it then enters
// (omp_fork counts them there), for its time map.
std::vector<TimeLead> TeamStartLeads(const trace::Trace& trace, uint32_t loc, const SyncPoints& sp);

}  // namespace cw::analysis::internal
