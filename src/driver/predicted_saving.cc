#include "driver/predicted_saving.h"

#include <algorithm>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "analysis/advice/advice.h"
#include "base/parallel.h"
#include "sim/otf2_source.h"
#include "sim/replay.h"
#include "sim/sync_replay/sync_replay.h"
#include "sim/trace_source.h"
#include "sim/whatif.h"

namespace cw::driver {
namespace {

// The computation of `callpath` itself (not of the call paths below it) on `location` at `mean`
// ticks instead of `max` in all: on that thread alone, not on the other threads of its process
// (an OpenMP worker that computed longer than the rest of its team), or with `whole_process` on
// every thread of its process at the same factor. The location must belong to a process the
// replay knows.
bool Balance(const trace::Trace& trace, uint32_t callpath, uint32_t location, double max,
             double mean, sim::Perturbation& p, bool whole_process = false) {
  if (max <= 0 || mean < 0) return false;
  const trace::Definitions& defs = trace.defs;
  if (location >= defs.locations.size()) return false;
  const uint32_t group = defs.locations[location].group;
  if (group >= defs.location_groups.size() || defs.location_groups[group].rank == trace::kNone) {
    return false;
  }
  Result<sim::RankSet> rank = sim::ParseRankSet(std::to_string(defs.location_groups[group].rank));
  if (!rank) return false;
  sim::ComputeScale scale;
  scale.callpath = callpath;
  scale.factor = mean / max;
  scale.ranks = *rank;
  scale.location = whole_process ? trace::kNone : location;
  p.compute.push_back(scale);
  return true;
}

// The change that removes finding `f`, if the replay can model it; else why not (`why`).
std::optional<sim::Perturbation> FixOf(const trace::Trace& trace, const analysis::AdviceFinding& f,
                                       std::string& why) {
  using analysis::AdvicePattern;
  const double resolution = static_cast<double>(trace.defs.clock.resolution);
  sim::Perturbation p;
  switch (f.pattern) {
    case AdvicePattern::kImbalancedCallpath:
      if (f.locations.empty() ||
          !Balance(trace, f.callpath, f.locations.front(), static_cast<double>(f.max), f.mean, p)) {
        why = "its slowest process is no MPI rank or OpenSHMEM PE the replay can change";
        return std::nullopt;
      }
      return p;
    case AdvicePattern::kWaitOnGroup:
    case AdvicePattern::kWaitOnLock:
    case AdvicePattern::kWaitOnValue:
    case AdvicePattern::kLateSender:
    case AdvicePattern::kLateReceiver:
      // A wait goes with the excess computation of its causes: each root cause balanced (an
      // imbalanced call path to its mean, a delay root cause without the excess charged to it).
      // A delay cost is the process's excess, which its master thread measured: the threads of
      // its team that run the same call path (an OpenMP loop) shorten with it.
      for (const analysis::RootCause& r : f.root_causes) {
        Balance(trace, r.callpath, r.location, static_cast<double>(r.time), r.mean, p,
                r.source == analysis::RootCauseSource::kDelay);
      }
      if (p.compute.empty()) {
        why =
            "no computation to shorten was found behind the wait (no imbalanced call path, and "
            "no delay costs on a computation of the processes that caused it)";
        return std::nullopt;
      }
      return p;
    case AdvicePattern::kImbalancedBlock:
      // Each block's slowest process computes in it only as long as the processes' mean work
      // (its communication inside the block keeps its model).
      for (const analysis::ImbalancedBlock& b : f.blocks) {
        if (b.end <= b.begin || b.location >= trace.location_count()) continue;
        const double work = static_cast<double>(b.end - b.begin);
        p.windows.push_back(sim::ComputeWindow{b.location, b.begin, b.end, b.mean / work});
      }
      if (p.windows.empty()) {
        why = "its blocks took no time on their slowest processes: nothing to balance";
        return std::nullopt;
      }
      return p;
    case AdvicePattern::kRedundantBarrier:
      p.calls.push_back(sim::CallChange{f.callpath, true, std::nullopt});
      return p;
    case AdvicePattern::kPossiblyRedundantBarrier:
      why =
          "it may be needed (see what to check): a barrier is removed in the replay only "
          "where nothing it could order is hidden from the trace";
      return std::nullopt;
    case AdvicePattern::kNoRemoteCause:
    case AdvicePattern::kCompetingTransfer: {
      // The operation at its baseline time, or at its mean where no baseline exists; a local
      // operation (no call) is not modelled.
      if (f.type == analysis::GenericType::kLocal) {
        why =
            "computation that varies has no model in the replay (what it should take is "
            "not known)";
        return std::nullopt;
      }
      const double expected = f.expected ? *f.expected : f.mean;
      p.calls.push_back(sim::CallChange{f.callpath, false, expected / resolution});
      return p;
    }
    case AdvicePattern::kSmallTransfers:
    case AdvicePattern::kSerialisedTransfers: {
      // A run of L transfers merged into one costs as much as the call path's shortest transfer
      // (small payloads: the latency decides); made non-blocking, its transfers overlap and the
      // run costs its longest one. Each of the L calls gets an L-th of that, which keeps every
      // message matched in the replay. Only the transferring side changes.
      if (f.instances == 0 || f.bottleneck_instances < f.instances) {
        why =
            "some of the call path's transfers are in no run: the replay changes a call path "
            "as a whole";
        return std::nullopt;
      }
      const double run =
          static_cast<double>(f.bottleneck_instances) / static_cast<double>(f.instances);
      const double one = f.pattern == AdvicePattern::kSmallTransfers ? static_cast<double>(f.min)
                                                                     : static_cast<double>(f.max);
      p.calls.push_back(sim::CallChange{f.callpath, false, one / run / resolution});
      return p;
    }
    default:
      why = "the replay has no model of this fix yet";
      return std::nullopt;
  }
}

// Replays the trace under `options`: from the trace in memory, or streamed from its file.
using Replay = std::function<Result<sim::ReplayResult>(const sim::ReplayOptions&)>;

// The predicted runtime, or nullopt if the replay had to give up a wait (a change that left a
// collective without some of its members): no prediction rather than a wrong one.
Result<std::optional<uint64_t>> PredictedRuntime(const Replay& replay, const sim::SyncReplay* fast,
                                                 const sim::Perturbation& p,
                                                 std::span<const uint32_t> locations) {
  // The replay over the synchronisation points gives the event replay's result where it models
  // the trace and the change; where it stalls, the event replay's stall rules decide.
  if (fast != nullptr && fast->Models(p)) {
    if (std::optional<sim::ReplayResult> r = fast->Run(p))
      return std::optional<uint64_t>(sim::PredictedSpan(*r, locations));
  }
  sim::ReplayOptions options;
  options.perturbation = p;
  CW_ASSIGN_OR_RETURN(sim::ReplayResult r, replay(options));
  if (r.stats.cycles_broken > 0 || r.stats.incomplete_collectives > 0) {
    return std::optional<uint64_t>();
  }
  return std::optional<uint64_t>(sim::PredictedSpan(r, locations));
}

// Whether `f`'s fix is its root causes balanced: a wait with root causes.
bool HasRootCauseFix(const analysis::AdviceFinding& f) {
  return analysis::IsWaitPattern(f.pattern) && !f.root_causes.empty();
}

// Whether two waits have the same root causes, so that FixOf makes the same change for both.
bool SameRootCauses(const analysis::AdviceFinding& a, const analysis::AdviceFinding& b) {
  if (!HasRootCauseFix(a) || !HasRootCauseFix(b) || a.root_causes.size() != b.root_causes.size())
    return false;
  for (size_t i = 0; i < a.root_causes.size(); ++i) {
    const analysis::RootCause& x = a.root_causes[i];
    const analysis::RootCause& y = b.root_causes[i];
    if (x.callpath != y.callpath || x.location != y.location || x.time != y.time ||
        x.mean != y.mean || x.source != y.source)
      return false;
  }
  return true;
}

// Turns each finding's fix group (the index its first finding had before the ranking) into the
// rank of the first finding of the group now, or none for the first itself.
void NameSharedFixes(std::vector<analysis::AdviceFinding>& findings) {
  std::map<uint32_t, uint32_t> first_of_group;
  for (uint32_t i = 0; i < findings.size(); ++i) {
    const uint32_t group = *findings[i].same_fix_as;
    auto [it, first] = first_of_group.try_emplace(group, i);
    findings[i].same_fix_as = first ? std::nullopt : std::optional<uint32_t>(it->second);
  }
}

// The replays to run: the fix of each finding whose fix the replay models and that shares no
// earlier finding's fix, up to `max_predictions` of them. Findings beyond them and findings
// without a model say why they get no prediction; `fix_of` maps each finding to the first one
// with its fix (itself if none: waits whose root causes are the same make the same change).
struct ReplayPlan {
  std::vector<size_t> fix_of;
  std::vector<size_t> replayed;            // the findings whose fix is replayed
  std::vector<sim::Perturbation> changes;  // their fixes, in the same order
  std::vector<size_t> beyond;              // findings with a fix beyond `max_predictions`
};

ReplayPlan PlanReplays(const trace::Trace& trace, analysis::Advice& advice,
                       size_t max_predictions) {
  ReplayPlan plan;
  plan.fix_of.resize(advice.findings.size());
  for (size_t i = 0; i < advice.findings.size(); ++i) {
    analysis::AdviceFinding& f = advice.findings[i];
    plan.fix_of[i] = i;
    for (size_t k = 0; k < i && HasRootCauseFix(f); ++k) {
      if (plan.fix_of[k] == k && SameRootCauses(advice.findings[k], f)) {
        plan.fix_of[i] = k;
        break;
      }
    }
    if (plan.fix_of[i] != i) continue;
    std::optional<sim::Perturbation> fix = FixOf(trace, f, f.no_prediction);
    if (!fix) continue;
    if (plan.replayed.size() >= max_predictions) {
      plan.beyond.push_back(i);
      f.no_prediction = max_predictions == 0
                            ? std::string("no predictions were asked for (--predictions 0)")
                            : "beyond the first " + std::to_string(max_predictions) +
                                  " predictions (--predictions)";
      continue;
    }
    plan.replayed.push_back(i);
    plan.changes.push_back(std::move(*fix));
  }
  return plan;
}

Status Predict(const trace::Trace& trace, const match::SyncGraph* graph, const Replay& replay,
               analysis::Advice& advice, size_t max_predictions, unsigned threads) {
  // The program's CPU threads, as POP's runtime counts them; those without events do not count
  // (PredictedSpan). An accelerator's streams are replayed at their recorded times (the replay
  // does not model their dependence on the host): counted, their last kernel would pin the
  // runtime however much the host gained.
  std::vector<uint32_t> locations;
  for (uint32_t l = 0; l < trace.location_count(); ++l) {
    const trace::LocationType type = trace.defs.locations[l].type;
    if (type == trace::LocationType::kCpuThread || type == trace::LocationType::kUnknown)
      locations.push_back(l);
  }
  ReplayPlan plan = PlanReplays(trace, advice, max_predictions);
  // The unchanged replay (slot 0) and each fix's (slot k + 1) are independent and deterministic,
  // so they run side by side, one per worker thread: the predictions are the same for any
  // thread count, and their wall-clock time on P threads is that of ceil((fixes + 1) / P)
  // replays instead of fixes + 1.
  const size_t slots = plan.replayed.empty() ? 0 : plan.replayed.size() + 1;
  std::unique_ptr<sim::SyncReplay> fast;
  if (slots > 0 && graph != nullptr) {
    std::string unmodelled;  // the event replay then replays every change
    fast = sim::SyncReplay::Build(trace, *graph, unmodelled, threads);
  }
  std::vector<std::optional<Result<std::optional<uint64_t>>>> spans(slots);
  auto run = [&](size_t r) {
    spans[r] = PredictedRuntime(replay, fast.get(),
                                r == 0 ? sim::Perturbation{} : plan.changes[r - 1], locations);
  };
  const bool points_only = fast != nullptr && std::all_of(plan.changes.begin(), plan.changes.end(),
                                                          [&fast](const sim::Perturbation& p) {
                                                            return fast->Models(p);
                                                          });
  if (points_only && slots > 0) {
    // Over the points, the unchanged replay is the measured run itself once a fix's replay went
    // through every point (SyncReplay::Run): it comes after the fixes.
    ParallelFor(slots - 1, threads, [&](size_t k) { run(k + 1); });
    run(0);
  } else {
    ParallelFor(slots, threads, run);
  }
  for (const auto& span : spans) CW_RETURN_IF_ERROR(*span);
  const std::optional<uint64_t> unchanged = slots > 0 ? **spans[0] : std::nullopt;
  if (slots > 0 && !unchanged) {
    // The trace itself does not replay cleanly: no fix's replay can be compared with it.
    for (const std::vector<size_t>* findings : {&plan.replayed, &plan.beyond}) {
      for (size_t i : *findings) {
        advice.findings[i].no_prediction =
            "the trace itself does not replay cleanly (a wait the replay had to give up)";
      }
    }
  }
  for (size_t k = 0; k < plan.replayed.size() && unchanged; ++k) {
    analysis::AdviceFinding& f = advice.findings[plan.replayed[k]];
    const std::optional<uint64_t> fixed = **spans[k + 1];
    if (!fixed) {
      f.no_prediction =
          "the replay of the change had to give up a wait (a collective left without some of "
          "its members, or synchronisations that wait for each other)";
      continue;
    }
    // A fix the replay predicts to gain nothing (its time was hidden by waiting elsewhere)
    // saves 0, not a negative time.
    f.predicted_saving = *fixed < *unchanged ? static_cast<double>(*unchanged - *fixed) : 0.0;
  }
  // A finding that shares an earlier one's fix shares its prediction, or its reason for none.
  for (size_t i = 0; i < advice.findings.size(); ++i) {
    if (plan.fix_of[i] == i) continue;
    const analysis::AdviceFinding& first = advice.findings[plan.fix_of[i]];
    advice.findings[i].predicted_saving = first.predicted_saving;
    advice.findings[i].no_prediction = first.no_prediction;
  }
  std::vector<size_t>& fix_of = plan.fix_of;
  // Findings that share a fix keep its group (the index of its first finding) through the
  // ranking, which the field then names by rank.
  for (size_t i = 0; i < advice.findings.size(); ++i)
    advice.findings[i].same_fix_as = static_cast<uint32_t>(fix_of[i]);
  // What would save nothing is no bottleneck.
  std::erase_if(advice.findings, [&advice](const analysis::AdviceFinding& f) {
    if (!f.predicted_saving || *f.predicted_saving > 0) return false;
    advice.saving_nothing.push_back(f.callpath);
    return true;
  });
  std::stable_sort(advice.findings.begin(), advice.findings.end(),
                   [](const analysis::AdviceFinding& a, const analysis::AdviceFinding& b) {
                     const bool pa = a.predicted_saving.has_value();
                     const bool pb = b.predicted_saving.has_value();
                     if (pa != pb) return pa;
                     if (pa) return *a.predicted_saving > *b.predicted_saving;
                     return analysis::ExcessTime(a) > analysis::ExcessTime(b);
                   });
  NameSharedFixes(advice.findings);
  return OkStatus();
}

}  // namespace

Status PredictSavings(const trace::Trace& trace, analysis::Advice& advice, size_t max_predictions,
                      unsigned threads, const match::SyncGraph* graph) {
  return Predict(
      trace, graph,
      [&trace](const sim::ReplayOptions& options) {
        return sim::RunReplay(sim::TraceInput(trace), options);
      },
      advice, max_predictions, threads);
}

Status PredictSavings(const trace::Trace& trace, const std::string& path, analysis::Advice& advice,
                      size_t max_predictions, unsigned threads) {
  return Predict(
      trace, nullptr,
      [&path](const sim::ReplayOptions& options) -> Result<sim::ReplayResult> {
        CW_ASSIGN_OR_RETURN(std::unique_ptr<sim::StreamedTrace> streamed,
                            sim::StreamedTrace::Open(path));
        return sim::RunReplay(streamed->Input(), options);
      },
      advice, max_predictions, threads);
}

}  // namespace cw::driver
