#include "analysis/advice/frequency.h"

#include <algorithm>
#include <map>

#include "analysis/advice/hints.h"
#include "analysis/generic/construct_map.h"

namespace cw::analysis {

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
