// Wait states of MPI one-sided communication that pair the epochs of different processes
// (private). The RMA collectives themselves (fence, window creation and freeing) are evaluated
// with the other collectives (collective_patterns.h); this pass adds what needs the epochs:
//   - general active target (post-start-complete-wait): Late Post, Early Wait, Late Complete;
//   - passive target (lock/unlock): Lock Contention;
//   - fence: Early Fence, the part of a Wait at Fence spent until the last operation that
//     targets the waiting process was issued.
// Late Post, Early Wait and Lock Contention are followed by the delay and critical-path analyses
// (WaitStateOptions::one_sided_sync) as edges from the waiting call to the delayer's post,
// complete or unlock; the fences are followed as collectives.
#pragma once

#include <vector>

#include "analysis/waitstates/internal/collective_patterns.h"
#include "analysis/waitstates/internal/context.h"

namespace cw::analysis::internal {

struct RmaWait {
  MetricId metric = MetricId::kMpiRmaEarlyWait;
  uint32_t callpath = trace::kNone;
  uint64_t entered = 0;  // Enter of the waiting call
  double value = 0;      // ticks
  uint32_t partner = trace::kNone;
  // Followed waits: the Enters of the waiting call and of the partner's call it waited for.
  uint32_t waiter_event = trace::kNone;
  uint32_t partner_event = trace::kNone;
  SyncPattern pattern = SyncPattern::kRmaEarlyWait;
};

// The waits of every location, indexed by location (empty vectors when the trace has no MPI
// window). `collective` is EvaluateCollectives' result: Early Fence is part of Wait at Fence.
std::vector<std::vector<RmaWait>> EvaluateRmaEpochs(const Context& ctx,
                                                    const std::vector<MemberOutcome>& collective,
                                                    unsigned threads);

// Charges one location's waits to their call paths.
void ApplyRmaWaits(const Context& ctx, const std::vector<RmaWait>& waits, uint32_t location,
                   LocationOutput& out);

}  // namespace cw::analysis::internal
