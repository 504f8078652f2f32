// The wait states that the root-cause analyses follow, as edges between locations.
//
// The wait-state analysis measures how long a call waited; the delay and critical-path analyses
// need to know for whom and where, and which collective operations synchronised groups of
// locations (the ends of their synchronisation intervals). Every edge is emitted where its wait
// is charged to a metric, with the same value, so the edges of a pattern sum to that pattern's
// wait-state metric.
//
//   const SyncEdges& s = result.sync;
//   for (const WaitEdge& e : s.edges)   // e.waiter waited e.wait ticks in the call holding
//     ...                              // e.waiter_event, for e.delayer's call holding
//     e.delayer_event
#pragma once

#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "analysis/metrics/metric_catalog.h"
#include "analysis/metrics/semantics.h"
#include "trace/enums.h"

namespace cw::analysis {

// The kind of wait: which wait-state metrics it is charged to.
enum class SyncPattern : uint8_t {
  kLateSender,    // mpi_latesender (receives and probes)
  kLateReceiver,  // mpi_latereceiver
  kBarrier,       // mpi_barrier_wait
  kNxN,           // mpi_wait_nxn
  kOneToN,        // mpi_latebroadcast
  kNToOne,        // mpi_earlyreduce
  kScan,          // mpi_earlyscan
  kFinalize,      // mpi_finalize_wait
  kSenders,       // mpi_wait_senders (v-collectives whose trace names the senders)
  // OpenMP, between the threads of a process.
  kOmpBarrier,  // omp_ebarrier_wait, omp_ibarrier_wait
  kOmpLock,     // omp_lock_contention_critical, omp_lock_contention_api
  // MPI one-sided communication.
  kRmaCollective,  // mpi_rma_wait_at_fence, mpi_rma_wait_at_create, mpi_rma_wait_at_free
  kRmaLatePost,    // mpi_rma_sync_late_post, mpi_rma_comm_late_post
  kRmaEarlyWait,   // mpi_rma_early_wait
  kRmaLock,        // mpi_rma_sync_lock_competition, mpi_rma_comm_lock_competition
  // OpenSHMEM.
  kShmemBarrier,      // shmem_barrier_wait
  kShmemCollective,   // shmem_collective_wait
  kShmemLock,         // shmem_lock_contention
  kShmemWaitOnValue,  // shmem_wait_on_value
};
inline constexpr int kSyncPatternCount = 19;

// The wait-state metrics a pattern's waits are charged to (one each).
std::span<const MetricId> WaitMetricsOf(SyncPattern p);
inline bool IsPointToPoint(SyncPattern p) {
  return p == SyncPattern::kLateSender || p == SyncPattern::kLateReceiver;
}
// MPI one-sided communication and OpenSHMEM: waits on windows.
inline bool IsOneSided(SyncPattern p) {
  return static_cast<int>(p) >= static_cast<int>(SyncPattern::kRmaCollective);
}
inline bool IsShmem(SyncPattern p) {
  return static_cast<int>(p) >= static_cast<int>(SyncPattern::kShmemBarrier);
}
inline bool IsOpenMp(SyncPattern p) {
  return p == SyncPattern::kOmpBarrier || p == SyncPattern::kOmpLock;
}
std::string_view SyncPatternName(SyncPattern p);
// Whether the delay and critical-path analyses follow waits of pattern `p` under `semantics`:
// Scalasca 2.6 follows neither Wait at Finalize nor Early Scan, nor any one-sided wait. Neither
// follows OpenMP's lock waits (Scalasca has no delay costs for them): a critical section's
// holder works between its own acquisition and release, inside the construct, where no
// synchronisation interval of the holder ends. The bottleneck analysis follows them
// (KeepFollowedEdges hands them over).
inline bool FollowedUnder(SyncPattern p, Semantics semantics) {
  if (p == SyncPattern::kOmpLock) return false;
  return semantics == Semantics::kCauseway ||
         (p != SyncPattern::kFinalize && p != SyncPattern::kScan && !IsOneSided(p));
}
inline bool FollowedByBottleneckAnalysisOnly(SyncPattern p) { return p == SyncPattern::kOmpLock; }

// One wait state: `waiter` waited `wait` ticks at the start of the call that holds
// `waiter_event`, until `delayer` entered the call that holds `delayer_event`. Events are indices
// into the locations' event columns: an MPI record inside the call, or the call's Enter.
struct WaitEdge {
  uint32_t waiter = trace::kNone;
  uint32_t waiter_event = trace::kNone;
  uint32_t delayer = trace::kNone;
  uint32_t delayer_event = trace::kNone;
  int64_t wait = 0;  // ticks, > 0
  SyncPattern pattern = SyncPattern::kLateSender;
};

// A collective operation after which every pair of its members has synchronised: a barrier, an
// N-to-N operation whose members overlapped, MPI_Init, MPI_Finalize, an OpenMP barrier, the start
// of an OpenMP team. (Rooted and prefix operations synchronise only the pairs of their wait
// edges.)
struct SyncGroup {
  uint32_t key = trace::kNone;  // communicator id, or kInitGroupKey / kFinalizeGroupKey
  uint32_t first_member = 0;    // into SyncEdges::group_members
  uint32_t member_count = 0;
  // Names the group on every rank of an MPI analysis job: the rank that built the collective
  // instance and its index there (one process: the instance's index), or kInitGroupKey /
  // kFinalizeGroupKey with all upper bits set. OpenMP groups (kOmpTeamGroupKey) have all their
  // members on one rank and are never named across ranks.
  uint64_t origin = 0;
  // The start of an OpenMP team: its master, whose ThreadFork every member's team began after
  // (the critical path goes on from a worker's team start to its master's fork); kNone otherwise.
  uint32_t leader = trace::kNone;
};
inline constexpr uint32_t kInitGroupKey = 0xFFFFFFF0u;
inline constexpr uint32_t kFinalizeGroupKey = 0xFFFFFFF1u;
// The OpenMP barriers and team starts of a process: one key for all, as they follow each other
// on every thread. Their members' events stand for themselves (a barrier's Enter, a worker's
// ThreadTeamBegin, the master's ThreadFork) instead of the call that holds them: a master forks
// inside the function that opened the parallel region.
inline constexpr uint32_t kOmpTeamGroupKey = 0xFFFFFFF2u;
inline constexpr uint64_t GroupOriginOfKey(uint32_t key) { return (~uint64_t{0} << 32) | key; }

struct GroupMember {
  uint32_t location = trace::kNone;
  // Inside the member's call, or its Enter (OpenMP groups: the event itself). Distributed: kNone
  // for other ranks' locations.
  uint32_t event = trace::kNone;
};

// Distributed (one rank of an MPI analysis job): the edges of the rank's own waiters, and the
// groups that have one of its locations as member, with all their members.
// A location's completion of one synchronisation as Scalasca measures it, where a delay
// interval that starts there begins (--semantics scalasca): `event` is the synchronisation's
// record in the call (a collective's end record, MPI_Init's Enter).
struct EventCompletion {
  uint32_t event = trace::kNone;
  int64_t ticks = 0;
};

struct SyncEdges {
  std::vector<WaitEdge> edges;  // grouped by waiter location, in the order they were found
  std::vector<SyncGroup> groups;
  std::vector<GroupMember> group_members;
  // The first MPI_Init(_thread) and MPI_Finalize call of each location (Enter event or kNone).
  std::vector<uint32_t> init_call;
  std::vector<uint32_t> finalize_call;
  // By location, in event order: Scalasca's completion of its barriers, N x N operations,
  // broadcasts it waited in or was the root of, and MPI_Init (WaitStateOptions::
  // interval_completions; empty otherwise). Elsewhere both tools use the partner's exit.
  std::vector<std::vector<EventCompletion>> completions;
};

// Takes the edges of patterns that `semantics` does not follow out of `sync` (before
// BuildSyncPoints): their waits stay wait states, but the root-cause analyses neither explain
// nor follow them. Returns those of them that the bottleneck analysis follows
// (FollowedByBottleneckAnalysisOnly), for its causes.
std::vector<WaitEdge> KeepFollowedEdges(SyncEdges& sync, Semantics semantics);

// The edges the bottleneck analysis follows: `followed` (the root-cause analyses') and then
// `bottleneck_only` (KeepFollowedEdges' result), held by `bottleneck_only` when it has any.
std::span<const WaitEdge> BottleneckEdges(std::span<const WaitEdge> followed,
                                          std::vector<WaitEdge>& bottleneck_only);

}  // namespace cw::analysis
