// The causes of waits for a group, summed per collective instance instead of one by one.
//
// A member of an all-to-all operation (a barrier, an allreduce, ...) that waited for the group
// has every member that entered while it was inside its call as a cause (LocationCauses'
// Classify). Charged one by one, P members of an instance that each wait for the later ones make
// P^2/2 charges; recorded as ranges of the instance's members sorted by entry
// (MemberIndex::arrivals) and summed instance by instance, they make P: a member covered by K
// waiters' ranges, which entered at t0_1 .. t0_K, caused K * entered - (t0_1 + ... + t0_K) of
// waiting in K bottleneck instances, exactly what the K charges would have added.
#pragma once

#include <cstdint>
#include <map>
#include <vector>

#include "analysis/advice/advice_types.h"
#include "analysis/advice/internal/cause_facts.h"
#include "match/sync_graph.h"

namespace cw::analysis::advice_internal {

// One bottleneck instance's wait for the group: the members of collective `instance` at sorted
// positions [lo, hi) (MemberIndex::arrivals, relative to the instance's first member) entered
// after it did, at `t0`, and before it left.
struct GroupWait {
  uint32_t instance;
  uint32_t lo;
  uint32_t hi;
  uint64_t t0;
};

// Adds the causes of `waits` (a finding's, in any order; sorted here) to `causes`, by (location
// << 32 | call path) as LocationCauses::AddCause keys them.
void AddGroupWaitCauses(std::vector<GroupWait>& waits, const match::SyncGraph& graph,
                        const MemberIndex& members, std::map<uint64_t, AdviceCause>& causes);

}  // namespace cw::analysis::advice_internal
