// The one-sided epochs of MPI windows, as each location's records show them (private to the
// RMA wait-state pass, rma_patterns.cc, which pairs them across locations): access and exposure
// epochs of general active target, passive-target lock epochs with the calls that may have
// waited for the lock, and the operations of fence epochs.
#pragma once

#include <cstdint>
#include <unordered_map>
#include <vector>

#include "analysis/waitstates/internal/context.h"

namespace cw::analysis::internal {

using trace::kNone;

// An MPI call of an epoch, where it may have waited.
struct Call {
  uint32_t callpath = kNone;
  uint32_t enter = kNone;  // its Enter event
  uint64_t entered = 0;
  uint64_t left = 0;
  bool transfer = false;  // a put, get or atomic (else a synchronisation call)

  // Whether `t` fell inside the call, after its Enter.
  bool Holds(uint64_t t) const { return callpath != kNone && entered < t && t <= left; }
};

struct Operation {
  uint32_t target = kNone;  // location
  uint64_t time = 0;        // of the put/get/atomic record
  Call call;
};

// An access epoch of general active-target synchronisation: MPI_Win_start ... MPI_Win_complete.
struct AccessEpoch {
  uint32_t location = kNone;
  uint32_t window = kNone;
  std::vector<uint32_t> targets;  // locations
  Call start;
  Call complete;
  bool closed = false;
  std::vector<Operation> operations;
  // Filled by pairing: the latest MPI_Win_post of its targets' exposure epochs.
  uint64_t last_post = 0;
  uint32_t last_poster = kNone;
  uint32_t last_post_event = kNone;  // the Enter of that MPI_Win_post
};

// An exposure epoch: MPI_Win_post ... MPI_Win_wait (or a successful MPI_Win_test).
struct ExposureEpoch {
  uint32_t location = kNone;
  uint32_t window = kNone;
  std::vector<uint32_t> origins;  // locations
  uint64_t posted = 0;            // Enter of MPI_Win_post
  uint32_t post_event = kNone;    // that Enter event
  Call wait;
  bool closed = false;
  bool waited = false;  // closed by MPI_Win_wait: MPI_Win_test never waits
  // Filled by pairing: the latest MPI_Win_complete of its origins' access epochs, and the
  // latest operation they issued to this location.
  uint64_t last_complete = 0;
  uint32_t last_completer = kNone;
  uint32_t last_complete_event = kNone;  // the Enter of that MPI_Win_complete
  uint64_t last_operation = 0;
};

// A passive-target epoch: MPI_Win_lock ... MPI_Win_unlock, or lock_all ... unlock_all.
struct LockEpoch {
  uint32_t location = kNone;
  uint32_t window = kNone;
  uint32_t target = kNone;  // location; kNone: every rank of the window (lock_all)
  bool exclusive = false;
  bool closed = false;
  // The call that released the lock (MPI_Win_unlock): the lock became free during it.
  uint64_t release_entered = 0;
  uint64_t released = 0;           // when that call returned
  uint32_t release_event = kNone;  // its Enter event

  std::vector<Call> calls;  // lock, transfers to the target, flushes, unlock: in order
};

// An operation issued in a fence epoch, with the fence member of its origin that closed it.
struct FenceOperation {
  uint32_t member = kNone;  // the origin's member of the closing MPI_Win_fence
  uint32_t target = kNone;  // location
  uint64_t time = 0;
};

// The same from the target's side: the target's member of that fence, named by its location and
// end event (which every analysis rank can name, unlike a member index of one rank's graph).
struct FenceArrival {
  uint32_t target = kNone;     // location
  uint32_t end_event = kNone;  // the target member's MpiCollectiveEnd
  uint64_t time = 0;           // of the operation
};

struct LocationEpochs {
  std::vector<AccessEpoch> access;
  std::vector<ExposureEpoch> exposure;
  std::vector<LockEpoch> locks;
  std::vector<FenceOperation> fence_operations;
};

// One location's epochs. `fence_members` maps the end events of the location's fences to their
// members in the match graph.
LocationEpochs ScanLocation(const Context& ctx, uint32_t location,
                            const std::unordered_map<uint32_t, uint32_t>& fence_members);

// Every rank learns every location's epochs and fence arrivals from the rank that scanned them:
// pairing epochs needs both sides, and a process pairs them all as one process would.
void ShareEpochs(const Context& ctx, std::vector<LocationEpochs>& epochs,
                 std::vector<std::vector<FenceArrival>>& arrivals);

}  // namespace cw::analysis::internal
