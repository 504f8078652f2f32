// MPI lock hand-overs for the what-if replay (one_sided_plan.h): each location's passive-target
// epochs, with the calls that may have waited for the lock, scanned (trace/passive_epoch_scan.h)
// and paired across locations (trace/one_sided_pairing.h: ConflictingHolds, WaitingCall) as the
// wait-state analysis scans and pairs them.
#pragma once

#include <cstdint>
#include <unordered_map>
#include <vector>

#include "sim/internal/one_sided_plan.h"
#include "trace/one_sided_pairing.h"
#include "trace/passive_epoch_scan.h"

namespace cw::sim::internal {

// One location's lock epochs on MPI windows, from its events in order.
class LockEpochScan {
 public:
  explicit LockEpochScan(uint32_t location) : location_(location) {}

  // `ordinal`: the event's ordinal among the location's kMpiEpoch records, kNone for others.
  void Add(const SimEvent& e, uint32_t ordinal);

  // A call of an epoch: where its Enter and Leave were, and the first of its records in the
  // epoch (the replay names the call by it).
  struct Call {
    uint64_t entered = 0;
    uint64_t left = 0;  // 0 while (or if never) closed
    uint32_t ordinal = kNone;
  };
  struct Epoch {
    trace::PassiveEpoch passive;  // `released` once closed
    bool closed = false;          // its unlock returned
    uint64_t release_entered = 0;
    uint32_t release_ordinal = kNone;  // its ReleaseLock record
    std::vector<Call> calls;           // in order
  };
  const std::vector<Epoch>& epochs() const { return epochs_; }

 private:
  struct Frame {
    uint64_t entered = 0;
    uint32_t serial = 0;
    std::vector<std::pair<uint32_t, uint32_t>> calls;  // (epoch, call) that this frame is
    uint32_t releases = kNone;                         // the epoch this frame's unlock closes
  };
  void AddCall(uint32_t epoch, uint32_t ordinal);

  uint32_t location_;
  std::vector<Frame> frames_;
  uint32_t next_serial_ = 0;
  std::vector<uint32_t> last_frame_;  // per epoch: the serial of its last call's frame
  trace::PassiveEpochScan scan_;      // which epochs each record concerns, as the analysis scans
  std::vector<Epoch> epochs_;
};

// Pairs the epochs of all locations (indexed by location) and fills the plan's lock_waits and
// unlock_notices (sized to the locations already) and mpi_handovers.
void PlanLockHandOvers(const trace::Definitions& defs, const std::vector<LockEpochScan>& scans,
                       OneSidedPlan& plan);

}  // namespace cw::sim::internal
