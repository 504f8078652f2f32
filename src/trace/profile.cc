#include "trace/profile.h"

namespace cw::trace {

LocationProfile ComputeLocationProfile(const Trace& trace, uint32_t location) {
  const LocationEvents& ev = trace.location(location);
  const uint32_t callpaths = trace.call_tree.size();
  LocationProfile p;
  p.exclusive.assign(callpaths, 0);
  p.inclusive.assign(callpaths, 0);
  p.visits.assign(callpaths, 0);
  // Children's time is subtracted from the parent as each child closes; nesting guarantees the
  // parent's own duration is added when it closes, so the result is never negative.
  std::vector<int64_t> exclusive(callpaths, 0);
  for (uint32_t i = 0; i < ev.size(); ++i) {
    EventKind kind = ev.kind(i);
    if (kind == EventKind::kEnter) {
      ++p.visits[ev.ref(i)];
    } else if (kind == EventKind::kLeave) {
      uint32_t cp = ev.ref(i);
      uint64_t duration = ev.time(i) - ev.time(ev.pair(i));
      p.inclusive[cp] += duration;
      exclusive[cp] += static_cast<int64_t>(duration);
      uint32_t parent = trace.call_tree.parent(cp);
      if (parent == kNone) {
        p.total += duration;
      } else {
        exclusive[parent] -= static_cast<int64_t>(duration);
      }
    }
  }
  for (uint32_t cp = 0; cp < callpaths; ++cp) p.exclusive[cp] = static_cast<uint64_t>(exclusive[cp]);
  return p;
}

}  // namespace cw::trace
