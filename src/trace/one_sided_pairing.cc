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

std::vector<uint32_t> EndingWrites(std::span<const ValueWait> waits,
                                   std::span<const ValueWrite> writes) {
  std::vector<uint32_t> order(writes.size());
  std::iota(order.begin(), order.end(), 0u);
  auto key = [&](uint32_t i) {
    return std::make_tuple(writes[i].target, writes[i].completed, writes[i].origin, i);
  };
  std::sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) { return key(a) < key(b); });
  std::vector<uint32_t> ending(waits.size(), kNone);
  for (size_t w = 0; w < waits.size(); ++w) {
    const ValueWait& wait = waits[w];
    // The first write to the wait's location that completed after the wait ended, then back to
    // the latest one by another location.
    auto it =
        std::upper_bound(order.begin(), order.end(), wait, [&](const ValueWait& v, uint32_t i) {
          return std::make_pair(v.location, v.left) <
                 std::make_pair(writes[i].target, writes[i].completed);
        });
    while (it != order.begin()) {
      const ValueWrite& write = writes[*(it - 1)];
      if (write.target != wait.location) break;
      if (write.origin != wait.location) {
        if (write.completed > wait.entered) ending[w] = *(it - 1);
        break;
      }
      --it;
    }
  }
  return ending;
}

}  // namespace cw::trace
