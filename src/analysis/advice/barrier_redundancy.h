// Barrier redundancy (PPW §5.2.3): a barrier instance is redundant when none of its members
// communicated (a point-to-point or one-sided transfer) since its previous synchronisation (a
// collective operation, else the end of MPI_Init, else its first event): barriers order memory
// accesses, and with nothing to order this one only makes processes wait. A barrier call path
// all of whose instances are redundant becomes a `redundant_barrier` finding. MPI barriers and
// OpenSHMEM barriers count; MPI fences, which complete one-sided transfers, do not.
#pragma once

#include <vector>

#include "analysis/advice/advice_types.h"
#include "analysis/advice/load_balance.h"

namespace cw::analysis {

// Appends its findings to `findings`.
// One member of a barrier, as the analysis rank holding its location sees it.
struct BarrierMember {
  uint64_t instance = 0;  // its CollectiveInstance::origin, the same on every rank
  uint32_t position = 0;  // the member's rank in the communicator
  uint32_t location = trace::kNone;
  uint32_t callpath = trace::kNone;  // of its call; kNone if the call is not whole
  uint64_t time = 0;                 // ticks in the call
  bool communicated = false;         // sent, received or transferred since its last collective
};

// The barrier members of the locations whose events `in.trace` holds (every location in one
// process, a rank's own in an MPI analysis job).
std::vector<BarrierMember> ShareBarrierMembers(const GlobalInput& in);
// The redundant barriers from every rank's members; appends the findings to `findings`.
std::vector<RedundantBarrier> FinishRedundantBarriers(std::vector<BarrierMember> members,
                                                      const GlobalInput& in,
                                                      std::vector<AdviceFinding>& findings);
// Both, in one process.
std::vector<RedundantBarrier> FindRedundantBarriers(const GlobalInput& in,
                                                    std::vector<AdviceFinding>& findings);

}  // namespace cw::analysis
