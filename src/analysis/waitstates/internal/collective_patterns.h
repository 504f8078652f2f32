// Collective wait states (private).
#pragma once

#include <vector>

#include "analysis/waitstates/internal/context.h"

namespace cw::analysis::internal {

// The wait-state outcome of one collective member.
struct MemberOutcome {
  double wait = 0;        // ticks, charged to wait_metric
  double completion = 0;  // ticks, charged to completion_metric
  MetricId wait_metric = MetricId::kMpiBarrierWait;
  MetricId completion_metric = MetricId::kMpiBarrierCompletion;
  uint32_t partner = trace::kNone;         // the member waited for (latest entrant or root)
  uint32_t partner_member = trace::kNone;  // its index in graph.members
  bool violation = false;                  // the member left before the one it waited for entered
  bool synchronised = false;  // barriers and N x N: the member took part in the synchronisation
};

// Evaluates every complete collective instance once; the result is indexed like
// graph.members. Instances of communicators of size 1, incomplete instances, Alltoallv/w and
// handle/allocation operations give no wait states.
std::vector<MemberOutcome> EvaluateCollectives(const Context& ctx, unsigned threads);

// The barriers and N x N operations, as groups whose members all synchronised with each other
// (the members with `synchronised` set), in instance order.
void CollectSyncGroups(const Context& ctx, const std::vector<MemberOutcome>& outcomes,
                       unsigned threads, SyncEdges& sync);

// Charges the outcomes of `location`'s members to their call paths.
void ApplyCollectiveOutcomes(const Context& ctx, uint32_t location,
                             const std::vector<MemberOutcome>& outcomes, LocationOutput& out);

}  // namespace cw::analysis::internal
