// Frequency analysis (PPW §5.2.4), one pass over each location's events:
//   - high_frequency: a call path with at least `frequent_count` instances on a location, of at
//     most `frequent_mean` on average (short, very frequent operations distort the measurement
//     and are good candidates for merging or leaving out);
//   - small_transfers: runs of at least `transfer_run` consecutive transfers (sends, puts, gets,
//     atomics) of at most `small_bytes` each to one target (combine them into one bulk
//     transfer);
//   - serialised_transfers: runs of at least `transfer_run` consecutive blocking transfers,
//     each to another target than the one before (make them non-blocking).
// Consecutive: no other communication call (a receive, a collective, a completion call)
// between them; computation between them does not break a run. Runs are findings when their
// transfers take more than hotspot_share of all time together.
#pragma once

#include <vector>

#include "analysis/advice/advice_types.h"
#include "analysis/advice/load_balance.h"

namespace cw::analysis {

// Appends its findings to `findings`.
void AnalyzeFrequency(const GlobalInput& in, const AdviceParameters& p, unsigned threads,
                      std::vector<AdviceFinding>& findings);

}  // namespace cw::analysis
