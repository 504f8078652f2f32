#include "sim/internal/one_sided_plan.h"

#include <unordered_map>

#include "sim/internal/lock_epoch_plan.h"
#include "trace/one_sided_pairing.h"
#include "trace/shmem_sync_scan.h"

namespace cw::sim::internal {
namespace {

using trace::EventKind;

// One location's OpenSHMEM lock holds and writes (trace::ShmemSyncScan, as the wait-state
// analysis scans them), named by the ordinals the replay counts them by: an AcquireLock's among
// the location's AcquireLock records, a ReleaseLock's among its ReleaseLock records, a write's
// among its writes; and its waits for a value.
using Hold = trace::ShmemSyncScan::Hold;
using Write = trace::ShmemSyncScan::Write;
struct Wait {
  trace::ValueWait wait;
  uint32_t ordinal = kNone;  // among the location's WaitChange records
  bool closed = false;       // its call's Leave was seen
};

class ShmemScan {
 public:
  explicit ShmemScan(uint32_t location) : location_(location), sync_(location) {}

  // `kind`: the event's kind as RecordKindOf says, and `ordinal` its ordinal among them;
  // `on_shmem_window`: the event is an RMA record on an OpenSHMEM window.
  void Add(const SimEvent& e, OneSidedRecord kind, uint32_t ordinal, bool on_shmem_window) {
    switch (e.kind) {
      case EventKind::kEnter:
        open_.push_back(Open{e.time, {}});
        return;
      case EventKind::kLeave:
        if (open_.empty()) return;
        for (uint32_t w : open_.back().waits) {
          waits_[w].wait.left = e.time;
          waits_[w].closed = true;
        }
        open_.pop_back();
        return;
      default:
        break;
    }
    switch (kind) {
      case OneSidedRecord::kShmemAcquire:
        sync_.AcquireLock(e.request, e.time, ordinal);
        return;
      case OneSidedRecord::kShmemRelease:
        sync_.ReleaseLock(e.request, ordinal);
        return;
      case OneSidedRecord::kShmemWrite:
        sync_.Transfer(e.request, e.peer, e.bytes, e.time, ordinal);
        return;
      case OneSidedRecord::kShmemWait: {
        Wait w;
        w.wait = trace::ValueWait{location_, open_.empty() ? e.time : open_.back().entered, e.time};
        w.ordinal = ordinal;
        if (!open_.empty()) open_.back().waits.push_back(static_cast<uint32_t>(waits_.size()));
        waits_.push_back(w);
        return;
      }
      default:
        break;
    }
    if (!on_shmem_window) return;
    switch (e.kind) {
      case EventKind::kRmaRequestLock:
        sync_.RequestLock(e.request);
        break;
      case EventKind::kRmaOpCompleteBlocking:
      case EventKind::kRmaOpCompleteNonBlocking:
      case EventKind::kRmaOpCompleteRemote:
        sync_.Complete(e.request, e.time, kNone);
        break;
      default:
        break;
    }
  }

  const std::vector<Hold>& holds() const { return sync_.holds(); }
  const std::vector<Write>& writes() const { return sync_.writes(); }
  std::vector<Wait>& waits() { return waits_; }

