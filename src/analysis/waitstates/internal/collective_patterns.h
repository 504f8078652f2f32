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
  uint32_t partner = trace::kNone;        // the member waited for (latest entrant or root)
  uint32_t partner_event = trace::kNone;  // its end event (an event of `partner`)
  bool violation = false;                 // the member left before the one it waited for entered
  bool synchronised = false;  // barriers and N x N: the member took part in the synchronisation
  // Broadcasts: Scalasca's completion of a receiver that waited for the root and of the root
  // (when one did): the time after the earliest end of those receivers. -1: none.
  int64_t broadcast_completion = -1;
};

struct CollectiveOutcomes {
  std::vector<MemberOutcome> members;  // indexed like graph.members
  // One rank of an MPI analysis job: the outcomes of the instances it built, indexed like
  // graph.built.members (the members' ranks received those that charge anything).
  std::vector<MemberOutcome> built;
};

// Evaluates every complete collective instance once. Instances of communicators of size 1,
// incomplete instances, Alltoallv/w without their senders and handle/allocation operations give
// no wait states.
CollectiveOutcomes EvaluateCollectives(const Context& ctx, unsigned threads);

// The barriers and N x N operations, as groups whose members all synchronised with each other
// (the members with `synchronised` set), in instance order. Distributed, the rank that built an
// instance sends its group to every rank that owns one of the group's members: each rank gets
// the groups of its own locations, with all their members (the events of its own only), in the
// order of the ranks that built them, each named by SyncGroup::origin.
void CollectSyncGroups(const Context& ctx, const CollectiveOutcomes& outcomes, unsigned threads,
                       SyncEdges& sync);

// Charges the outcomes of `location`'s members to their call paths.
void ApplyCollectiveOutcomes(const Context& ctx, uint32_t location,
                             const CollectiveOutcomes& outcomes, LocationOutput& out);

}  // namespace cw::analysis::internal
