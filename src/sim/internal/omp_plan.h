// Which OpenMP synchronisation of the measured run each thread's record took part in, for the
// what-if replay.
//
// The records of a team's start, of a barrier instance and of a lock hand-over name no partner
// thread: the wait-state analysis groups them from all threads' records of a process
// (analysis/waitstates/internal/omp_patterns.cc). The replay streams each location on its own,
// so a first pass reads every thread of a process with OpenMP once and groups them the same way:
//   - a team: the master's ThreadFork and, on each other thread, its first ThreadTeamBegin
//     between that fork and the master's ThreadJoin (teams inside teams, nested parallelism, are
//     left alone, as the analysis leaves them);
//   - a barrier instance: the k-th Enter of an OpenMP barrier (explicit or implicit) of every
//     thread of a team within the team's fork and join;
//   - a lock hand-over: the release of acquisition k - 1 of a lock of the process to acquisition
//     k (ThreadAcquireLock and ThreadReleaseLock carry the lock and the acquisition order).
// The replay then makes a worker's team begin wait for its master's fork, a barrier's threads
// leave together after the last one arrived, and an acquisition wait for the previous holder's
// release (sim/internal/engine_omp.cc). Records are named by their ordinal among the location's
// records of their kind, counted in event order (OmpOrdinals).
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "sim/replay.h"

namespace cw::sim::internal {

// The OpenMP records the plan names, by kind.
enum class OmpRecord : uint8_t {
  kFork,          // ThreadFork of OpenMP
  kTeamBegin,     // ThreadTeamBegin
  kBarrierEnter,  // Enter of an OpenMP barrier or implicit barrier
  kAcquire,       // ThreadAcquireLock of OpenMP
  kRelease,       // ThreadReleaseLock of OpenMP
  kUnnamed,       // every other record
};
inline constexpr size_t kOmpRecordKinds = static_cast<size_t>(OmpRecord::kUnnamed);

// Per region: whether it is an OpenMP barrier (explicit or implicit).
std::vector<uint8_t> OmpBarrierRegions(const trace::Definitions& defs);

// The kind of `e`; `barrier_regions` as OmpBarrierRegions gives them.
OmpRecord OmpRecordOf(const SimEvent& e, const std::vector<uint8_t>& barrier_regions);

// One location's count of records by kind, as the plan and the replay both count them.
struct OmpOrdinals {
  std::array<uint32_t, kOmpRecordKinds> next{};
  // The ordinal of `kind`'s next record (and counts it).
  uint32_t Take(OmpRecord kind) { return next[static_cast<size_t>(kind)]++; }
};

// A barrier instance a record takes part in: the instance's number and how many threads meet
// there (0: no other thread, nothing to wait for).
struct OmpBarrierPart {
  uint32_t instance = 0;
  uint32_t members = 0;
};

struct OmpPlan {
  // Per location, per ordinal of the record of the kind:
  std::vector<std::vector<std::vector<uint32_t>>> fork_to;  // kFork: the team's other threads
  std::vector<std::vector<uint32_t>> team_from;             // kTeamBegin: the forking master
  std::vector<std::vector<OmpBarrierPart>> barriers;        // kBarrierEnter
  std::vector<std::vector<uint32_t>> acquire_from;          // kAcquire: the previous holder
  std::vector<std::vector<uint32_t>> release_to;            // kRelease: the next holder
  uint64_t team_starts = 0;        // worker team begins that wait for a fork
  uint64_t barrier_instances = 0;  // with at least two threads
  uint64_t lock_handovers = 0;     // between two threads

  bool empty() const { return team_starts == 0 && barrier_instances == 0 && lock_handovers == 0; }
};

// Reads every location of `input` once, if its definitions hold an OpenMP region (other traces
// have nothing to pair). A stream that breaks off is planned as far as it was read; the replay
// reports its error.
OmpPlan BuildOmpPlan(const ReplayInput& input);

}  // namespace cw::sim::internal
