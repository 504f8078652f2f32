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

#include <memory>
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
// One call with communication records directly inside it, as the walk over a location's
// events (location_walk.h) closes it: the transfers among them (sends, puts, gets, atomics), the
// target and bytes of the last, whether the call completed a transfer itself (a blocking send,
// a blocking one-sided operation) and whether another record communicates (a receive, a
// request's completion, a collective, a one-sided synchronisation).
struct CommunicationCall {
  uint32_t callpath = trace::kNone;
  uint64_t enter = 0;  // ticks
  uint64_t leave = 0;
  uint32_t transfers = 0;
  uint32_t target = trace::kNone;  // a location, or none
  uint64_t bytes = 0;
  bool blocking = false;
  bool other = false;
};

// The runs of transfers of one location, fed its communication calls in the order they end
// (for calls that do not nest, the order of their Enters).
class TransferRunFinder {
 public:
  TransferRunFinder(const trace::Trace& trace, std::span<const GenericType> callpath_types,
                    const AdviceParameters& p);
  ~TransferRunFinder();
  // A call holding one transfer and nothing else that communicates continues the runs; any
  // other communication call ends them. Inline: a call ending no run (none came since the last
  // end, as for most calls) changes nothing, and the walk feeds every communication call.
  void Add(const CommunicationCall& call) {
    if (call.transfers == 1 && !call.other && call.target != trace::kNone) {
      AddTransfer(call);
    } else if (after_transfer_) {
      EndRuns(call);
    }
  }
  // The location's runs, by pattern and the call path of their first transfer.
  std::vector<FrequencyShare::Runs> Finish(uint32_t location);

 private:
  struct State;
  void AddTransfer(const CommunicationCall& call);
  void EndRuns(const CommunicationCall& call);

  std::span<const GenericType> callpath_types_;
  // The previous communication call was a transfer. Else the runs are empty (the call after
  // the last transfer ended them), and ending them again is nothing.
  bool after_transfer_ = false;
  double short_gap_;  // ticks: transfers no further apart are back to back
  std::unique_ptr<State> state_;
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
