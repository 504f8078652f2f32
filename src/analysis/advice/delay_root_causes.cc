#include "analysis/advice/delay_root_causes.h"

#include <algorithm>
#include <vector>

#include "analysis/delay/delay_analysis.h"
#include "analysis/waitstates/sync_edges.h"

namespace cw::analysis {
namespace {

// The delay-cost metrics of the wait patterns charged at `callpath` on `locations`: the kinds
// of waiting the finding's instances did. Waits the delay analysis does not follow (OpenMP
// locks) have none.
std::vector<MetricId> CostMetricsOfWaitsAt(std::span<const LocationSeverities> severities,
                                           uint32_t callpath, std::span<const uint32_t> locations) {
  std::vector<MetricId> costs;
  for (int p = 0; p < kSyncPatternCount; ++p) {
    const auto pattern = static_cast<SyncPattern>(p);
    if (FollowedByBottleneckAnalysisOnly(pattern)) continue;
    const bool waited = std::any_of(locations.begin(), locations.end(), [&](uint32_t l) {
      if (l >= severities.size() || callpath >= severities[l].callpaths()) return false;
      for (MetricId m : WaitMetricsOf(pattern)) {
        if (severities[l].Get(m, callpath) > 0) return true;
      }
      return false;
    });
    if (!waited) continue;
    const DelayCostMetrics m = DelayCostMetricsOf(pattern);
    costs.push_back(m.short_term);
    costs.push_back(m.long_term);
  }
  return costs;
}

// The locations that made the finding's instances wait, in their order (most waiting first).
std::vector<uint32_t> DelayingLocations(const AdviceFinding& f) {
  std::vector<uint32_t> out;
  for (const AdviceCause& c : f.causes) {
    if (c.time == 0 || std::find(out.begin(), out.end(), c.location) != out.end()) continue;
    out.push_back(c.location);
  }
  return out;
}

// The computing call paths of `delayers` with the delay costs `metrics` charged to them, largest
// first; equal costs in the order of the delayers (most waiting caused first), then of the call
// paths, so that every run lists them alike.
std::vector<RootCause> Candidates(std::span<const LocationSeverities> severities,
                                  std::span<const uint32_t> delayers,
                                  std::span<const MetricId> metrics) {
  std::vector<RootCause> out;
  for (uint32_t l : delayers) {
    if (l >= severities.size()) continue;
    const LocationSeverities& s = severities[l];
    const std::vector<double>* computation = s.Values(MetricId::kComp);
    if (computation == nullptr) continue;
    for (uint32_t cp = 0; cp < s.callpaths(); ++cp) {
      const double comp = (*computation)[cp];
      if (comp <= 0) continue;
      double delay = 0;
      for (MetricId m : metrics) delay += s.Get(m, cp);
      if (delay <= 0) continue;
      // The cost charged to excess time cannot exceed that time; a share of it spent outside
      // computation (in nested calls) is not the computation's to shorten.
      delay = std::min(delay, comp);
      RootCause r;
      r.callpath = cp;
      r.location = l;
      r.time = static_cast<uint64_t>(comp);
      r.mean = comp - delay;
      r.source = RootCauseSource::kDelay;
      r.delay = delay;
      out.push_back(r);
    }
  }
  std::stable_sort(out.begin(), out.end(),
                   [](const RootCause& a, const RootCause& b) { return a.delay > b.delay; });
  return out;
}

}  // namespace

void AddDelayRootCauses(std::span<const LocationSeverities> severities, Advice& advice) {
  for (AdviceFinding& f : advice.findings) {
    if (!IsWaitPattern(f.pattern) || !f.root_causes.empty()) continue;
    const std::vector<MetricId> metrics = CostMetricsOfWaitsAt(severities, f.callpath, f.locations);
    if (metrics.empty()) continue;
    const std::vector<uint32_t> delayers = DelayingLocations(f);
    std::vector<RootCause> candidates = Candidates(severities, delayers, metrics);
    double total = 0;
    for (const RootCause& r : candidates) total += r.delay;
    for (const RootCause& r : candidates) {
      if (f.root_causes.size() == kMaxDelayRootCauses || r.delay < kMinDelayRootShare * total) {
        break;
      }
      f.root_causes.push_back(r);
    }
  }
}

}  // namespace cw::analysis
