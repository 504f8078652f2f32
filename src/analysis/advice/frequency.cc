#include "analysis/advice/frequency.h"

#include <algorithm>
#include <map>
#include <set>

#include "analysis/advice/hints.h"
#include "analysis/advice/records.h"
#include "analysis/generic/construct_map.h"
#include "base/parallel.h"
#include "trace/event_kind.h"

namespace cw::analysis {
namespace {

using trace::EventKind;
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
           [&](const TransferCall& last) { return last.target == t.target; });
    Extend(serial_, t, t.blocking, AdvicePattern::kSerialisedTransfers,
           [&](const TransferCall& last) { return last.target != t.target; });
  }
  // Another communication call ends both runs; `completer`, if not kNone, is the call path of
  // a call right after them that completes their transfers (an unlock, a flush, a quiet).
  void Break(uint32_t completer = kNone) {
    Close(small_, AdvicePattern::kSmallTransfers, completer);
    Close(serial_, AdvicePattern::kSerialisedTransfers, completer);
  }

 private:
  using Run = std::vector<TransferCall>;

  // Continues `run` with `t` if `t` may be in such a run and follows its last call.
  template <typename Follows>
  void Extend(Run& run, const TransferCall& t, bool eligible, AdvicePattern pattern,
              Follows follows) {
    if (!eligible) {
      Close(run, pattern);
      return;
    }
    if (!run.empty() && !follows(run.back())) Close(run, pattern);
    run.push_back(t);
  }
  void Close(Run& run, AdvicePattern pattern, uint32_t completer = kNone) {
    if (run.size() >= p_.transfer_run) {
      RunTally& tally = out_[{pattern, run.front().callpath}];
      ++tally.runs;
      tally.transfers += run.size();
      for (const TransferCall& t : run) tally.time += t.duration;
      if (completer != kNone) tally.completed_by.insert(completer);
    }
    run.clear();
  }

  const AdviceParameters& p_;
  Tallies& out_;
  Run small_, serial_;
};

// Whether a record other than a transfer is communication: a receive, a request's completion,
// a collective, a one-sided synchronisation.
bool Communicates(EventKind kind) {
  switch (trace::PayloadFamilyOf(kind)) {
    case trace::PayloadFamily::kP2p:
    case trace::PayloadFamily::kRequest:
    case trace::PayloadFamily::kCollective:
    case trace::PayloadFamily::kRma:
      return true;
    default:
      return kind == EventKind::kMpiCollectiveBegin || kind == EventKind::kRmaCollectiveBegin;
  }
}

// The transfer calls and the other communication calls of one location, in order.
Tallies LocationRuns(const GlobalInput& in, const AdviceParameters& p, uint32_t location) {
  Tallies out;
  TransferRuns runs(p, out);
  const trace::Trace& trace = *in.trace;
  const trace::LocationEvents& ev = trace.location(location);
  std::span<const EventKind> kinds = ev.kinds();
  // Transfers are consecutive when back to back: no longer apart than a short operation takes
  // (`frequent_mean`). Transfers with computation between them cannot simply be merged.
  const double short_gap = p.frequent_mean * static_cast<double>(trace.defs.clock.resolution);
  uint64_t previous_end = 0;
  bool have_previous = false;
  for (uint32_t i = 0; i < kinds.size(); ++i) {
    if (kinds[i] != EventKind::kEnter || ev.pair(i) == kNone) continue;
    const uint32_t leave = ev.pair(i);
    // A call with records directly inside: a transfer if it holds one send or one-sided
    // transfer and nothing else that communicates.
    TransferCall t;
    bool other = false;
    uint32_t transfers = 0;
    for (uint32_t k = i + 1; k < leave; ++k) {
      // A region inside the call holds none of its direct records: step over it, so that each
      // event is read once as a direct child (not once per region around it, `main` first).
      if (kinds[k] == EventKind::kEnter && ev.pair(k) != kNone && ev.pair(k) > k) {
        k = ev.pair(k);
        continue;
      }
      if (ev.pair(k) != i) continue;
      switch (kinds[k]) {
        case EventKind::kMpiSend:
        case EventKind::kMpiIsend:
        case EventKind::kRmaPut:
        case EventKind::kRmaGet:
        case EventKind::kRmaAtomic: {
          ++transfers;
          t.target = TransferTarget(trace.defs, ev, k, location);
          if (kinds[k] == EventKind::kMpiSend) t.blocking = true;
          t.bytes = RecordBytes(ev, k);
          break;
        }
        case EventKind::kRmaOpCompleteBlocking:
          t.blocking = true;  // a one-sided transfer the call completed itself
          break;
        default:
          other = other || Communicates(kinds[k]);
          break;
      }
    }
    if (transfers == 0 && !other) continue;  // computation, queries, set-up
    if (transfers == 1 && !other && t.target != kNone) {
      t.callpath = ev.ref(i);
      t.duration = ev.time(leave) - ev.time(i);
      const uint64_t gap = ev.time(i) - std::min(previous_end, ev.time(i));
      if (have_previous && static_cast<double>(gap) > short_gap) runs.Break();
      runs.Add(t);
      previous_end = ev.time(leave);
      have_previous = true;
    } else {
      // A completion call right after the transfers pays for them (an MPI_Win_unlock_all
      // after many puts): the run's finding takes it in (advice.cc).
      const GenericType type = CallpathType(trace, in.region_types, ev.ref(i));
      const bool completes = type == GenericType::kCommSync || type == GenericType::kLockRelease;
      const bool at_once =
          have_previous &&
          static_cast<double>(ev.time(i) - std::min(previous_end, ev.time(i))) <= short_gap;
      runs.Break(completes && at_once ? ev.ref(i) : kNone);
      have_previous = false;
    }
  }
  runs.Break();
  return out;
}

}  // namespace

FrequencyShare ShareFrequency(const GlobalInput& in, const AdviceParameters& p) {
  const trace::Trace& trace = *in.trace;
  const uint32_t n = trace.location_count();
  const double resolution = static_cast<double>(trace.defs.clock.resolution);
  FrequencyShare share;
  // High frequency, from the profile.
  for (uint32_t loc = 0; loc < n; ++loc) {
    for (const trace::LocationEvents::CallpathTime& t : trace.location(loc).profile()) {
      if (t.visits < p.frequent_count ||
          static_cast<double>(t.inclusive) >
              p.frequent_mean * resolution * static_cast<double>(t.visits)) {
        continue;
      }
      share.frequent.push_back(FrequencyShare::Frequent{loc, t.callpath, t.visits, t.inclusive});
    }
  }
  // Runs of transfers, per location.
  std::vector<Tallies> per_location(n);
  ParallelFor(n, in.threads, [&](size_t loc) {
    per_location[loc] = LocationRuns(in, p, static_cast<uint32_t>(loc));
  });
  for (uint32_t loc = 0; loc < n; ++loc) {
    for (const auto& [key, tally] : per_location[loc]) {
      share.runs.push_back(FrequencyShare::Runs{
          loc, key.first, key.second, tally.runs, tally.transfers, tally.time,
          std::vector<uint32_t>(tally.completed_by.begin(), tally.completed_by.end())});
    }
  }
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

void AnalyzeFrequency(const GlobalInput& in, const AdviceParameters& p,
                      std::vector<AdviceFinding>& findings) {
  FinishFrequency(ShareFrequency(in, p), in, p, findings);
}

}  // namespace cw::analysis
