// Which one-sided synchronisation released which wait, from the records of all processes: the
// holders of a distributed lock in the order they acquired it, and the write that ended a wait
// for a value. The wait-state analysis measures the waits with it; the what-if replay makes the
// waiting call depend on the same partner, so that both agree on who waited for whom.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "trace/definitions.h"
#include "trace/enums.h"

namespace cw::trace {

// The paradigm of `window`'s communicator's group (kMpi for MPI windows, kShmem for OpenSHMEM's;
// CUDA and OpenCL copies have windows of their own), or kUnknown if something is undefined.
Paradigm WindowParadigm(const Definitions& defs, uint32_t window);
// Whether `defs` define a window of `paradigm` (passes that only windows of one paradigm concern
// skip traces without one).
bool HasWindowOf(const Definitions& defs, Paradigm paradigm);

// One acquisition of a lock (an RmaAcquireLock record of an OpenSHMEM lock).
struct LockAcquisition {
  uint64_t lock = 0;
  uint64_t acquired = 0;  // time of the acquisition record
  uint32_t location = kNone;
  bool requested = false;  // made by a call that asked for the lock and could wait for it
};

// For each acquisition (by index), the acquisition it waited for: the one before it of the same
// lock, in the order of acquisition times (ties by location, then index), if it was requested
// and that one was made on another location; kNone otherwise.
std::vector<uint32_t> PreviousHolds(std::span<const LockAcquisition> acquisitions);

// A passive-target epoch of an MPI window, closed by its unlock: MPI_Win_lock ... MPI_Win_unlock,
// or MPI_Win_lock_all ... MPI_Win_unlock_all.
struct PassiveEpoch {
  uint32_t window = kNone;
  uint32_t location = kNone;
  uint32_t target = kNone;  // location; kNone: every rank of the window (lock_all)
  bool exclusive = false;
  uint64_t released = 0;  // when its unlock returned
};

// For each epoch (by index), the epoch it waited for, or kNone. The holders of conflicting locks
// on one target are serialised, so they release in the order they held the lock: an epoch waited
// for the latest conflicting release before its own by another location (exclusive locks
// conflict with every lock, shared ones with exclusive ones; a lock_all with each target's, and
// waits for the latest of them). Windows without an exclusive lock never wait.
std::vector<uint32_t> ConflictingHolds(const Definitions& defs,
                                       std::span<const PassiveEpoch> epochs);

// Which of an epoch's calls (in order; each with `entered` and `left`) waited for a holder whose
// unlock began at `release_entered`: the first call still running then, if it had begun before
// (MPI_Win_lock if the library acquires locks eagerly, else a transfer, a flush or the unlock);
// nullptr if none. It waited until the holder entered its unlock, as a receive waits until its
// sender entered the send.
template <typename Call>
const Call* WaitingCall(std::span<const Call> calls, uint64_t release_entered) {
  for (const Call& call : calls) {
    if (call.left <= release_entered) continue;
    return call.entered < release_entered ? &call : nullptr;
  }
  return nullptr;
}

// A write (a put or an atomic that sends data) to another location's memory.
struct ValueWrite {
  uint32_t target = kNone;  // location
  uint32_t origin = kNone;  // location
  uint64_t issued = 0;      // time of its transfer record, inside the call that issued it
  uint64_t completed = 0;   // time of its completion record
};

// A wait for a value (shmem_wait_until) on `location`, from `entered` to `left`.
struct ValueWait {
  uint32_t location = kNone;
  uint64_t entered = 0;
  uint64_t left = 0;
};

// For each wait (by index), the write that ended it: of the writes to its location from other
// locations, the one that completed last by the time the wait ended (ties by origin, then index),
// if it completed after the wait began (else the value was there already). If none completed
// during the wait, the first write that was in flight when it ended (issued before, completed
// after): a blocking put's completion record is written when the call returns, and the target
// can see the value before that. kNone otherwise. A write ends at most one wait: a wait whose
// latest write already ended an earlier wait found the value there.
std::vector<uint32_t> EndingWrites(std::span<const ValueWait> waits,
                                   std::span<const ValueWrite> writes);

}  // namespace cw::trace
