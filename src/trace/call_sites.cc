#include "trace/call_sites.h"

#include <algorithm>
#include <set>
#include <utility>

namespace cw::trace {

std::vector<CallSite> CallSites(const Trace& trace) {
  const Definitions& defs = trace.defs;
  std::vector<CallSite> sites(trace.call_tree.size());
  uint32_t attribute = kNone;
  for (uint32_t a = 0; a < defs.attributes.size(); ++a) {
    if (defs.attributes[a].defined && defs.str(defs.attributes[a].name) == kCallSiteAttribute)
      attribute = a;
  }
  if (attribute == kNone) return sites;
  std::set<std::pair<uint32_t, uint32_t>> seen;  // (call path, source location)
  for (const LocationEvents& events : trace.locations) {
    for (const EventAttribute& a : events.attributes()) {
      if (a.attribute != attribute || a.event >= events.size() ||
          events.kind(a.event) != EventKind::kEnter) {
        continue;
      }
      // A source location reference is 32 bits wide; the rest of the value is not its.
      const auto location = static_cast<uint32_t>(a.value & 0xFFFFFFFFu);
      const uint32_t callpath = events.callpath(a.event);
      if (callpath >= sites.size() || location >= defs.source_locations.size() ||
          !defs.source_locations[location].defined) {
        continue;
      }
      if (!seen.emplace(callpath, location).second) continue;
      CallSite& site = sites[callpath];
      if (site.location == kNone) site.location = location;
      ++site.sites;
    }
  }
  return sites;
}

}  // namespace cw::trace
