#include "trace/call_sites.h"

#include <algorithm>
#include <set>
#include <utility>

namespace cw::trace {

std::vector<CallSiteUse> CallSiteUses(const Trace& trace, uint32_t location) {
  const Definitions& defs = trace.defs;
  uint32_t attribute = kNone;
  for (uint32_t a = 0; a < defs.attributes.size(); ++a) {
    if (defs.attributes[a].defined && defs.str(defs.attributes[a].name) == kCallSiteAttribute)
      attribute = a;
  }
  std::vector<CallSiteUse> uses;
  if (attribute == kNone || location >= trace.locations.size()) return uses;
  const LocationEvents& events = trace.locations[location];
  std::set<std::pair<uint32_t, uint32_t>> seen;
  for (const EventAttribute& a : events.attributes()) {
    if (a.attribute != attribute || a.event >= events.size() ||
        events.kind(a.event) != EventKind::kEnter) {
      continue;
    }
    // A source location reference is 32 bits wide; the rest of the value is not its.
    const auto site = static_cast<uint32_t>(a.value & 0xFFFFFFFFu);
    const uint32_t callpath = events.callpath(a.event);
    if (callpath >= trace.call_tree.size() || site >= defs.source_locations.size() ||
        !defs.source_locations[site].defined) {
      continue;
    }
    if (seen.emplace(callpath, site).second) uses.push_back(CallSiteUse{callpath, site});
  }
  return uses;
}

std::vector<CallSite> CallSites(std::vector<CallSiteUse> uses, uint32_t callpaths) {
  std::sort(uses.begin(), uses.end(), [](const CallSiteUse& a, const CallSiteUse& b) {
    return a.callpath != b.callpath ? a.callpath < b.callpath : a.location < b.location;
  });
  std::vector<CallSite> sites(callpaths);
  for (size_t i = 0; i < uses.size(); ++i) {
    const CallSiteUse& u = uses[i];
    if (u.callpath >= callpaths) continue;
    if (i > 0 && uses[i - 1].callpath == u.callpath && uses[i - 1].location == u.location) continue;
    CallSite& site = sites[u.callpath];
    if (site.location == kNone) site.location = u.location;  // the smallest id: sorted
    ++site.sites;
  }
  return sites;
}

}  // namespace cw::trace
