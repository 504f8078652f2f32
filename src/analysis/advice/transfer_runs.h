// The runs of transfers of one location (frequency.h: small_transfers, serialised_transfers),
// found as the walk over its events (location_walk.h) closes its communication calls.
//
// The walk feeds every communication call of a trace to one finder per location, so the finder
// is defined here, where the compiler can inline it into the walk: as calls into another file,
// its steps' entries and exits took 3 M of the walk's 124 M instructions on the benchmark's
// 2M-event trace (docs/performance.md). The compiler inlines Add and EndRuns and keeps
// AddTransfer a call; forced inline, AddTransfer made the walk 8 M instructions slower.
//
//   TransferRunFinder runs(trace, callpath_types, parameters);
//   runs.Add(call);  // per communication call, in the order they end
//   std::vector<FrequencyShare::Runs> mine = runs.Finish(location);
#pragma once

#include <cstdint>
#include <map>
#include <set>
#include <span>
#include <utility>
#include <vector>

#include "analysis/advice/advice_types.h"
#include "analysis/advice/frequency.h"
#include "analysis/generic/generic_types.h"
#include "trace/trace.h"

namespace cw::analysis {

// One call with communication records directly inside it, as the walk over a location's
// events closes it: the transfers among them (sends, puts, gets, atomics), the target and bytes
// of the last, whether the call completed a transfer itself (a blocking send, a blocking
// one-sided operation) and whether another record communicates (a receive, a request's
// completion, a collective, a one-sided synchronisation).
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

namespace transfer_runs_internal {

// One transfer call: where it went, how much, whether the call completed it.
struct TransferCall {
  uint32_t callpath = trace::kNone;
  uint32_t target = trace::kNone;
  uint64_t bytes = 0;
  uint64_t duration = 0;
  bool blocking = false;
};

// What a location's runs add to the findings, per (pattern, call path of the run's first call).
struct RunTally {
  uint64_t runs = 0;
  uint64_t transfers = 0;
  uint64_t time = 0;
  std::set<uint32_t> completed_by;  // call paths of the calls that completed runs at once
};
using Tallies = std::map<std::pair<AdvicePattern, uint32_t>, RunTally>;

// The two runs a transfer may continue (small transfers to one target, blocking transfers to
// changing targets), tallied in `out` as they end.
class TransferRuns {
 public:
  TransferRuns(const AdviceParameters& p, Tallies& out) : p_(p), out_(out) {}

  void Add(const TransferCall& t) {
    Extend(small_, t, t.bytes <= p_.small_bytes, AdvicePattern::kSmallTransfers,
           [&](uint32_t last_target) { return last_target == t.target; });
    Extend(serial_, t, t.blocking, AdvicePattern::kSerialisedTransfers,
           [&](uint32_t last_target) { return last_target != t.target; });
  }
  // Another communication call ends both runs; `completer`, if not kNone, is the call path of
  // a call right after them that completes their transfers (an unlock, a flush, a quiet).
  void Break(uint32_t completer = trace::kNone) {
    if (small_.transfers == 0 && serial_.transfers == 0) return;  // the common case
    Close(small_, AdvicePattern::kSmallTransfers, completer);
    Close(serial_, AdvicePattern::kSerialisedTransfers, completer);
  }

 private:
  // A run as far as its tally needs it: no list of its calls.
  struct Run {
    uint32_t first_callpath = trace::kNone;
    uint32_t last_target = trace::kNone;
    uint64_t transfers = 0;
    uint64_t time = 0;
  };

  // Continues `run` with `t` if `t` may be in such a run and follows its last call.
  template <typename Follows>
  void Extend(Run& run, const TransferCall& t, bool eligible, AdvicePattern pattern,
              Follows follows) {
    if (!eligible) {
      if (run.transfers != 0) Close(run, pattern);  // most transfers follow no run of this kind
      return;
    }
    if (run.transfers != 0 && !follows(run.last_target)) Close(run, pattern);
    if (run.transfers == 0) run.first_callpath = t.callpath;
    run.last_target = t.target;
    ++run.transfers;
    run.time += t.duration;
  }
  void Close(Run& run, AdvicePattern pattern, uint32_t completer = trace::kNone) {
    if (run.transfers == 0) return;
    if (run.transfers >= p_.transfer_run) {
      RunTally& tally = out_[{pattern, run.first_callpath}];
      ++tally.runs;
      tally.transfers += run.transfers;
      tally.time += run.time;
      if (completer != trace::kNone) tally.completed_by.insert(completer);
    }
    run = Run{};
  }

  const AdviceParameters& p_;
  Tallies& out_;
  Run small_, serial_;
};

}  // namespace transfer_runs_internal

// The runs of transfers of one location, fed its communication calls in the order they end
// (for calls that do not nest, the order of their Enters).
class TransferRunFinder {
 public:
  TransferRunFinder(const trace::Trace& trace, std::span<const GenericType> callpath_types,
                    const AdviceParameters& p);
  TransferRunFinder(const TransferRunFinder&) = delete;
  TransferRunFinder& operator=(const TransferRunFinder&) = delete;

  // A call holding one transfer and nothing else that communicates continues the runs; any
  // other communication call ends them. A call ending no run (none came since the last end,
  // as for most calls) changes nothing.
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
  void AddTransfer(const CommunicationCall& call) {
    const double gap = static_cast<double>(call.enter - std::min(previous_end_, call.enter));
    if (after_transfer_ && gap > short_gap_) runs_.Break();
    runs_.Add(transfer_runs_internal::TransferCall{call.callpath, call.target, call.bytes,
                                                   call.leave - call.enter, call.blocking});
    previous_end_ = call.leave;
    after_transfer_ = true;
  }
  void EndRuns(const CommunicationCall& call) {
    const double gap = static_cast<double>(call.enter - std::min(previous_end_, call.enter));
    // A completion call right after the transfers pays for them (an MPI_Win_unlock_all after
    // many puts): the run's finding takes it in (advice.cc).
    const GenericType type = call.callpath < callpath_types_.size() ? callpath_types_[call.callpath]
                                                                    : GenericType::kLocal;
    const bool completes = type == GenericType::kCommSync || type == GenericType::kLockRelease;
    const bool at_once = gap <= short_gap_;  // after a transfer: Add calls it only then
    runs_.Break(completes && at_once ? call.callpath : trace::kNone);
    after_transfer_ = false;
  }

  std::span<const GenericType> callpath_types_;
  // The previous communication call was a transfer. Else the runs are empty (the call after
  // the last transfer ended them), and ending them again is nothing.
  bool after_transfer_ = false;
  double short_gap_;  // ticks: transfers no further apart are back to back
  uint64_t previous_end_ = 0;
  transfer_runs_internal::Tallies tallies_;
  transfer_runs_internal::TransferRuns runs_;
};

}  // namespace cw::analysis
