// One location's OpenSHMEM synchronisation, from its records on OpenSHMEM windows in order: the
// holds of distributed locks (whether each acquisition was asked for, so could have waited, and
// which record released it) and the writes to other PEs' memory with their completions.
//
// The wait-state analysis (analysis/waitstates/internal/shmem_patterns) and the what-if replay
// (sim/internal/one_sided_plan) both scan with it, so that they pair the same holders
// (one_sided_pairing.h: PreviousHolds) and the same writes with waits for a value
// (EndingWrites). Each names records by a reference of its own (`ref`: the analysis an event
// index, the replay an ordinal), which the scan hands back.
//
// The rules:
//   - RmaRequestLock counts a request of the lock; the next RmaAcquireLock of it is requested
//     (shmem_set_lock asks and may wait; a successful shmem_test_lock takes without asking);
//   - RmaReleaseLock ends the lock's latest hold;
//   - a put or atomic that sends data (bytes > 0) to another PE is a write; its first
//     completion record (blocking, non-blocking or remote) completes it. A fetch or a transfer
//     to the PE itself writes nothing another PE could wait for.
#pragma once

#include <cstdint>
#include <unordered_map>
#include <vector>

#include "trace/enums.h"
#include "trace/one_sided_pairing.h"

namespace cw::trace {

class ShmemSyncScan {
 public:
  struct Hold {
    LockAcquisition acquisition;
    uint32_t acquire_ref = kNone;
    uint32_t release_ref = kNone;  // kNone: never released
  };
  struct Write {
    ValueWrite write;  // `completed` from its completion record
    uint32_t issue_ref = kNone;
    uint32_t complete_ref = kNone;
  };

  explicit ShmemSyncScan(uint32_t location) : location_(location) {}

  void RequestLock(uint64_t lock) { ++requested_[lock]; }
  void AcquireLock(uint64_t lock, uint64_t time, uint32_t ref) {
    Hold h;
    h.acquisition = LockAcquisition{lock, time, location_, false};
    h.acquire_ref = ref;
    if (auto r = requested_.find(lock); r != requested_.end() && r->second > 0) {
      h.acquisition.requested = true;
      --r->second;
    }
    held_[lock] = static_cast<uint32_t>(holds_.size());
    holds_.push_back(h);
  }
  void ReleaseLock(uint64_t lock, uint32_t ref) {
    auto it = held_.find(lock);
    if (it == held_.end()) return;
    holds_[it->second].release_ref = ref;
    held_.erase(it);
  }
  // A put or atomic (`id` its matching id) of `bytes` towards `target` (a location; kNone for a
  // rank outside the window), recorded at `time`.
  void Transfer(uint64_t id, uint32_t target, uint64_t bytes, uint64_t time, uint32_t ref) {
    if (bytes == 0 || target == kNone || target == location_) return;
    pending_[id] = Write{ValueWrite{target, location_, time, 0}, ref, kNone};
  }
  void Complete(uint64_t id, uint64_t time, uint32_t ref) {
    auto it = pending_.find(id);
    if (it == pending_.end()) return;
    it->second.write.completed = time;
    it->second.complete_ref = ref;
    writes_.push_back(it->second);
    pending_.erase(it);
  }

  const std::vector<Hold>& holds() const { return holds_; }
  // Completed writes, in the order they completed.
  const std::vector<Write>& writes() const { return writes_; }

 private:
  uint32_t location_;
  std::unordered_map<uint64_t, uint32_t> requested_;  // lock -> requests not yet acquired
  std::unordered_map<uint64_t, uint32_t> held_;       // lock -> its latest hold
  std::unordered_map<uint64_t, Write> pending_;       // matching id -> write not yet completed
  std::vector<Hold> holds_;
  std::vector<Write> writes_;
};

}  // namespace cw::trace
