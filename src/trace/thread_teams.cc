#include "trace/thread_teams.h"

namespace cw::trace {

std::vector<uint32_t> MastersOfThreads(const Definitions& defs) {
  std::vector<uint32_t> first(defs.location_groups.size(), kNone);
  std::vector<uint32_t> master(defs.locations.size(), kNone);
  for (uint32_t loc = 0; loc < defs.locations.size(); ++loc) {
    const Location& l = defs.locations[loc];
    if (l.group >= first.size() || l.type != LocationType::kCpuThread) continue;
    if (first[l.group] == kNone) {
      first[l.group] = loc;
    } else {
      master[loc] = first[l.group];
    }
  }
  return master;
}

bool IsOmpParallelRegion(const Definitions& defs, uint32_t region) {
  return region < defs.regions.size() && defs.regions[region].paradigm == Paradigm::kOpenMp &&
         defs.regions[region].role == RegionRole::kParallel;
}

}  // namespace cw::trace
