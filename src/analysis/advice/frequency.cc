#include "analysis/advice/frequency.h"

#include <algorithm>
#include <map>
#include <set>

#include "analysis/advice/hints.h"
#include "analysis/generic/construct_map.h"

namespace cw::analysis {
// Named, not anonymous: TransferRunFinder::State holds these types.
namespace frequency_internal {

using trace::kNone;

// One transfer call: where it went, how much, whether the call completed it.
struct TransferCall {
  uint32_t callpath = kNone;
  uint32_t target = kNone;
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
  void Break(uint32_t completer = kNone) {
    if (small_.transfers == 0 && serial_.transfers == 0) return;  // the common case
    Close(small_, AdvicePattern::kSmallTransfers, completer);
    Close(serial_, AdvicePattern::kSerialisedTransfers, completer);
  }

 private:
  // A run as far as its tally needs it: no list of its calls.
  struct Run {
    uint32_t first_callpath = kNone;
    uint32_t last_target = kNone;
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
  void Close(Run& run, AdvicePattern pattern, uint32_t completer = kNone) {
    if (run.transfers == 0) return;
    if (run.transfers >= p_.transfer_run) {
      RunTally& tally = out_[{pattern, run.first_callpath}];
      ++tally.runs;
      tally.transfers += run.transfers;
      tally.time += run.time;
      if (completer != kNone) tally.completed_by.insert(completer);
    }
    run = Run{};
  }

