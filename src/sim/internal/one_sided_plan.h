// Who released whom in the measured run's one-sided synchronisation, for the what-if replay.
//
// A lock hand-over and a wait for a value pair calls of two processes that no record names
// together: the analysis pairs them from all processes' records (trace/one_sided_pairing.h).
// The replay streams each location on its own, so a first pass reads every location once and
// pairs them the same way; the replay then makes the waiting call depend on its partner's call
// (a notification on a channel of their own, as MPI_Win_post notifies MPI_Win_complete):
//   - OpenSHMEM: the k-th lock acquisition of a location waits for the release of the hold
//     before it (the order in which the contenders got each lock stays the measured one); the
//     k-th shmem_wait_until of a location waits for the write that ended it, from the moment
//     that write was issued;
//   - MPI passive target: the call of a lock epoch that waited for a conflicting holder
//     (MPI_Win_lock, a transfer, a flush or MPI_Win_unlock) waits for that holder's
//     MPI_Win_unlock to begin (lock_epoch_plan.h).
// Records are counted per location in event order, by kind (OneSidedRecord), and a record is
// named by its ordinal among the location's records of its kind.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "base/status.h"
#include "sim/replay.h"

namespace cw::sim::internal {

// The records the plan names, by kind.
enum class OneSidedRecord : uint8_t {
  kShmemAcquire,  // RmaAcquireLock on an OpenSHMEM window
  kShmemRelease,  // RmaReleaseLock on an OpenSHMEM window
  kShmemWrite,    // RmaPut or RmaAtomic that sends data, on an OpenSHMEM window
  kShmemWait,     // RmaWaitChange on an OpenSHMEM window
  kMpiEpoch,      // a record of a passive-target epoch's calls on an MPI window: a transfer, its
                  // completion or test, a lock request, acquisition or release
  kUnnamed,       // every other record
};
inline constexpr size_t kOneSidedRecordKinds = static_cast<size_t>(OneSidedRecord::kUnnamed);

// The kind of `e` (kUnnamed for records the plan does not name).
OneSidedRecord RecordKindOf(const trace::Definitions& defs, const SimEvent& e);

// One location's count of records by kind, as the plan and the replay both count them.
struct OneSidedOrdinals {
  std::array<uint32_t, kOneSidedRecordKinds> next{};
  // The ordinal of `kind`'s next record (and counts it).
  uint32_t Take(OneSidedRecord kind) { return next[static_cast<size_t>(kind)]++; }
};

// A notification named by the record that carries it: an MPI lock hand-over.
struct PlannedNotice {
  uint32_t ordinal = 0;  // of the kMpiEpoch record
  uint32_t partner = kNone;
  uint32_t tag = 0;  // the hand-over's number: each hand-over has a channel of its own
};

struct OneSidedPlan {
  // OpenSHMEM, per location, per ordinal of the record of its kind: the partner, or kNone.
  std::vector<std::vector<uint32_t>> acquire_from;  // kShmemAcquire: the previous holder
  std::vector<std::vector<uint32_t>> release_to;    // kShmemRelease: the next holder
  std::vector<std::vector<uint32_t>> wait_from;     // kShmemWait: the writer that ended it
  std::vector<std::vector<uint32_t>> write_to;      // kShmemWrite: the PE whose wait it ended
  // MPI passive target, per location, in order of the kMpiEpoch record's ordinal:
  std::vector<std::vector<PlannedNotice>> lock_waits;      // the first record of the waiting call
                                                           // in its epoch: the holder it waits for
  std::vector<std::vector<PlannedNotice>> unlock_notices;  // the holder's ReleaseLock: whom its
                                                           // MPI_Win_unlock lets go on
  uint64_t shmem_handovers = 0;                            // lock hand-overs between locations
  uint64_t mpi_handovers = 0;
  uint64_t value_waits = 0;

  bool empty() const { return shmem_handovers == 0 && mpi_handovers == 0 && value_waits == 0; }
};

// Reads every location of `input` once (only if the definitions hold an OpenSHMEM or an MPI
// window: other traces have nothing to pair).
Result<OneSidedPlan> BuildOneSidedPlan(const ReplayInput& input);

}  // namespace cw::sim::internal