 private:
  struct Open {
    uint64_t entered;
    std::vector<uint32_t> waits;  // waits in this call, closed by its Leave
  };
  uint32_t location_;
  trace::ShmemSyncScan sync_;
  std::vector<Open> open_;
  std::vector<Wait> waits_;
};

}  // namespace

OneSidedRecord RecordKindOf(const trace::Definitions& defs, const SimEvent& e) {
  if (trace::PayloadFamilyOf(e.kind) != trace::PayloadFamily::kRma) return OneSidedRecord::kUnnamed;
  switch (trace::WindowParadigm(defs, e.comm)) {
    case trace::Paradigm::kShmem:
      switch (e.kind) {
        case EventKind::kRmaAcquireLock:
          return OneSidedRecord::kShmemAcquire;
        case EventKind::kRmaReleaseLock:
          return OneSidedRecord::kShmemRelease;
        case EventKind::kRmaPut:
        case EventKind::kRmaAtomic:
          return e.bytes != 0 ? OneSidedRecord::kShmemWrite : OneSidedRecord::kUnnamed;
        case EventKind::kRmaWaitChange:
          return OneSidedRecord::kShmemWait;
        default:
          return OneSidedRecord::kUnnamed;
      }
    case trace::Paradigm::kMpi:
      switch (e.kind) {
        case EventKind::kRmaPut:
        case EventKind::kRmaGet:
        case EventKind::kRmaAtomic:
        case EventKind::kRmaOpCompleteBlocking:
        case EventKind::kRmaOpCompleteNonBlocking:
        case EventKind::kRmaOpCompleteRemote:
        case EventKind::kRmaOpTest:
        case EventKind::kRmaRequestLock:
        case EventKind::kRmaTryLock:
        case EventKind::kRmaAcquireLock:
        case EventKind::kRmaReleaseLock:
          return OneSidedRecord::kMpiEpoch;
        default:
          return OneSidedRecord::kUnnamed;
      }
    default:
      return OneSidedRecord::kUnnamed;
  }
}

namespace {

// OpenSHMEM's hand-overs and waits for a value, from all locations' scans.
void PlanShmem(std::vector<Hold>& holds, std::vector<Write>& writes, std::vector<Wait>& waits,
               OneSidedPlan& plan) {
  std::vector<trace::LockAcquisition> acquisitions(holds.size());
  for (size_t i = 0; i < holds.size(); ++i) acquisitions[i] = holds[i].acquisition;
  const std::vector<uint32_t> previous = trace::PreviousHolds(acquisitions);
  for (size_t k = 0; k < holds.size(); ++k) {
    if (previous[k] == kNone) continue;
    const Hold& before = holds[previous[k]];
    if (before.release_ref == kNone) continue;  // never released: nothing to wait for
    const Hold& hold = holds[k];
    plan.acquire_from[hold.acquisition.location][hold.acquire_ref] = before.acquisition.location;
    plan.release_to[before.acquisition.location][before.release_ref] = hold.acquisition.location;
    ++plan.shmem_handovers;
  }

  std::vector<trace::ValueWrite> value_writes(writes.size());
  for (size_t i = 0; i < writes.size(); ++i) value_writes[i] = writes[i].write;
  std::vector<trace::ValueWait> value_waits(waits.size());
  for (size_t i = 0; i < waits.size(); ++i) value_waits[i] = waits[i].wait;
  const std::vector<uint32_t> ending = trace::EndingWrites(value_waits, value_writes);
  for (size_t i = 0; i < waits.size(); ++i) {
    if (ending[i] == kNone) continue;
    const Write& w = writes[ending[i]];
    plan.wait_from[waits[i].wait.location][waits[i].ordinal] = w.write.origin;
    plan.write_to[w.write.origin][w.issue_ref] = waits[i].wait.location;
    ++plan.value_waits;
  }
}

}  // namespace

Result<OneSidedPlan> BuildOneSidedPlan(const ReplayInput& input) {
  OneSidedPlan plan;
  const trace::Definitions& defs = *input.defs;
  const bool shmem = trace::HasWindowOf(defs, trace::Paradigm::kShmem);
  const bool mpi = trace::HasWindowOf(defs, trace::Paradigm::kMpi);
  if (!shmem && !mpi) return plan;
  const uint32_t n = input.locations;
  std::vector<Hold> holds;
  std::vector<Write> writes;
  std::vector<Wait> waits;
  std::vector<OneSidedOrdinals> counts(n);
  std::vector<LockEpochScan> lock_epochs;
  lock_epochs.reserve(n);
  std::vector<SimEvent> chunk;
  for (uint32_t loc = 0; loc < n; ++loc) {
    LockEpochScan& epochs = lock_epochs.emplace_back(loc);
    std::unique_ptr<EventSource> source = input.open(loc);
    if (source == nullptr) continue;
    ShmemScan scan(loc);
    while (true) {
      chunk.clear();
      if (source->Read(chunk, 1 << 14) == 0) break;
      for (const SimEvent& e : chunk) {
        const OneSidedRecord kind = RecordKindOf(defs, e);
        const uint32_t ordinal = kind == OneSidedRecord::kUnnamed ? kNone : counts[loc].Take(kind);
        if (shmem) {
          const bool on_shmem_window =
              trace::PayloadFamilyOf(e.kind) == trace::PayloadFamily::kRma &&
              trace::WindowParadigm(defs, e.comm) == trace::Paradigm::kShmem;
          scan.Add(e, kind, ordinal, on_shmem_window);
        }
        if (mpi && (kind == OneSidedRecord::kMpiEpoch || e.kind == EventKind::kEnter ||
                    e.kind == EventKind::kLeave)) {
          epochs.Add(e, kind == OneSidedRecord::kMpiEpoch ? ordinal : kNone);
        }
      }
    }
    // A stream that broke off pairs what it holds; the replay reports the error itself.
    holds.insert(holds.end(), scan.holds().begin(), scan.holds().end());
    writes.insert(writes.end(), scan.writes().begin(), scan.writes().end());
    for (const Wait& w : scan.waits()) {
      if (w.closed) waits.push_back(w);
    }
  }
  plan.acquire_from.resize(n);
  plan.release_to.resize(n);
  plan.wait_from.resize(n);
  plan.write_to.resize(n);
  plan.lock_waits.resize(n);
  plan.unlock_notices.resize(n);
  auto count = [&](uint32_t loc, OneSidedRecord kind) {
    return counts[loc].next[static_cast<size_t>(kind)];
  };
  for (uint32_t loc = 0; loc < n; ++loc) {
    plan.acquire_from[loc].assign(count(loc, OneSidedRecord::kShmemAcquire), kNone);
    plan.release_to[loc].assign(count(loc, OneSidedRecord::kShmemRelease), kNone);
    plan.wait_from[loc].assign(count(loc, OneSidedRecord::kShmemWait), kNone);
    plan.write_to[loc].assign(count(loc, OneSidedRecord::kShmemWrite), kNone);
  }
  PlanShmem(holds, writes, waits, plan);
  PlanLockHandOvers(defs, lock_epochs, plan);
  return plan;
}

}  // namespace cw::sim::internal
