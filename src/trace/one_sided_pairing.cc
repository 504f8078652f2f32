#include "trace/one_sided_pairing.h"

#include <algorithm>
#include <numeric>
#include <tuple>

namespace cw::trace {

Paradigm WindowParadigm(const Definitions& defs, uint32_t window) {
  if (window >= defs.windows.size() || !defs.windows[window].defined) return Paradigm::kUnknown;
  const uint32_t comm = defs.windows[window].comm;
  if (comm >= defs.comms.size() || !defs.comms[comm].defined) return Paradigm::kUnknown;
  const uint32_t group = defs.comms[comm].group;
  return group < defs.groups.size() ? defs.groups[group].paradigm : Paradigm::kUnknown;
}

bool HasWindowOf(const Definitions& defs, Paradigm paradigm) {
  for (uint32_t w = 0; w < defs.windows.size(); ++w) {
    if (WindowParadigm(defs, w) == paradigm) return true;
  }
  return false;
}

std::vector<uint32_t> PreviousHolds(std::span<const LockAcquisition> acquisitions) {
  std::vector<uint32_t> order(acquisitions.size());
  std::iota(order.begin(), order.end(), 0u);
  std::sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
    const LockAcquisition& x = acquisitions[a];
    const LockAcquisition& y = acquisitions[b];
    return std::tie(x.lock, x.acquired, x.location, a) <
           std::tie(y.lock, y.acquired, y.location, b);
  });
  std::vector<uint32_t> previous(acquisitions.size(), kNone);
  for (size_t k = 1; k < order.size(); ++k) {
    const LockAcquisition& before = acquisitions[order[k - 1]];
    const LockAcquisition& hold = acquisitions[order[k]];
    if (before.lock == hold.lock && hold.requested && before.location != hold.location) {
      previous[order[k]] = order[k - 1];
    }
  }
  return previous;
}

namespace {

// The latest lock epoch seen so far, and the latest of another location than that one's.
struct LatestReleases {
  uint32_t epoch[2] = {kNone, kNone};
  uint32_t location[2] = {kNone, kNone};

  void Add(uint32_t e, uint32_t loc) {  // released no earlier than any added before
    if (loc != location[0]) {
      epoch[1] = epoch[0];
      location[1] = location[0];
    }
    epoch[0] = e;
    location[0] = loc;
  }
  // The latest epoch of a location other than `loc`, or kNone.
  uint32_t Other(uint32_t loc) const {
    if (location[0] != kNone && location[0] != loc) return epoch[0];
    return epoch[1];
  }
};

}  // namespace

std::vector<uint32_t> ConflictingHolds(const Definitions& defs,
                                       std::span<const PassiveEpoch> epochs) {
  struct Entry {
    uint32_t window;
    uint32_t target;
    uint64_t released;
    uint32_t epoch;
  };
  std::vector<bool> window_has_exclusive;
  for (const PassiveEpoch& e : epochs) {
    if (!e.exclusive) continue;
    if (window_has_exclusive.size() <= e.window) window_has_exclusive.resize(e.window + 1, false);
    window_has_exclusive[e.window] = true;
  }
  std::vector<Entry> entries;
  for (uint32_t i = 0; i < epochs.size(); ++i) {
    const PassiveEpoch& e = epochs[i];
    if (e.window >= window_has_exclusive.size() || !window_has_exclusive[e.window]) continue;
    if (e.target != kNone) {
      entries.push_back(Entry{e.window, e.target, e.released, i});
      continue;
    }
    if (e.window >= defs.windows.size() || defs.windows[e.window].comm >= defs.comms.size()) {
      continue;
    }
    const Comm& comm = defs.comms[defs.windows[e.window].comm];
    for (uint32_t rank = 0; rank < comm.size(); ++rank) {
      const uint32_t target = comm.LocationOfRank(rank, e.location);
      if (target != kNone) entries.push_back(Entry{e.window, target, e.released, i});
    }
  }
  std::sort(entries.begin(), entries.end(), [](const Entry& a, const Entry& b) {
    return std::tie(a.window, a.target, a.released, a.epoch) <
           std::tie(b.window, b.target, b.released, b.epoch);
  });
  std::vector<uint32_t> waited_for(epochs.size(), kNone);
  LatestReleases any, exclusive;
  for (size_t i = 0; i < entries.size(); ++i) {
    if (i == 0 || entries[i].window != entries[i - 1].window ||
        entries[i].target != entries[i - 1].target) {
      any = exclusive = LatestReleases{};
    }
    const uint32_t e = entries[i].epoch;
    const uint32_t holder = (epochs[e].exclusive ? any : exclusive).Other(epochs[e].location);
    if (holder != kNone &&
        (waited_for[e] == kNone || epochs[holder].released > epochs[waited_for[e]].released)) {
      waited_for[e] = holder;
    }
    any.Add(e, epochs[e].location);
    if (epochs[e].exclusive) exclusive.Add(e, epochs[e].location);
  }
  return waited_for;
}

namespace {

// Of the writes in `order` (sorted by target, then completion), the latest by another location
// that completed to `wait`'s location by the time it ended, if during the wait; else the first
// one in flight when it ended. kNone if neither.
uint32_t EndingWrite(const ValueWait& wait, std::span<const ValueWrite> writes,
                     std::span<const uint32_t> order) {
  const auto after_end =
      std::upper_bound(order.begin(), order.end(), wait, [&](const ValueWait& v, uint32_t i) {
        return std::make_pair(v.location, v.left) <
               std::make_pair(writes[i].target, writes[i].completed);
      });
  for (auto it = after_end; it != order.begin(); --it) {
    const ValueWrite& write = writes[*(it - 1)];
    if (write.target != wait.location) break;
    if (write.origin == wait.location) continue;
    if (write.completed > wait.entered) return *(it - 1);
    break;  // the value was there before the wait began
  }
  for (auto it = after_end; it != order.end(); ++it) {
    const ValueWrite& write = writes[*it];
    if (write.target != wait.location) break;
    if (write.origin == wait.location) continue;
    return write.issued < wait.left ? *it : kNone;
  }
  return kNone;
}

}  // namespace

std::vector<uint32_t> EndingWrites(std::span<const ValueWait> waits,
                                   std::span<const ValueWrite> writes) {
  std::vector<uint32_t> order(writes.size());
  std::iota(order.begin(), order.end(), 0u);
  auto key = [&](uint32_t i) {
    return std::make_tuple(writes[i].target, writes[i].completed, writes[i].origin, i);
  };
  std::sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) { return key(a) < key(b); });
  // Waits in time order per location, so that an earlier wait claims a write first.
  std::vector<uint32_t> by_time(waits.size());
  std::iota(by_time.begin(), by_time.end(), 0u);
  std::sort(by_time.begin(), by_time.end(), [&](uint32_t a, uint32_t b) {
    return std::make_tuple(waits[a].location, waits[a].entered, a) <
           std::make_tuple(waits[b].location, waits[b].entered, b);
  });
  std::vector<uint32_t> ending(waits.size(), kNone);
  std::vector<bool> claimed(writes.size(), false);
  for (uint32_t w : by_time) {
    const uint32_t write = EndingWrite(waits[w], writes, order);
    if (write == kNone || claimed[write]) continue;
    claimed[write] = true;
    ending[w] = write;
  }
  return ending;
}

}  // namespace cw::trace
