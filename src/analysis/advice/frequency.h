// Frequency analysis (PPW §5.2.4), from the profile and the walk over each location's events:
//   - high_frequency: a call path with at least `frequent_count` instances on a location, of at
//     most `frequent_mean` on average (short, very frequent operations distort the measurement
//     and are good candidates for merging or leaving out);
//   - small_transfers: runs of at least `transfer_run` consecutive transfers (sends, puts, gets,
//     atomics) of at most `small_bytes` each to one target (combine them into one bulk
//     transfer);
//   - serialised_transfers: runs of at least `transfer_run` consecutive blocking transfers,
//     each to another target than the one before (make them non-blocking).
// Consecutive: no other communication call (a receive, a collective, a completion call)
// between them; computation between them does not break a run. Frequent call paths and runs
// are findings when they take more than hotspot_share of all time together (every location's
// instances), as every other finding must.
#pragma once

#include <span>
#include <vector>

#include "analysis/advice/advice_types.h"
#include "analysis/advice/load_balance.h"

namespace cw::analysis {

// What the locations whose events `in.trace` holds (every location in one process, a rank's
// own in an MPI analysis job) add to the frequency analysis.
struct FrequencyShare {
  struct Frequent {  // a call path frequent on one location
    uint32_t location;
    uint32_t callpath;
    uint64_t visits;
    uint64_t inclusive;  // ticks
  };
  struct Runs {  // one location's runs of one pattern, by the call path of their first transfer
    uint32_t location;
    AdvicePattern pattern;
    uint32_t callpath;
    uint64_t runs;
    uint64_t transfers;
    uint64_t time;                       // ticks in the transfers
    std::vector<uint32_t> completed_by;  // call paths of the calls completing them, ascending
  };
  std::vector<Frequent> frequent;
  std::vector<Runs> runs;
};
// The share of the locations `in.trace` holds: the frequent call paths from their profiles, and
// `runs` (every location's, in location order) from the walk over their events.
FrequencyShare ShareFrequency(const GlobalInput& in, const AdviceParameters& p,
                              std::vector<FrequencyShare::Runs> runs);
void MergeFrequency(FrequencyShare& into, FrequencyShare&& share);
// The findings from every rank's share, appended to `findings`.
void FinishFrequency(FrequencyShare all, const GlobalInput& in, const AdviceParameters& p,
                     std::vector<AdviceFinding>& findings);

}  // namespace cw::analysis
