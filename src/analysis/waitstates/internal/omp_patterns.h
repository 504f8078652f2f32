// OpenMP wait states between the threads of a process (private), as Scalasca 2.6 defines them
// (its OMP and Thread patterns):
//   - Wait at Barrier, explicit and implicit: in an instance of a team's barrier every thread
//     waits from its Enter until the last thread of the team entered: max_t e_t - e_t.
//     A team is what a master's ThreadFork ... ThreadJoin opened: the process's threads whose
//     barriers lie in that interval; the k-th barrier each of them entered there is the team's
//     k-th barrier instance (every thread of a team meets the same barriers in the same order).
//     Barriers outside every parallel region are no synchronisation point and wait for nobody;
//     so are the barriers of nested teams, which causeway (as Scalasca) does not tell apart.
//   - Lock Contention, critical and lock API: an acquisition of a process's lock (a critical
//     section or an omp_lock_t; ThreadAcquireLock with acquisition order k) waits from the Enter
//     of the construct or routine that acquired it until the release of acquisition k - 1 of
//     that lock: max(0, release - enter). Critical sections and atomics are "critical", every
//     other OpenMP lock "API".
//   - Thread management (OMP_MANAGEMENT, with its part OMP_FORK): each member of a team entered
//     the team's parallel region e - f after its master forked the team at f, and left it j - x
//     before the master joined the team at j; both are charged to the member's call path of the
//     region as time of its own (Scalasca's TIME adds them there): a worker's records do not
//     cover them, and the master's lie in the call path that forked, which loses them. Every
//     member's time in a region it filled is then the master's, j - f.
// Records of the OpenMP paradigm only (regions and ThreadAcquireLock/ReleaseLock).
#pragma once

#include <vector>

#include "analysis/waitstates/internal/context.h"

namespace cw::analysis::internal {

struct OmpWait {
  MetricId metric = MetricId::kOmpIbarrierWait;
  uint32_t callpath = trace::kNone;
  uint64_t entered = 0;             // Enter of the waiting construct
  int64_t value = 0;                // ticks, > 0
  uint32_t partner = trace::kNone;  // the thread waited for (the last to enter, the holder)
  // Barrier waits: the waiting barrier's Enter and the last thread's. Lock waits: the waiter's
  // ThreadAcquireLock and the previous holder's ThreadReleaseLock.
  uint32_t event = trace::kNone;
  uint32_t partner_event = trace::kNone;
};

// The synchronisations of the threads of the processes this rank holds (SyncGroup, key
// kOmpTeamGroupKey): every team's start and every instance of its barriers.
struct OmpGroups {
  std::vector<SyncGroup> groups;
  std::vector<GroupMember> members;  // of groups[g] from its first_member
  // By location: the Enters of its barriers that are members of groups. Scalasca measures an
  // OpenMP barrier's completion as 0 (SyncEdges::completions): an interval that starts at one
  // begins at the thread's own exit.
  std::vector<std::vector<uint32_t>> barriers;
};

// A member's management time of one team (ticks), at its call path of the parallel region.
struct OmpManagement {
  uint32_t callpath = trace::kNone;
  int64_t fork = 0;
  int64_t join = 0;
  bool master = false;  // the team's master: its fork and join are in the forking call path
};

// The waits and management times of every location, indexed by location (empty when the trace
// has no OpenMP); distributed, of the rank's own locations.
struct OmpOutcomes {
  std::vector<std::vector<OmpWait>> waits;
  std::vector<std::vector<OmpManagement>> management;
  OmpGroups groups;  // only where the wait states are recorded as edges (Context::emit_edges)
};
OmpOutcomes EvaluateOmpWaits(const Context& ctx, unsigned threads);

// The CPU threads of each process (location group), in location order.
std::vector<std::vector<uint32_t>> ThreadsOfProcesses(const trace::Definitions& defs);
// Whether any region is of the OpenMP paradigm.
bool HasOpenMp(const trace::Definitions& defs);

// Moves the groups into `sync`, after those already there.
void AppendOmpGroups(OmpOutcomes& outcomes, SyncEdges& sync);

// Charges one location's waits to their call paths, as instances of their patterns (barrier
// waits also as edges, with Context::emit_edges), and its management time to its parallel regions'
// call paths (a master's out of the call path that forked).
void ApplyOmpOutcomes(const Context& ctx, const OmpOutcomes& outcomes, uint32_t location,
                      LocationOutput& out);

}  // namespace cw::analysis::internal
