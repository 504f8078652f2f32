// Root causes from the delay analysis (Böhme 2013) for the wait findings of the bottleneck
// analysis that no imbalanced call path explains: one process computed longer than its partner
// before they synchronised, but not so much longer over the whole run that the global analysis
// calls its call path imbalanced (CP2K's MPI_Sendrecv, whose partners take turns being late).
// The delay analysis has charged each wait to the excess time of the delaying process per call
// path, directly or through the waits it propagated from (delay_<pattern> and
// delay_<pattern>_longterm); the finding's root causes are the computing call paths with the
// largest such costs on the processes its causes name, so that the advice tells the same story
// as the report's root-cause section, and the what-if replay shortens exactly that excess.
//
//   AddDelayRootCauses(severities, advice);  // after AnalyzeAdvice, with the delay costs
#pragma once

#include <span>

#include "analysis/advice/advice_types.h"
#include "analysis/metrics/severity.h"

namespace cw::analysis {

// At most this many delay root causes per finding, each at least kMinDelayRootShare of the
// costs found for it: the few computations worth looking at, not every call path that was a
// little longer once.
inline constexpr size_t kMaxDelayRootCauses = 3;
inline constexpr double kMinDelayRootShare = 0.1;

// For each wait finding of `advice` without root causes: the computing call paths on its causes'
// locations that its wait patterns' delay costs are charged to (`severities`: every location's,
// with the delay analysis's metrics). Without delay costs (--wait-states-only), nothing changes.
void AddDelayRootCauses(std::span<const LocationSeverities> severities, Advice& advice);

}  // namespace cw::analysis
