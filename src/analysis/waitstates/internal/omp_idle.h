// OpenMP idle threads, as Scalasca 2.6 defines them (OMP_IDLE_THREADS with its part
// OMP_LIMITED_PARALLELISM; Scalasca computes both after its trace analysis, from the time of
// every call path and thread, in CubeLib's remapper):
//   - Outside OpenMP regions a process runs on its master alone: at every call path with no
//     OpenMP region on it, each other CPU thread of the process is idle for the master's
//     exclusive time there (its time tree's: the master's fork and join are in its regions).
//   - In an outermost OpenMP region (normally a parallel region; the team's call paths are
//     below it), each thread is idle for the master's time in the region minus its own, where
//     that is at least 1e-10 s: limited parallelism, charged at the region's call path.
// Idle threads time is part of `time`, not of execution: a process's time is the time its
// threads were reserved, as Scalasca's (and Cube's) time tree has it.
#pragma once

#include <vector>

#include "analysis/metrics/severity.h"
#include "analysis/waitstates/internal/context.h"

namespace cw::analysis::internal {

// Adds the idle time of every thread this process holds (distributed: masters' times are
// shared, a collective step of every rank) to `severities`, indexed by location.
void AddOmpIdleThreads(const Context& ctx, std::vector<LocationSeverities>& severities);

}  // namespace cw::analysis::internal
