#include "trace/scheduling.h"

#include <algorithm>
#include <map>

namespace cw::trace {

std::vector<HostLoad> HostLoads(const Definitions& defs) {
  std::vector<HostLoad> loads;
  std::map<std::string, size_t> index;
  std::map<uint32_t, uint32_t> threads_of_rank;
  for (uint32_t l = 0; l < defs.locations.size(); ++l) {
    const LocationType type = defs.locations[l].type;
    if (type != LocationType::kCpuThread && type != LocationType::kUnknown) continue;
    const uint32_t rank = defs.RankOfLocation(l);
    if (rank != kNone) ++threads_of_rank[rank];
  }
  for (const Definitions::RankSchedule& r : defs.rank_schedules) {
    auto [it, inserted] = index.try_emplace(r.host, loads.size());
    if (inserted) loads.push_back(HostLoad{r.host, 0, 0, 0, 0});
    HostLoad& h = loads[it->second];
    ++h.processes;
    auto threads = threads_of_rank.find(r.rank);
    h.threads += threads == threads_of_rank.end() ? 1 : threads->second;
    h.cpus = std::max(h.cpus, r.cpus_online);
    if (r.waited_ns > 0) h.waited_ns += static_cast<uint64_t>(r.waited_ns);
  }
  return loads;
}

bool Oversubscribed(const Definitions& defs) {
  const std::vector<HostLoad> loads = HostLoads(defs);
  return std::any_of(loads.begin(), loads.end(),
                     [](const HostLoad& h) { return h.oversubscribed(); });
}

std::string OversubscriptionText(const Definitions& defs) {
  std::string text;
  for (const HostLoad& h : HostLoads(defs)) {
    if (!h.oversubscribed()) continue;
    if (!text.empty()) text += "; ";
    text += "host " + h.host + ": " + std::to_string(h.processes) + " processes with " +
            std::to_string(h.threads) + " threads on " + std::to_string(h.cpus) + " CPUs";
  }
  return text;
}

}  // namespace cw::trace