  const AdviceParameters& p_;
  Tallies& out_;
  Run small_, serial_;
};

}  // namespace frequency_internal

using frequency_internal::Tallies;
using frequency_internal::TransferCall;
using frequency_internal::TransferRuns;
using trace::kNone;

struct TransferRunFinder::State {
  explicit State(const AdviceParameters& p) : runs(p, tallies) {}
  Tallies tallies;
  TransferRuns runs;
  uint64_t previous_end = 0;
};

TransferRunFinder::TransferRunFinder(const trace::Trace& trace,
                                     std::span<const GenericType> callpath_types,
                                     const AdviceParameters& p)
    : callpath_types_(callpath_types),
      // Transfers are consecutive when back to back: no longer apart than a short operation
      // takes (`frequent_mean`). Transfers with computation between them cannot simply be
      // merged.
      short_gap_(p.frequent_mean * static_cast<double>(trace.defs.clock.resolution)),
      state_(std::make_unique<State>(p)) {}

TransferRunFinder::~TransferRunFinder() = default;

void TransferRunFinder::AddTransfer(const CommunicationCall& call) {
  State& s = *state_;
  const double gap = static_cast<double>(call.enter - std::min(s.previous_end, call.enter));
  if (after_transfer_ && gap > short_gap_) s.runs.Break();
  s.runs.Add(
      TransferCall{call.callpath, call.target, call.bytes, call.leave - call.enter, call.blocking});
  s.previous_end = call.leave;
  after_transfer_ = true;
}

void TransferRunFinder::EndRuns(const CommunicationCall& call) {
  State& s = *state_;
  const double gap = static_cast<double>(call.enter - std::min(s.previous_end, call.enter));
  // A completion call right after the transfers pays for them (an MPI_Win_unlock_all after
  // many puts): the run's finding takes it in (advice.cc).
  const GenericType type =
      call.callpath < callpath_types_.size() ? callpath_types_[call.callpath] : GenericType::kLocal;
  const bool completes = type == GenericType::kCommSync || type == GenericType::kLockRelease;
  const bool at_once = gap <= short_gap_;  // after a transfer: Add calls it only then
  s.runs.Break(completes && at_once ? call.callpath : kNone);
  after_transfer_ = false;
}

std::vector<FrequencyShare::Runs> TransferRunFinder::Finish(uint32_t location) {
  state_->runs.Break();
  std::vector<FrequencyShare::Runs> out;
  for (const auto& [key, tally] : state_->tallies) {
    out.push_back(FrequencyShare::Runs{
        location, key.first, key.second, tally.runs, tally.transfers, tally.time,
        std::vector<uint32_t>(tally.completed_by.begin(), tally.completed_by.end())});
  }
  state_->tallies.clear();
  return out;
}

FrequencyShare ShareFrequency(const GlobalInput& in, const AdviceParameters& p,
                              std::vector<FrequencyShare::Runs> runs) {
  const trace::Trace& trace = *in.trace;
  const double resolution = static_cast<double>(trace.defs.clock.resolution);
  FrequencyShare share;
  // High frequency, from the profile.
  for (uint32_t loc = 0; loc < trace.location_count(); ++loc) {
    for (const trace::LocationEvents::CallpathTime& t : trace.location(loc).profile()) {
      if (t.visits < p.frequent_count ||
          static_cast<double>(t.inclusive) >
              p.frequent_mean * resolution * static_cast<double>(t.visits)) {
        continue;
      }
      share.frequent.push_back(FrequencyShare::Frequent{loc, t.callpath, t.visits, t.inclusive});
    }
  }
  share.runs = std::move(runs);
  return share;
}

void MergeFrequency(FrequencyShare& into, FrequencyShare&& share) {
  into.frequent.insert(into.frequent.end(), share.frequent.begin(), share.frequent.end());
  into.runs.insert(into.runs.end(), std::make_move_iterator(share.runs.begin()),
                   std::make_move_iterator(share.runs.end()));
}

void FinishFrequency(FrequencyShare all, const GlobalInput& in, const AdviceParameters& p,
                     std::vector<AdviceFinding>& findings) {
  const trace::Trace& trace = *in.trace;
  auto type_of = [&](uint32_t callpath) { return CallpathType(trace, in.region_types, callpath); };
  auto finding = [&](AdvicePattern pattern, uint32_t callpath) {
    AdviceFinding f;
    f.pattern = pattern;
    f.callpath = callpath;
    f.type = type_of(callpath);
    f.filter = DetectionFilter::kNone;
    f.hints = HintsFor(pattern, f.type);
    return f;
  };
  // In location order, as one process finds them (each location's own order kept).
  std::stable_sort(all.frequent.begin(), all.frequent.end(),
                   [](const auto& a, const auto& b) { return a.location < b.location; });
  std::stable_sort(all.runs.begin(), all.runs.end(),
                   [](const auto& a, const auto& b) { return a.location < b.location; });

  std::map<uint32_t, AdviceFinding> frequent;
  for (const FrequencyShare::Frequent& t : all.frequent) {
    auto [it, inserted] =
        frequent.try_emplace(t.callpath, finding(AdvicePattern::kHighFrequency, t.callpath));
    AdviceFinding& f = it->second;
    f.locations.push_back(t.location);
    f.instances += t.visits;
    f.bottleneck_instances += t.visits;
    f.time += t.inclusive;
    f.bottleneck_time += t.inclusive;
  }
  for (auto& [callpath, f] : frequent) {
    // Frequent calls are a bottleneck only where they take a hotspot's share of the time.
    if (static_cast<double>(f.time) <= p.hotspot_share * static_cast<double>(in.total_time)) {
      continue;
    }
    f.mean = static_cast<double>(f.time) / static_cast<double>(f.instances);
    f.pattern_counts[static_cast<size_t>(AdvicePattern::kHighFrequency)] = f.instances;
    findings.push_back(std::move(f));
  }

  std::map<std::pair<AdvicePattern, uint32_t>, AdviceFinding> runs;
  for (const FrequencyShare::Runs& r : all.runs) {
    auto [it, inserted] = runs.try_emplace({r.pattern, r.callpath}, finding(r.pattern, r.callpath));
    AdviceFinding& f = it->second;
    f.locations.push_back(r.location);
    f.instances += r.runs;
    f.bottleneck_instances += r.transfers;
    f.time += r.time;
    f.bottleneck_time += r.time;
    f.completed_by.insert(f.completed_by.end(), r.completed_by.begin(), r.completed_by.end());
  }
  for (auto& [key, f] : runs) {
    if (static_cast<double>(f.time) <= p.hotspot_share * static_cast<double>(in.total_time)) {
      continue;
    }
    f.pattern_counts[static_cast<size_t>(key.first)] = f.bottleneck_instances;
    std::sort(f.completed_by.begin(), f.completed_by.end());
    f.completed_by.erase(std::unique(f.completed_by.begin(), f.completed_by.end()),
                         f.completed_by.end());
    findings.push_back(std::move(f));
  }
}

}  // namespace cw::analysis
