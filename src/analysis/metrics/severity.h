// Analysis results: severities per (metric, call path, location) and the most severe instances.
//
// A location's severities are kept per metric as a dense vector over call paths, allocated on
// first use. Values are doubles in the metric's stored unit (clock ticks for time); sums of
// integer tick counts stay exact up to 2^53 ticks, so results do not depend on summation order.
//
//   LocationSeverities sev(trace.call_tree.size());
//   sev.Add(MetricId::kMpiLateSender, callpath, wait_ticks);
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "analysis/metrics/metric_catalog.h"

namespace cw::analysis {

class LocationSeverities {
 public:
  explicit LocationSeverities(uint32_t callpaths = 0)
      : callpaths_(callpaths), by_metric_(kMetricCount) {}

  void Add(MetricId metric, uint32_t callpath, double value) {
    std::vector<double>& values = by_metric_[static_cast<size_t>(metric)];
    if (values.empty()) values.assign(callpaths_, 0.0);
    values[callpath] += value;
  }

  // Adds `value` to `metric` and to every ancestor in the metric tree: for metrics whose values
  // partition their parent's (a Late Sender delay cost is part of all delay costs).
  void AddWithAncestors(MetricId metric, uint32_t callpath, double value) {
    for (MetricId m : MetricWithAncestors(metric)) Add(m, callpath, value);
  }

  // Values over call paths, or nullptr if nothing was added for `metric`.
  const std::vector<double>* Values(MetricId metric) const {
    const std::vector<double>& values = by_metric_[static_cast<size_t>(metric)];
    return values.empty() ? nullptr : &values;
  }
  double Get(MetricId metric, uint32_t callpath) const {
    const std::vector<double>* values = Values(metric);
    return values == nullptr ? 0.0 : (*values)[callpath];
  }
  // Sum over call paths.
  double Total(MetricId metric) const;

  uint32_t callpaths() const { return callpaths_; }

 private:
  uint32_t callpaths_;
  std::vector<std::vector<double>> by_metric_;
};

// One occurrence of a wait state (or other pattern) worth showing to a user.
struct Instance {
  MetricId metric;
  uint32_t callpath;
  uint32_t location;
  uint64_t time;     // when the waiting call was entered (ticks)
  double value;      // severity (ticks)
  uint32_t partner;  // the location waited for, or kNone for collectives with many partners
};

// Keeps the `capacity` most severe instances per metric; ties go to the earlier instance.
class InstanceCollector {
 public:
  explicit InstanceCollector(size_t capacity)
      : capacity_(capacity), heaps_(kMetricCount), offered_(kMetricCount, 0) {}

  void Offer(const Instance& instance);
  void Merge(const InstanceCollector& other);
  // The same for a collector elsewhere (another rank of an MPI analysis job): the instances it
  // kept and how many it was offered per metric.
  void Absorb(std::span<const Instance> kept, std::span<const uint64_t> offered);
  // All kept instances, most severe first, then by time, location, call path.
  std::vector<Instance> Sorted() const;
  // How many instances of `metric` were offered (kept or not).
  uint64_t Offered(MetricId metric) const { return offered_[static_cast<size_t>(metric)]; }

 private:
  size_t capacity_;
  std::vector<std::vector<Instance>> heaps_;  // min-heaps by severity, one per metric
  std::vector<uint64_t> offered_;
};

}  // namespace cw::analysis
