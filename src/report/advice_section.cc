#include "report/advice_section.h"

#include <cstdio>

#include "analysis/advice/advice.h"
#include "report/report.h"
#include "report/text_summary.h"

namespace cw::report {

AdviceReport SummarizeAdvice(const analysis::Advice& advice, const trace::Trace& trace) {
  const double resolution = static_cast<double>(trace.defs.clock.resolution);
  auto seconds = [&](double ticks) { return ticks / resolution; };
  AdviceReport r;
  r.parameters = advice.parameters;
  r.baselines = advice.baselines;
  r.total_time = seconds(static_cast<double>(advice.total_time));
  r.candidates = advice.candidates;
  r.findings_left_out = advice.findings_left_out;
  r.saving_nothing = advice.saving_nothing;
  for (const analysis::AdviceFinding& f : advice.findings) {
    AdviceFindingEntry e;
    e.pattern = f.pattern;
    e.callpath = f.callpath;
    e.type = f.type;
    e.filter = f.filter;
    e.locations = f.locations;
    e.time = seconds(static_cast<double>(f.time));
    e.bottleneck_time = seconds(static_cast<double>(f.bottleneck_time));
    e.excess = seconds(analysis::ExcessTime(f));
    e.mean = seconds(f.mean);
    e.min = seconds(static_cast<double>(f.min));
    e.max = seconds(static_cast<double>(f.max));
    if (f.expected) e.expected = seconds(*f.expected);
    e.instances = f.instances;
    e.bottleneck_instances = f.bottleneck_instances;
    for (int k = 0; k < analysis::kAdvicePatternCount; ++k) {
      const uint64_t n = f.pattern_counts[static_cast<size_t>(k)];
      if (n > 0) e.pattern_counts.emplace_back(static_cast<analysis::AdvicePattern>(k), n);
      const uint64_t t = f.pattern_time[static_cast<size_t>(k)];
      if (t > 0) {
        e.pattern_time.emplace_back(static_cast<analysis::AdvicePattern>(k),
                                    seconds(static_cast<double>(t)));
      }
    }
    for (const analysis::AdviceCause& c : f.causes) {
      e.causes.push_back(AdviceCauseEntry{
          c.location,
          c.callpath == trace::kNone ? std::nullopt : std::optional<uint32_t>(c.callpath),
          seconds(static_cast<double>(c.time)), c.instances, trace.SecondsSinceStart(c.first)});
    }
    for (const analysis::RootCause& rc : f.root_causes) {
      e.root_causes.push_back(RootCauseEntry{rc.callpath, rc.location,
                                             seconds(static_cast<double>(rc.time)),
                                             seconds(rc.mean), rc.source, seconds(rc.delay)});
    }
    e.imbalanced_blocks = f.imbalanced_blocks;
    e.unseen = f.unseen;
    e.caused_wait = seconds(static_cast<double>(f.caused_wait));
    e.completed_by = f.completed_by;
    e.hints = f.hints;
    if (f.predicted_saving) e.predicted_saving = seconds(*f.predicted_saving);
    e.no_prediction = f.no_prediction;
    e.same_fix_as = f.same_fix_as;
    r.findings.push_back(std::move(e));
  }
  const analysis::LoadBalance& lb = advice.load_balance;
  auto ticks = [&](uint64_t t) { return seconds(static_cast<double>(t)); };
  for (const analysis::ProcessBalance& b : lb.processes) {
    r.processes.push_back(ProcessBalanceEntry{b.location, ticks(b.computation),
                                              ticks(b.communication), ticks(b.synchronisation),
                                              ticks(b.other)});
  }
  r.computation_imbalance = lb.computation_imbalance;
  r.bottleneck_processes = lb.bottleneck_processes;
  for (const analysis::BlockBalance& b : lb.blocks) {
    r.blocks.push_back(BlockBalanceEntry{
        b.index, b.closing == trace::kNone ? std::nullopt : std::optional<uint32_t>(b.closing),
        trace.SecondsSinceStart(b.begin), seconds(b.mean), ticks(b.max), b.max_location});
  }
  r.block_count = lb.block_count;
  for (const analysis::CallpathBalance& b : lb.callpaths) {
    r.callpath_balance.push_back(CallpathBalanceEntry{b.callpath, seconds(b.mean), ticks(b.max),
                                                      b.max_location, b.processes});
  }
  for (const analysis::RedundantBarrier& b : advice.redundant_barriers) {
    r.redundant_barriers.push_back(
        RedundantBarrierEntry{b.callpath, b.instances, ticks(b.time), b.unseen});
  }
  return r;
}

namespace {

std::string Locations(const Report& r, const std::vector<uint32_t>& locations) {
  std::string out;
  const size_t shown = std::min<size_t>(locations.size(), 4);
  for (size_t k = 0; k < shown; ++k) out += (k ? ", " : "") + r.LocationLabel(locations[k]);
  if (locations.size() > shown) {
    out += " and " + std::to_string(locations.size() - shown) + " more";
  }
  return out;
}

std::string What(const AdviceFindingEntry& f) {
  using analysis::AdvicePattern;
  const std::string n = std::to_string(f.bottleneck_instances);
  switch (f.pattern) {
    case AdvicePattern::kImbalancedBlock:
      if (f.imbalanced_blocks > 0) break;  // a synchronisation's waits: described as a wait
      return FormatSeconds(f.excess) + " beyond the mean over the processes (" +
             FormatSeconds(f.mean) + " per block) in " + n + " program block(s) it ends";
    case AdvicePattern::kImbalancedCallpath:
      return FormatSeconds(f.bottleneck_time) + " on the slowest process against a mean of " +
             FormatSeconds(f.mean) + " (load balance)";
    case AdvicePattern::kRedundantBarrier:
      return FormatSeconds(f.time) + " in " + n +
             " call(s) with no communication since the previous synchronisation";
    case AdvicePattern::kPossiblyRedundantBarrier: {
      std::string unseen;
      for (const std::string& name : analysis::UnseenDependencyNames(f.unseen))
        unseen += (unseen.empty() ? "" : ", ") + name;
      return FormatSeconds(f.time) + " in " + n +
             " call(s) with no transfer since the previous synchronisation; the trace cannot "
             "show what it may order (" +
             unseen + ")";
    }
    case AdvicePattern::kSmallTransfers:
    case AdvicePattern::kSerialisedTransfers:
      return FormatSeconds(f.time) + " in " + n + " transfers, " + std::to_string(f.instances) +
             " run(s) of consecutive ones" +
             (f.caused_wait > 0
                  ? "; their targets waited " + FormatSeconds(f.caused_wait) + " for them"
                  : "");
    case AdvicePattern::kHighFrequency:
      return std::to_string(f.instances) + " calls of " + FormatSeconds(f.mean) + " on average, " +
             FormatSeconds(f.time) + " in all";
    default:
      break;
  }
  if (f.filter == analysis::DetectionFilter::kWaiting) {
    return FormatSeconds(f.excess) + " of waiting for other processes in " + n + " of " +
           std::to_string(f.instances) + " calls (found by its wait states; " +
           FormatSeconds(f.expected.value_or(0)) + " per call without them)" +
           (f.imbalanced_blocks > 0 ? "; it ends " + std::to_string(f.imbalanced_blocks) +
                                          " imbalanced program block(s)"
                                    : "");
  }
  return FormatSeconds(f.excess) + " beyond " +
         (f.expected ? "the baseline " + FormatSeconds(*f.expected) + " per call"
                     : "the mean " + FormatSeconds(f.mean) + " per call") +
         " (" + n + " of " + std::to_string(f.instances) + " calls, found by the " +
         std::string(analysis::DetectionFilterName(f.filter)) + " filter)" +
         (f.imbalanced_blocks > 0
              ? "; it ends " + std::to_string(f.imbalanced_blocks) + " imbalanced program block(s)"
              : "");
}

std::string Why(const Report& r, const AdviceFindingEntry& f) {
  std::string why;
  switch (f.pattern) {
    case analysis::AdvicePattern::kNoRemoteCause:
      why = f.type == analysis::GenericType::kLocal
                ? "its instances differ (no other process is involved)"
                : "slow with no other process or thread to blame (the operation itself)";
      break;
    default:
      why = std::string(analysis::AdvicePatternName(f.pattern));
      if (!f.causes.empty()) {
        why += ", caused by " + r.LocationLabel(f.causes.front().location);
        if (f.causes.front().callpath) why += " in " + r.CallpathLabel(*f.causes.front().callpath);
      }
      break;
  }
  return why;
}

// The findings the replay predicts to save nothing: named, so that nobody wonders where they went.
void SavingNothingLine(const Report& r, std::string& out) {
  const std::vector<uint32_t>& callpaths = r.advice->saving_nothing;
  if (callpaths.empty()) return;
  out += "  not bottlenecks: fixing ";
  for (size_t i = 0; i < callpaths.size(); ++i) {
    if (i > 0) out += i + 1 == callpaths.size() ? " or " : ", ";
    out += r.CallpathLabel(callpaths[i]);
  }
  out += " is predicted to save no runtime (the others wait elsewhere meanwhile)\n";
}

}  // namespace

void AdviceTextSection(const Report& r, std::string& out) {
  if (!r.advice) return;
  const AdviceReport& a = *r.advice;
  const analysis::AdviceParameters& p = a.parameters;
  char line[256];
  out += "Bottlenecks and what to do\n";
  std::snprintf(line, sizeof(line), "  hotspots above %.3g %% of all time; %s\n",
                100 * p.hotspot_share,
                a.baselines ? "baseline filter (ratio above the baseline) where a baseline exists, "
                              "else deviation filter"
                            : "no baselines (--baselines): deviation filter only");
  out += line;
  std::snprintf(line, sizeof(line),
                "  (baseline ratio %.3g, deviation: longest/mean above %.3g or shortest/mean "
                "below %.3g)\n",
                p.baseline_ratio, p.deviation_high, p.deviation_low);
  out += line;
  if (a.findings.empty()) {
    out += "  none found: no call path past the hotspot filter took longer than expected";
    out += a.saving_nothing.empty() ? ".\n" : " and would save runtime if fixed.\n";
    SavingNothingLine(r, out);
    out += "\n";
    return;
  }
  int rank = 0;
  for (const AdviceFindingEntry& f : a.findings) {
    std::snprintf(line, sizeof(line), "%2d. ", ++rank);
    out += line + r.CallpathLabel(f.callpath) + " on " + Locations(r, f.locations) + "\n";
    out += "    what:  " + What(f) + "\n";
    out += "    why:   " + Why(r, f) + "\n";
    // Its instances of more than one pattern: the split by time (the pattern holds the most).
    if (f.pattern_time.size() > 1) {
      std::string split;
      for (const auto& [pattern, seconds] : f.pattern_time) {
        split += (split.empty() ? "" : ", ") + std::string(analysis::AdvicePatternName(pattern)) +
                 " " + FormatSeconds(seconds);
      }
      out += "    split: " + split + "\n";
    }
    for (const RootCauseEntry& rc : f.root_causes) {
      out += "    root:  " + r.CallpathLabel(rc.callpath) + " on " + r.LocationLabel(rc.location);
      out += rc.source == analysis::RootCauseSource::kDelay
                 ? ": its excess time caused " + FormatSeconds(rc.delay) +
                       " of this kind of waiting (delay analysis; it computes " +
                       FormatSeconds(rc.time) + " there)\n"
                 : " computes " + FormatSeconds(rc.time) + " against a mean of " +
                       FormatSeconds(rc.mean) + "\n";
    }
    if (!f.hints.empty()) out += "    fix:   " + f.hints.front() + "\n";
    // A possibly redundant barrier: what to check before removing it, each.
    if (f.pattern == analysis::AdvicePattern::kPossiblyRedundantBarrier) {
      for (size_t h = 1; h < f.hints.size(); ++h) out += "    check: " + f.hints[h] + "\n";
    }
    std::string saves = f.predicted_saving ? FormatSeconds(*f.predicted_saving) + " (predicted)"
                                           : "not predicted: " + f.no_prediction;
    if (f.same_fix_as) {
      saves += "; the same fix as finding " + std::to_string(*f.same_fix_as + 1) +
               " (the same root causes): not in addition to it";
    }
    out += "    saves: " + saves + "\n";
  }
  if (a.findings_left_out > 0) {
    out += "  ... and " + std::to_string(a.findings_left_out) + " more in report.json\n";
  }
  SavingNothingLine(r, out);
  out += "\n";
}

}  // namespace cw::report
