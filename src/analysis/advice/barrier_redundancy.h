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
std::vector<RedundantBarrier> FindRedundantBarriers(const GlobalInput& in,
                                                    std::vector<AdviceFinding>& findings);

}  // namespace cw::analysis
