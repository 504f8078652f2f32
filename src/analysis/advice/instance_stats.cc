#include "analysis/advice/instance_stats.h"

#include "analysis/generic/construct_map.h"
#include "analysis/metrics/waiting_metrics.h"

#include <algorithm>

#include "analysis/advice/records.h"
#include "base/parallel.h"
#include "trace/event_kind.h"

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

namespace {

using trace::EventKind;

// One location's statistics, by call path in the order of their first instance.
struct LocationShare {
  std::vector<uint32_t> callpaths;
  std::vector<InstanceStats> stats;
};

// `types` by call path.
LocationShare LocationStats(const trace::Trace& trace, std::span<const GenericType> types,
                            uint32_t location) {
  const trace::LocationEvents& ev = trace.location(location);
  LocationShare share;
  // By call path, its place in the share: one table per location, of 4 bytes per call path, and
  // one lookup per instance.
  std::vector<uint32_t> slot(types.size(), trace::kNone);
  struct Open {
    uint32_t enter;
    uint64_t children = 0;
    uint64_t overhead = 0;
    uint64_t bytes = 0;
  };
  std::vector<Open> open;
  std::span<const EventKind> kinds = ev.kinds();
  for (uint32_t i = 0; i < kinds.size(); ++i) {
    switch (kinds[i]) {
      case EventKind::kEnter:
        open.push_back(Open{i});
        break;
      case EventKind::kLeave: {
        if (open.empty()) break;
        const Open o = open.back();
        open.pop_back();
        const uint64_t inclusive = ev.time(i) - ev.time(o.enter);
        const uint32_t callpath = ev.ref(o.enter);
        const GenericType type = callpath < types.size() ? types[callpath] : GenericType::kLocal;
        if (callpath < types.size()) {
          if (slot[callpath] == trace::kNone) {
            slot[callpath] = static_cast<uint32_t>(share.callpaths.size());
            share.callpaths.push_back(callpath);
            share.stats.emplace_back();
          }
          InstanceStats& s = share.stats[slot[callpath]];
          s.Add(InstanceMeasure(type, inclusive, o.children, o.overhead));
          s.bytes += o.bytes;
        }
        if (!open.empty()) {
          open.back().children += inclusive;
          open.back().overhead += OverheadOf(type, inclusive, o.overhead);
        }
        break;
      }
      default:
        if (!open.empty()) open.back().bytes += RecordBytes(ev, i);
        break;
    }
  }
  return share;
}

}  // namespace

std::vector<InstanceStats> CollectInstanceStats(const trace::Trace& trace,
                                                std::span<const GenericType> region_types,
                                                unsigned threads) {
  const uint32_t n = trace.location_count();
  const std::vector<GenericType> types = ClassifyCallpaths(trace, region_types);
  std::vector<LocationShare> per_location(n);
  ParallelFor(n, threads, [&](size_t loc) {
    per_location[loc] = LocationStats(trace, types, static_cast<uint32_t>(loc));
  });
  std::vector<InstanceStats> out(trace.call_tree.size());
  for (const LocationShare& share : per_location) {
    for (size_t k = 0; k < share.callpaths.size(); ++k) {
      const InstanceStats& s = share.stats[k];
      InstanceStats location = s;  // one location's: its deviation within the process
      if (s.count >= 2 && s.total > 0) {
        location.within_high = static_cast<double>(s.max) / s.Mean();
        location.within_low = static_cast<double>(s.min) / s.Mean();
      }
      out[share.callpaths[k]].Merge(location);
    }
  }
  return out;
}

uint64_t TotalLocationTime(const trace::Trace& trace) {
  uint64_t total = 0;
  for (const trace::LocationEvents& ev : trace.locations) {
    if (!ev.empty()) total += ev.last_time() - ev.first_time();
  }
  return total;
}

}  // namespace cw::analysis
