#include "analysis/advice/internal/group_waits.h"

#include <algorithm>

#include "base/flat_hash_map.h"

namespace cw::analysis::advice_internal {

void AddGroupWaitCauses(std::vector<GroupWait>& waits, const match::SyncGraph& graph,
                        const MemberIndex& members, std::map<uint64_t, AdviceCause>& causes) {
  std::sort(waits.begin(), waits.end(),
            [](const GroupWait& a, const GroupWait& b) { return a.instance < b.instance; });
  FlatHashMap<uint64_t, AdviceCause> summed;
  // Per sorted position, the change in the number of ranges covering it and in the sum of their
  // waiters' entry times. Unsigned arithmetic wraps: the prefix sums are exact counts and sums,
  // and K * entered - sum(t0) is exact though the sum of timestamps alone may not fit.
  std::vector<uint64_t> count_change;
  std::vector<uint64_t> entry_change;
  for (size_t a = 0; a < waits.size();) {
    size_t b = a;
    while (b < waits.size() && waits[b].instance == waits[a].instance) ++b;
    const match::CollectiveInstance& c = graph.collectives[waits[a].instance];
    count_change.assign(c.member_count + 1, 0);
    entry_change.assign(c.member_count + 1, 0);
    for (size_t k = a; k < b; ++k) {
      const GroupWait& w = waits[k];
      ++count_change[w.lo];
      --count_change[w.hi];
      entry_change[w.lo] += w.t0;
      entry_change[w.hi] -= w.t0;
    }
    uint64_t covering = 0;
    uint64_t entries = 0;
    for (uint32_t j = 0; j < c.member_count; ++j) {
      covering += count_change[j];
      entries += entry_change[j];
      if (covering == 0) continue;
      const MemberIndex::Arrival& m = members.arrivals[c.first_member + j];
      const uint32_t callpath = members.callpath[c.first_member + m.member];
      const uint64_t key = (uint64_t{m.location} << 32) | callpath;
      AdviceCause* cause = summed.Find(key);
      if (cause == nullptr) {
        summed.Insert(key, AdviceCause{m.location, callpath, 0, 0, m.entered});
        cause = summed.Find(key);
      }
      cause->time += covering * m.entered - entries;
      cause->instances += covering;
      cause->first = std::min(cause->first, m.entered);
    }
    a = b;
  }
  summed.ForEach([&causes](uint64_t key, const AdviceCause& c) {
    auto [it, inserted] = causes.try_emplace(key, c);
    if (inserted) return;
    it->second.time += c.time;
    it->second.instances += c.instances;
    it->second.first = std::min(it->second.first, c.first);
  });
}

}  // namespace cw::analysis::advice_internal
