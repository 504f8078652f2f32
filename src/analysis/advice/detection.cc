#include "analysis/advice/detection.h"

#include <algorithm>

#include "analysis/generic/construct_map.h"

namespace cw::analysis {
namespace {

// The constructs the detection never reports (the global analyses see their imbalance).
bool NeverDetected(GenericType type) {
  return type == GenericType::kInitialization || type == GenericType::kTermination ||
         type == GenericType::kMeasurement;
}

}  // namespace

std::vector<DetectedBottleneck> DetectBottlenecks(const DetectionInput& in,
                                                  const AdviceParameters& p, uint64_t* candidates) {
  std::vector<DetectedBottleneck> out;
  uint64_t hot = 0;
  const trace::Trace& trace = *in.trace;
  const double resolution = static_cast<double>(trace.defs.clock.resolution);
  for (uint32_t c = 0; c < in.stats.size(); ++c) {
    const InstanceStats& s = in.stats[c];
    if (s.count == 0 || s.total == 0 || in.total_time == 0) continue;
    const uint32_t region = trace.CallpathRegion(c);
    const GenericType type = CallpathType(trace, in.region_types, c);
    if (NeverDetected(type)) continue;
    if (static_cast<double>(s.total) <= p.hotspot_share * static_cast<double>(in.total_time)) {
      continue;
    }
    ++hot;
    const double mean = s.Mean();
    std::optional<double> baseline;
    if (in.baselines != nullptr && type != GenericType::kLocal &&
        region < trace.defs.regions.size()) {
      baseline =
          in.baselines->Seconds(trace.defs.str(trace.defs.regions[region].name), in.processes,
                                static_cast<double>(s.bytes) / static_cast<double>(s.count));
    }
    if (baseline) {
      const double expected = *baseline * resolution;
      if (mean > p.baseline_ratio * expected) {
        // Its instances beyond the ratio, but not those far below the call path's own mean:
        // a barrier's last member exceeds a baseline of nanoseconds by its own overhead alone.
        out.push_back(
            DetectedBottleneck{c, DetectionFilter::kBaseline, expected,
                               std::max(p.baseline_ratio * expected, p.deviation_low * mean)});
        continue;
      }
    } else if (s.count >= 2) {
      // A local operation deviates within a process; any other construct over all its
      // instances (a barrier's waiting members against its last one).
      const bool local = type == GenericType::kLocal;
      const double high = local ? s.within_high : static_cast<double>(s.max) / mean;
      const double low = local ? s.within_low : static_cast<double>(s.min) / mean;
      if (high > p.deviation_high || low < p.deviation_low) {
        out.push_back(DetectedBottleneck{c, DetectionFilter::kDeviation, std::nullopt, mean});
        continue;
      }
    }
    // Waiting that neither filter sees: every instance waits alike (a receive that always waits
    // for the same late sender), or within the baseline ratio. Its wait states alone decide:
    // expected is what an instance takes without them, and the instances longer than that are
    // its bottleneck instances.
    if (static_cast<double>(s.waiting) > p.hotspot_share * static_cast<double>(in.total_time)) {
      const double expected = static_cast<double>(s.total - std::min(s.total, s.waiting)) /
                              static_cast<double>(s.count);
      out.push_back(DetectedBottleneck{c, DetectionFilter::kWaiting, expected, expected});
    }
  }
  if (candidates != nullptr) *candidates = hot;
  return out;
}

std::vector<uint8_t> HotspotCandidates(const trace::Trace& trace,
                                       std::span<const GenericType> region_types,
                                       uint64_t total_time, const AdviceParameters& p) {
  std::vector<uint64_t> inclusive(trace.call_tree.size(), 0);
  for (const trace::LocationEvents& ev : trace.locations) {
    for (const trace::LocationEvents::CallpathTime& t : ev.profile()) {
      if (t.callpath < inclusive.size()) inclusive[t.callpath] += t.inclusive;
    }
  }
  std::vector<uint8_t> out(inclusive.size(), 0);
  for (uint32_t c = 0; c < out.size(); ++c) {
    // The hotspot filter's test, on a time no instance's measure exceeds.
    out[c] =
        static_cast<double>(inclusive[c]) > p.hotspot_share * static_cast<double>(total_time) &&
        !NeverDetected(CallpathType(trace, region_types, c));
  }
  return out;
}

bool BottlenecksAmong(std::span<const DetectedBottleneck> bottlenecks,
                      std::span<const uint8_t> candidates) {
  return std::all_of(bottlenecks.begin(), bottlenecks.end(), [&](const DetectedBottleneck& b) {
    return b.callpath < candidates.size() && candidates[b.callpath] != 0;
  });
}

}  // namespace cw::analysis
