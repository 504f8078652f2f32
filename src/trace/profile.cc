#include "trace/profile.h"

namespace cw::trace {

LocationProfile ComputeLocationProfile(const Trace& trace, uint32_t location) {
  const uint32_t callpaths = trace.call_tree.size();
  LocationProfile p;
  p.exclusive.assign(callpaths, 0);
  p.inclusive.assign(callpaths, 0);
  p.visits.assign(callpaths, 0);
  for (const LocationEvents::CallpathTime& t : trace.location(location).profile()) {
    p.exclusive[t.callpath] = t.exclusive;
    p.inclusive[t.callpath] = t.inclusive;
    p.visits[t.callpath] = t.visits;
    if (trace.call_tree.parent(t.callpath) == kNone) p.total += t.inclusive;
  }
  return p;
}

}  // namespace cw::trace
