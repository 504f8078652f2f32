#include "sim/internal/one_sided_plan.h"

#include <unordered_map>

#include "trace/one_sided_pairing.h"

namespace cw::sim::internal {
namespace {

using trace::EventKind;

// One location's lock holds, writes and waits, with the ordinals the replay counts them by.
struct Hold {
  trace::LockAcquisition acquisition;
  uint32_t ordinal = kNone;          // among the location's AcquireLock records
  uint32_t release_ordinal = kNone;  // its ReleaseLock record among the location's
};
struct Write {
  trace::ValueWrite write;
  uint32_t ordinal = kNone;  // among the location's writes
};
struct Wait {
  trace::ValueWait wait;
  uint32_t ordinal = kNone;  // among the location's WaitChange records
  bool closed = false;       // its call's Leave was seen
};

struct Counts {
  uint32_t acquisitions = 0, releases = 0, writes = 0, waits = 0;
};

class LocationScan {
 public:
  LocationScan(const trace::Definitions& defs, uint32_t location)
      : defs_(defs), location_(location) {}

  void Add(const SimEvent& e) {
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
    if (trace::PayloadFamilyOf(e.kind) != trace::PayloadFamily::kRma ||
        !IsPlannedWindow(defs_, e.comm)) {
      return;
    }
    switch (e.kind) {
      case EventKind::kRmaRequestLock:
        ++requested_[e.request];
        break;
      case EventKind::kRmaAcquireLock: {
        Hold h;
        h.acquisition = trace::LockAcquisition{e.request, e.time, location_, false};
        if (auto r = requested_.find(e.request); r != requested_.end() && r->second > 0) {
          h.acquisition.requested = true;
          --r->second;
        }
        h.ordinal = counts_.acquisitions++;
        held_[e.request] = static_cast<uint32_t>(holds_.size());
        holds_.push_back(h);
        break;
      }
      case EventKind::kRmaReleaseLock: {
        const uint32_t ordinal = counts_.releases++;
        auto it = held_.find(e.request);
        if (it == held_.end()) break;
        holds_[it->second].release_ordinal = ordinal;
        held_.erase(it);
        break;
      }
      case EventKind::kRmaPut:
      case EventKind::kRmaAtomic:
        // Counted as the replay counts them: every record that sends data.
        if (e.bytes == 0) break;
        if (e.peer != kNone && e.peer != location_) {
          pending_[e.request] = Write{trace::ValueWrite{e.peer, location_, 0}, counts_.writes};
        }
        ++counts_.writes;
        break;
      case EventKind::kRmaOpCompleteBlocking:
      case EventKind::kRmaOpCompleteNonBlocking:
      case EventKind::kRmaOpCompleteRemote: {
        auto it = pending_.find(e.request);
        if (it == pending_.end()) break;
        it->second.write.completed = e.time;
        writes_.push_back(it->second);
        pending_.erase(it);
        break;
      }
      case EventKind::kRmaWaitChange: {
        Wait w;
        w.wait = trace::ValueWait{location_, open_.empty() ? e.time : open_.back().entered, e.time};
        w.ordinal = counts_.waits++;
        if (!open_.empty()) open_.back().waits.push_back(static_cast<uint32_t>(waits_.size()));
        waits_.push_back(w);
        break;
      }
      default:
        break;
    }
  }

  std::vector<Hold>& holds() { return holds_; }
  std::vector<Write>& writes() { return writes_; }
  std::vector<Wait>& waits() { return waits_; }
  const Counts& counts() const { return counts_; }

 private:
  struct Open {
    uint64_t entered;
    std::vector<uint32_t> waits;  // waits in this call, closed by its Leave
  };
  const trace::Definitions& defs_;
  uint32_t location_;
  std::vector<Open> open_;
  std::unordered_map<uint64_t, uint32_t> requested_;  // lock -> requests not yet acquired
  std::unordered_map<uint64_t, uint32_t> held_;       // lock -> its hold
  std::unordered_map<uint64_t, Write> pending_;       // matching id -> write not yet completed
  std::vector<Hold> holds_;
  std::vector<Write> writes_;
  std::vector<Wait> waits_;
  Counts counts_;
};

}  // namespace

bool IsPlannedWindow(const trace::Definitions& defs, uint32_t window) {
  return trace::WindowParadigm(defs, window) == trace::Paradigm::kShmem;
}

Result<OneSidedPlan> BuildOneSidedPlan(const ReplayInput& input) {
  OneSidedPlan plan;
  const trace::Definitions& defs = *input.defs;
  if (!trace::HasWindowOf(defs, trace::Paradigm::kShmem)) return plan;
  const uint32_t n = input.locations;
  std::vector<Hold> holds;
  std::vector<Write> writes;
  std::vector<Wait> waits;
  std::vector<Counts> counts(n);
  std::vector<SimEvent> chunk;
  for (uint32_t loc = 0; loc < n; ++loc) {
    std::unique_ptr<EventSource> source = input.open(loc);
    if (source == nullptr) continue;
    LocationScan scan(defs, loc);
    while (true) {
      chunk.clear();
      if (source->Read(chunk, 1 << 14) == 0) break;
      for (const SimEvent& e : chunk) scan.Add(e);
    }
    // A stream that broke off pairs what it holds; the replay reports the error itself.
    holds.insert(holds.end(), scan.holds().begin(), scan.holds().end());
    writes.insert(writes.end(), scan.writes().begin(), scan.writes().end());
    for (const Wait& w : scan.waits()) {
      if (w.closed) waits.push_back(w);
    }
    counts[loc] = scan.counts();
  }
  plan.acquire_from.resize(n);
  plan.release_to.resize(n);
  plan.wait_from.resize(n);
  plan.write_to.resize(n);
  for (uint32_t loc = 0; loc < n; ++loc) {
    plan.acquire_from[loc].assign(counts[loc].acquisitions, kNone);
    plan.release_to[loc].assign(counts[loc].releases, kNone);
    plan.wait_from[loc].assign(counts[loc].waits, kNone);
    plan.write_to[loc].assign(counts[loc].writes, kNone);
  }

  std::vector<trace::LockAcquisition> acquisitions(holds.size());
  for (size_t i = 0; i < holds.size(); ++i) acquisitions[i] = holds[i].acquisition;
  const std::vector<uint32_t> previous = trace::PreviousHolds(acquisitions);
  for (size_t k = 0; k < holds.size(); ++k) {
    if (previous[k] == kNone) continue;
    const Hold& before = holds[previous[k]];
    if (before.release_ordinal == kNone) continue;  // never released: nothing to wait for
    const Hold& hold = holds[k];
    plan.acquire_from[hold.acquisition.location][hold.ordinal] = before.acquisition.location;
    plan.release_to[before.acquisition.location][before.release_ordinal] =
        hold.acquisition.location;
    ++plan.handovers;
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
    plan.write_to[w.write.origin][w.ordinal] = waits[i].wait.location;
    ++plan.value_waits;
  }
  return plan;
}

}  // namespace cw::sim::internal
