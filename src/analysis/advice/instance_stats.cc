#include "analysis/advice/instance_stats.h"

#include <algorithm>

#include "analysis/metrics/waiting_metrics.h"

namespace cw::analysis {

void InstanceStats::Merge(const InstanceStats& o) {
  count += o.count;
  total += o.total;
  min = std::min(min, o.min);
  max = std::max(max, o.max);
  bytes += o.bytes;
  within_high = std::max(within_high, o.within_high);
  within_low = std::min(within_low, o.within_low);
  waiting += o.waiting;
}

void AddWaiting(std::span<const LocationSeverities> severities, std::vector<InstanceStats>& stats) {
  for (const LocationSeverities& location : severities) {
    for (MetricId m : WaitingMetrics()) {
      const std::vector<double>* values = location.Values(m);
      if (values == nullptr) continue;
      for (size_t c = 0; c < values->size() && c < stats.size(); ++c) {
        if ((*values)[c] > 0) stats[c].waiting += static_cast<uint64_t>((*values)[c]);
      }
    }
  }
}

InstanceStats WithinLocation(InstanceStats s) {
  if (s.count >= 2 && s.total > 0) {
    s.within_high = static_cast<double>(s.max) / s.Mean();
    s.within_low = static_cast<double>(s.min) / s.Mean();
  }
  return s;
}

uint64_t TotalLocationTime(const trace::Trace& trace) {
  uint64_t total = 0;
  for (const trace::LocationEvents& ev : trace.locations) {
    if (!ev.empty()) total += ev.last_time() - ev.first_time();
  }
  return total;
}

}  // namespace cw::analysis
