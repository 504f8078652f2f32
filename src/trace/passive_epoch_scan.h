// One location's passive-target lock epochs on MPI windows (MPI_Win_lock ... MPI_Win_unlock,
// MPI_Win_lock_all ... MPI_Win_unlock_all), from its one-sided records in order: which epoch
// each record opens or closes, and which open epochs the call holding the record belongs to.
//
// The wait-state analysis (analysis/waitstates/internal/rma_epochs) and the what-if replay
// (sim/internal/lock_epoch_plan) both scan with it, so that they put the same calls in the same
// epochs and then pair the same partners (one_sided_pairing.h: ConflictingHolds, WaitingCall).
// Each keeps its own record of a call (the analysis its call path and times, the replay its
// place in the replayed stream); the scanner only says which epochs a record concerns.
//
// The rules:
//   - RmaRequestLock and RmaTryLock open an epoch on the target (a location; kNone for a
//     lock_all), RmaAcquireLock joins it, RmaReleaseLock joins and closes it;
//   - a transfer (put, get, atomic) joins the open epochs on its target and on every rank;
//   - a completion of a transfer joins the open epochs on the transfer's target, whichever kind
//     it is: blocking, non-blocking, remote (a flush's: the flush may be where a lazily acquired
//     lock was waited for) or a test. A transfer is forgotten at its first completion other
//     than a test, so that the scan holds only the transfers in flight.
//
//   PassiveEpochScan scan;
//   scan.Add({kind, window, target, lock_all, exclusive, id}, [&](uint32_t epoch, EpochStep s) {
//     if (s == EpochStep::kOpened) ...;   // then kJoined for the same record
//   });
#pragma once

#include <cstdint>
#include <unordered_map>
#include <utility>
#include <vector>

#include "trace/enums.h"
#include "trace/event_kind.h"

namespace cw::trace {

// One one-sided record of an MPI window, as the scanner needs it.
struct PassiveRecord {
  EventKind kind = EventKind::kRmaPut;
  uint32_t window = kNone;
  // The location the record names: the target of a transfer or lock. kNone with `lock_all` for
  // a lock record that names no rank, kNone without it for a rank outside the window.
  uint32_t target = kNone;
  bool lock_all = false;
  bool exclusive = false;  // of a lock request
  uint64_t id = 0;         // a transfer's matching id (transfers and their completions)
};

enum class EpochStep {
  kOpened,  // the record opened the epoch (a kJoined for it follows)
  kJoined,  // the record's call belongs to the epoch
  kClosed,  // the record released the epoch's lock (after its kJoined)
};

// An epoch as the scanner opened it.
struct PassiveEpochOpened {
  uint32_t window = kNone;
  uint32_t target = kNone;  // location; kNone: every rank of the window (lock_all)
  bool exclusive = false;
};

class PassiveEpochScan {
 public:
  // Calls `step(epoch, EpochStep)` for each epoch the record opens, joins or closes; returns
  // whether the record joined any. Records of other kinds are ignored.
  template <typename F>
  bool Add(const PassiveRecord& r, F&& step);

  // The epochs opened so far, by index.
  const std::vector<PassiveEpochOpened>& epochs() const { return epochs_; }

 private:
  struct Window {
    std::unordered_map<uint32_t, uint32_t> locks;      // target location (kNone: all) -> epoch
    std::unordered_map<uint64_t, uint32_t> op_target;  // matching id -> target location
  };

  // The open epochs of `w` on `target`: its own and a lock_all's.
  template <typename F>
  static bool ForOpenLocks(const Window& w, uint32_t target, F&& f) {
    bool any = false;
    if (auto it = w.locks.find(target); it != w.locks.end()) {
      f(it->second);
      any = true;
    }
    if (target != kNone) {
      if (auto it = w.locks.find(kNone); it != w.locks.end()) {
        f(it->second);
        any = true;
      }
    }
    return any;
  }

  std::unordered_map<uint32_t, Window> windows_;
  std::vector<PassiveEpochOpened> epochs_;
};

template <typename F>
bool PassiveEpochScan::Add(const PassiveRecord& r, F&& step) {
  auto joined = [&step](uint32_t epoch) { step(epoch, EpochStep::kJoined); };
  switch (r.kind) {
    case EventKind::kRmaPut:
    case EventKind::kRmaGet:
    case EventKind::kRmaAtomic: {
      Window& w = windows_[r.window];
      w.op_target[r.id] = r.target;
      return ForOpenLocks(w, r.target, joined);
    }
    case EventKind::kRmaOpCompleteBlocking:
    case EventKind::kRmaOpCompleteNonBlocking:
    case EventKind::kRmaOpCompleteRemote:
    case EventKind::kRmaOpTest: {
      Window& w = windows_[r.window];
      auto it = w.op_target.find(r.id);
      if (it == w.op_target.end()) return false;
      const bool any = ForOpenLocks(w, it->second, joined);
      if (r.kind != EventKind::kRmaOpTest) w.op_target.erase(it);
      return any;
    }
    case EventKind::kRmaRequestLock:
    case EventKind::kRmaTryLock: {
      if (!r.lock_all && r.target == kNone) return false;  // a rank outside the window
      const auto epoch = static_cast<uint32_t>(epochs_.size());
      epochs_.push_back(PassiveEpochOpened{r.window, r.lock_all ? kNone : r.target, r.exclusive});
      windows_[r.window].locks[r.lock_all ? kNone : r.target] = epoch;
      step(epoch, EpochStep::kOpened);
      step(epoch, EpochStep::kJoined);
      return true;
    }
    case EventKind::kRmaAcquireLock:
    case EventKind::kRmaReleaseLock: {
      Window& w = windows_[r.window];
      auto it = w.locks.find(r.lock_all ? kNone : r.target);
      if (it == w.locks.end()) return false;
      const uint32_t epoch = it->second;
      step(epoch, EpochStep::kJoined);
      if (r.kind == EventKind::kRmaReleaseLock) {
        w.locks.erase(it);
        step(epoch, EpochStep::kClosed);
      }
      return true;
    }
    default:
      return false;
  }
}

}  // namespace cw::trace
