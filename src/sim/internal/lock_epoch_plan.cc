#include "sim/internal/lock_epoch_plan.h"

#include <algorithm>
#include <span>

namespace cw::sim::internal {

using trace::EventKind;

// The innermost open region is the call (an MPI call holds no other region); records outside
// every region belong to no call and are left out, as the replay leaves them out of its calls.
void LockEpochScan::AddCall(uint32_t epoch, uint32_t ordinal) {
  if (frames_.empty()) return;
  Frame& frame = frames_.back();
  if (last_frame_[epoch] == frame.serial) return;  // another record of the same call
  last_frame_[epoch] = frame.serial;
  std::vector<Call>& calls = epochs_[epoch].calls;
  frame.calls.emplace_back(epoch, static_cast<uint32_t>(calls.size()));
  calls.push_back(Call{frame.entered, 0, ordinal});
}

void LockEpochScan::Add(const SimEvent& e, uint32_t ordinal) {
  if (e.kind == EventKind::kEnter) {
    frames_.push_back(Frame{e.time, next_serial_++, {}, kNone});
    return;
  }
  if (e.kind == EventKind::kLeave) {
    if (frames_.empty()) return;
    const Frame& frame = frames_.back();
    for (const auto& [epoch, call] : frame.calls) epochs_[epoch].calls[call].left = e.time;
    if (frame.releases != kNone) {
      Epoch& closed = epochs_[frame.releases];
      closed.closed = true;
      closed.passive.released = e.time;
    }
    frames_.pop_back();
    return;
  }
  if (ordinal == kNone) return;
  const bool all_ranks = (e.tag & kLockOnAllRanks) != 0;
  const bool exclusive = (e.tag & ~kLockOnAllRanks) == trace::kLockExclusive;
  const trace::PassiveRecord record{e.kind, e.comm, e.peer, all_ranks, exclusive, e.request};
  scan_.Add(record, [&](uint32_t epoch, trace::EpochStep step) {
    switch (step) {
      case trace::EpochStep::kOpened: {
        Epoch& opened = epochs_.emplace_back();
        opened.passive =
            trace::PassiveEpoch{e.comm, location_, scan_.epochs()[epoch].target, exclusive, 0};
        last_frame_.push_back(kNone);
        break;
      }
      case trace::EpochStep::kJoined:
        AddCall(epoch, ordinal);
        break;
      case trace::EpochStep::kClosed:
        // The epoch closes when its unlock returns; an unlock that never returns leaves it open.
        if (!frames_.empty()) {
          frames_.back().releases = epoch;
          epochs_[epoch].release_entered = frames_.back().entered;
          epochs_[epoch].release_ordinal = ordinal;
        }
        break;
    }
  });
}

void PlanLockHandOvers(const trace::Definitions& defs, const std::vector<LockEpochScan>& scans,
                       OneSidedPlan& plan) {
  struct Ref {
    uint32_t location;
    uint32_t epoch;
  };
  std::vector<Ref> refs;
  std::vector<trace::PassiveEpoch> passive;
  for (uint32_t loc = 0; loc < scans.size(); ++loc) {
    const std::vector<LockEpochScan::Epoch>& epochs = scans[loc].epochs();
    for (uint32_t i = 0; i < epochs.size(); ++i) {
      if (!epochs[i].closed) continue;
      refs.push_back(Ref{loc, i});
      passive.push_back(epochs[i].passive);
    }
  }
  const std::vector<uint32_t> holds = trace::ConflictingHolds(defs, passive);
  for (size_t k = 0; k < holds.size(); ++k) {
    if (holds[k] == kNone) continue;
    const LockEpochScan::Epoch& waiter = scans[refs[k].location].epochs()[refs[k].epoch];
    const LockEpochScan::Epoch& holder =
        scans[refs[holds[k]].location].epochs()[refs[holds[k]].epoch];
    const LockEpochScan::Call* call = trace::WaitingCall(
        std::span<const LockEpochScan::Call>(waiter.calls), holder.release_entered);
    if (call == nullptr) continue;
    const auto tag = static_cast<uint32_t>(plan.mpi_handovers++);
    plan.lock_waits[refs[k].location].push_back(
        PlannedNotice{call->ordinal, refs[holds[k]].location, tag});
    plan.unlock_notices[refs[holds[k]].location].push_back(
        PlannedNotice{holder.release_ordinal, refs[k].location, tag});
  }
  auto by_ordinal = [](const PlannedNotice& a, const PlannedNotice& b) {
    return a.ordinal < b.ordinal;
  };
  for (std::vector<PlannedNotice>& v : plan.lock_waits) {
    std::stable_sort(v.begin(), v.end(), by_ordinal);
  }
  for (std::vector<PlannedNotice>& v : plan.unlock_notices) {
    std::stable_sort(v.begin(), v.end(), by_ordinal);
  }
}

}  // namespace cw::sim::internal
