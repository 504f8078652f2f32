// The hooks of one-sided communication: windows, their synchronisation and their operations,
// recorded as Score-P records them (RmaWinCreate/Destroy inside an RmaCollectiveBegin/End pair,
// RmaCollectiveEnd for MPI_Win_fence, RmaGroupSync for post/start/complete/wait, lock records for
// passive-target epochs, RmaPut/RmaGet/RmaAtomic for operations and RmaOpCompleteBlocking where
// the epoch completes them).
#include <algorithm>
#include <vector>

#include "measure/runtime/hooks.h"
#include "measure/runtime/recorder.h"

namespace cw::measure::hook {
namespace {

WindowState* Find(MPI_Win win) {
  State& s = S();
  auto it = s.windows.find(win);
  return it == s.windows.end() ? nullptr : &it->second;
}

uint32_t Target(int rank) { return rank < 0 ? kNoRank : static_cast<uint32_t>(rank); }

// Records the completion of the window's pending operations to `target` (kAllTargets: all).
void CompletePending(WindowState& w, int target) {
  auto done = [&](const WindowState::PendingOp& op) {
    return target == kAllTargets || op.target == static_cast<uint32_t>(target);
  };
  for (const WindowState::PendingOp& op : w.pending) {
    if (done(op)) Record(RawKind::kRmaOpCompleteBlocking, w.local, 0, 0, 0, op.id);
  }
  w.pending.erase(std::remove_if(w.pending.begin(), w.pending.end(), done), w.pending.end());
}

// The local id of `group`, defined on first use by its members' world ranks.
uint32_t GroupId(MPI_Group group) {
  int size = 0;
  if (group == MPI_GROUP_NULL || PMPI_Group_size(group, &size) != MPI_SUCCESS) return kNoGroup;
  std::vector<int> ranks(static_cast<size_t>(size)), world(static_cast<size_t>(size));
  for (int i = 0; i < size; ++i) ranks[static_cast<size_t>(i)] = i;
  MPI_Group world_group;
  PMPI_Comm_group(MPI_COMM_WORLD, &world_group);
  PMPI_Group_translate_ranks(group, size, ranks.data(), world_group, world.data());
  PMPI_Group_free(&world_group);
  return GroupOfWorldRanks(world);
}

// Records an operation (c and op as raw_format.h says for its kind) and keeps it pending.
void Operation(RawKind kind, uint64_t sent, uint32_t c, uint8_t op, int target, MPI_Win win) {
  WindowState* w = Find(win);
  if (w == nullptr || target == MPI_PROC_NULL || target < 0) return;
  const uint64_t id = S().next_rma_op++;
  Record(kind, w->local, Target(target), c, sent, id, op);
  w->pending.push_back(WindowState::PendingOp{Target(target), id});
}

}  // namespace

// Stamped with the Enter's time, as Score-P stamps it.
void RmaCollBegin() { RecordAtEnter(RawKind::kRmaCollectiveBegin); }

void WinCreated(MPI_Comm comm, const MPI_Win* win) {
  State& s = S();
  if (win == nullptr || *win == MPI_WIN_NULL) return;
  WatchWindow(*win);
  unsigned proposal = s.next_global_window++, agreed = 0;  // as in CommCreated
  {
    HookUnlock unlock;
    PMPI_Allreduce(&proposal, &agreed, 1, MPI_UNSIGNED, MPI_MAX, comm);
  }
  s.next_global_window = std::max(s.next_global_window, agreed + 1);
  WindowState w;
  w.local = s.next_local_window++;
  w.comm = CommId(comm);
  s.log.Define("win " + std::to_string(w.local) + " " + std::to_string(agreed) + " " +
               std::to_string(w.comm));
  Record(RawKind::kRmaWinCreate, w.local);
  Record(RawKind::kRmaCollectiveEnd, w.local, kNoRank, kSyncProcess, 0, 0,
         OTF2_COLLECTIVE_OP_CREATE_HANDLE);
  s.windows[*win] = std::move(w);
}

void SaveWindow(const MPI_Win* win) { T().saved_window = win != nullptr ? *win : MPI_WIN_NULL; }

void WinFreed() {
  State& s = S();
  WindowState* w = Find(T().saved_window);
  if (w == nullptr) return;
  CompletePending(*w, kAllTargets);
  Record(RawKind::kRmaCollectiveEnd, w->local, kNoRank, kSyncFull, 0, 0,
         OTF2_COLLECTIVE_OP_DESTROY_HANDLE);
  Record(RawKind::kRmaWinDestroy, w->local);
  s.windows.erase(T().saved_window);
  T().saved_window = MPI_WIN_NULL;
}

void Fenced(MPI_Win win) {
  WindowState* w = Find(win);
  if (w == nullptr) return;
  CompletePending(*w, kAllTargets);
  Record(RawKind::kRmaCollectiveEnd, w->local, kNoRank, kSyncFull, 0, 0,
         OTF2_COLLECTIVE_OP_BARRIER);
}

void ExposurePosted(MPI_Group group, MPI_Win win) {
  WindowState* w = Find(win);
  if (w == nullptr) return;
  w->exposure_group = GroupId(group);
  Record(RawKind::kRmaGroupSync, w->local, w->exposure_group, kSyncProcess);
}

void AccessStarted(MPI_Group group, MPI_Win win) {
  WindowState* w = Find(win);
  if (w == nullptr) return;
  w->access_group = GroupId(group);
  Record(RawKind::kRmaGroupSync, w->local, w->access_group, kSyncProcess);
}

void AccessCompleted(MPI_Win win) {
  WindowState* w = Find(win);
  if (w == nullptr) return;
  CompletePending(*w, kAllTargets);
  Record(RawKind::kRmaGroupSync, w->local, w->access_group, kSyncFull);
}

void ExposureWaited(MPI_Win win) {
  WindowState* w = Find(win);
  if (w == nullptr) return;
  Record(RawKind::kRmaGroupSync, w->local, w->exposure_group, kSyncFull);
}

void ExposureTested(const int* flag, MPI_Win win) {
  if (flag != nullptr && *flag != 0) ExposureWaited(win);
}

void LockRequested(int lock_type, int rank, MPI_Win win) {
  WindowState* w = Find(win);
  if (w == nullptr) return;
  const uint64_t id = S().next_lock++;
  w->locks[Target(rank)] = id;
  const OTF2_LockType type = lock_type == MPI_LOCK_SHARED ? OTF2_LOCK_SHARED : OTF2_LOCK_EXCLUSIVE;
  Record(RawKind::kRmaRequestLock, w->local, Target(rank), 0, 0, id, static_cast<uint8_t>(type));
}

void LockAcquired(int lock_type, int rank, MPI_Win win) {
  WindowState* w = Find(win);
  if (w == nullptr) return;
  const OTF2_LockType type = lock_type == MPI_LOCK_SHARED ? OTF2_LOCK_SHARED : OTF2_LOCK_EXCLUSIVE;
  Record(RawKind::kRmaAcquireLock, w->local, Target(rank), 0, 0, w->locks[Target(rank)],
         static_cast<uint8_t>(type));
}

void Unlocked(int rank, MPI_Win win) {
  WindowState* w = Find(win);
  if (w == nullptr) return;
  CompletePending(*w, rank);
  auto it = w->locks.find(Target(rank));
  const uint64_t id = it == w->locks.end() ? 0 : it->second;
  if (it != w->locks.end()) w->locks.erase(it);
  Record(RawKind::kRmaReleaseLock, w->local, Target(rank), 0, 0, id);
}

void Flushed(int rank, MPI_Win win) {
  WindowState* w = Find(win);
  if (w != nullptr) CompletePending(*w, rank);
}

void WinSynced(MPI_Win win) {
  WindowState* w = Find(win);
  if (w == nullptr) return;
  Record(RawKind::kRmaSync, w->local, static_cast<uint32_t>(S().rank), 0, 0, 0,
         static_cast<uint8_t>(OTF2_RMA_SYNC_TYPE_MEMORY));
}

void Put(int count, MPI_Datatype type, int target, MPI_Win win) {
  Operation(RawKind::kRmaPut, Bytes(count, type), 0, 0, target, win);
}

void Get(int count, MPI_Datatype type, int target, MPI_Win win) {
  Operation(RawKind::kRmaGet, Bytes(count, type), 0, 0, target, win);
}

void Atomic(OTF2_RmaAtomicType type, uint64_t sent, uint64_t received, int target, MPI_Win win) {
  const uint32_t received32 = static_cast<uint32_t>(std::min<uint64_t>(received, 0xFFFFFFFFu));
  Operation(RawKind::kRmaAtomic, sent, received32, static_cast<uint8_t>(type), target, win);
}

}  // namespace cw::measure::hook
