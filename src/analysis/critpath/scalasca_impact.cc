#include "analysis/critpath/scalasca_impact.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>

namespace cw::analysis {
namespace {

constexpr std::array kWaitMetrics = {
    MetricId::kMpiFinalizeWait,    MetricId::kMpiRmaWaitAtCreate,
    MetricId::kMpiRmaWaitAtFree,   MetricId::kMpiBarrierWait,
    MetricId::kMpiRmaSyncLatePost, MetricId::kMpiRmaEarlyWait,
    MetricId::kMpiRmaWaitAtFence,  MetricId::kMpiRmaSyncLockCompetition,
    MetricId::kMpiLateSender,      MetricId::kMpiLateReceiver,
    MetricId::kMpiEarlyReduce,     MetricId::kMpiEarlyScan,
    MetricId::kMpiLateBroadcast,   MetricId::kMpiWaitNxn,
    MetricId::kMpiRmaCommLatePost, MetricId::kMpiRmaCommLockCompetition,
};

// A location's time and wait states per call path, read through the metrics' value vectors
// once (a location's call paths are visited many times).
class LocationTimes {
 public:
  explicit LocationTimes(const LocationSeverities& sev) : time_(sev.Values(MetricId::kTime)) {
    for (MetricId m : kWaitMetrics) {
      if (const std::vector<double>* v = sev.Values(m)) waits_.push_back(v);
    }
  }
  double Time(uint32_t c) const { return time_ == nullptr ? 0.0 : (*time_)[c]; }
  double Wait(uint32_t c) const {
    double w = 0;
    for (const std::vector<double>* v : waits_) w += (*v)[c];
    return w;
  }

 private:
  const std::vector<double>* time_;
  std::vector<const std::vector<double>*> waits_;
};

// Scalasca's x / y where y may be 0: what its floating-point arithmetic gives.
double Divide(double x, double y) {
  return y != 0 ? x / y
                : (x == 0 ? std::numeric_limits<double>::quiet_NaN()
                          : std::copysign(std::numeric_limits<double>::infinity(), x));
}

}  // namespace

void WriteScalascaImpact(const trace::CallTree& tree, uint32_t location_count,
                         const std::vector<uint32_t>& participants,
                         const std::vector<TimeVector>& on_path,
                         std::vector<LocationSeverities>& severities) {
  const uint32_t k = tree.size();
  // cp(c); cp_l(c) stays in `on_path`.
  std::vector<double> path(k, 0.0);
  for (uint32_t loc : participants) {
    for (const CallpathTicks& e : on_path[loc]) path[e.callpath] += static_cast<double>(e.ticks);
  }
  double path_length = 0;
  for (double v : path) path_length += v;

  // d_l(c), and each process's share of the two imbalance costs.
  std::vector<double> imbalance_costs(k, 0.0), headroom(k, 0.0);
  std::vector<double> own(k);
  for (size_t p = 0; p < participants.size(); ++p) {
    LocationSeverities& sev = severities[participants[p]];
    const LocationTimes times(sev);
    double own_length = 0, excess_length = 0, run_length = 0, idle_path = 0;
    for (uint32_t c = 0; c < k; ++c) {
      const double t = times.Time(c);
      own[c] = t - std::min(t, times.Wait(c));
      own_length += own[c];
      excess_length += std::max(path[c] - own[c], 0.0);
      if (own[c] > 0) {
        run_length += std::max(own[c], path[c]);
      } else {
        idle_path += path[c];
      }
    }
    const double scale = Divide(path_length - own_length, excess_length);
    const double headroom_scale = Divide(path_length - run_length, idle_path);
    for (uint32_t c = 0; c < k; ++c) {
      // Every entry is scaled, as Scalasca scales them: a zero times an infinite scale is the
      // NaN that makes the whole sum NaN.
      imbalance_costs[c] += std::max(path[c] - own[c], 0.0) * scale;
      headroom[c] += (own[c] > 0 ? 0.0 : path[c]) * headroom_scale;
      if (path[c] > 0) {
        sev.AddWithAncestors(MetricId::kCriticalPathActivities, c, std::min(path[c], own[c]));
      }
      if (own[c] - path[c] > 0) {
        sev.AddWithAncestors(MetricId::kNonCriticalPathActivities, c, own[c] - path[c]);
      }
    }
  }

  // CP(c), T(c) and W(c): inclusive along the call tree (a child's id is larger than its
  // parent's), summed over every location.
  std::vector<double> path_inclusive(path), rest_inclusive(k, 0.0);
  for (const LocationSeverities& sev : severities) {
    const LocationTimes times(sev);
    for (uint32_t c = 0; c < k; ++c) rest_inclusive[c] += times.Time(c) - times.Wait(c);
  }
  for (uint32_t c = k; c-- > 0;) {
    const uint32_t parent = tree.parent(c);
    if (parent == trace::kNone) continue;
    path_inclusive[parent] += path_inclusive[c];
    rest_inclusive[parent] += rest_inclusive[c];
  }

  const double locations = static_cast<double>(location_count);
  for (uint32_t loc : participants) {
    LocationSeverities& sev = severities[loc];
    for (const CallpathTicks& e : on_path[loc]) {
      const uint32_t c = e.callpath;
      const auto mine = static_cast<double>(e.ticks);
      if (!(mine > 0)) continue;
      sev.Add(MetricId::kCriticalPath, c, mine);
      const double share = mine / path[c];
      const double total = share * imbalance_costs[c];
      const double inter = share * headroom[c];
      const double total_written = total > 0 ? total : 0.0;
      const double inter_written = inter > 0 ? inter : 0.0;
      if (inter_written != 0) {
        sev.AddWithAncestors(MetricId::kInterPartitionImbalance, c, inter_written);
      }
      if (total_written - inter_written != 0) {
        sev.AddWithAncestors(MetricId::kIntraPartitionImbalance, c, total_written - inter_written);
      }
      const double ratio = (path_inclusive[c] - rest_inclusive[c] / locations) / path_inclusive[c];
      if (ratio > 0) sev.Add(MetricId::kCriticalPathImbalance, c, ratio * mine);
    }
  }
}

}  // namespace cw::analysis
