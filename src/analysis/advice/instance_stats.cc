#include "analysis/advice/instance_stats.h"

#include "analysis/metrics/waiting_metrics.h"

#include <algorithm>

#include "analysis/advice/records.h"
#include "base/flat_hash_map.h"
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

GenericType TypeOf(const trace::Trace& trace, std::span<const GenericType> region_types,
                   uint32_t callpath) {
  const uint32_t region = trace.CallpathRegion(callpath);
  return region < region_types.size() ? region_types[region] : GenericType::kLocal;
}

FlatHashMap<uint32_t, InstanceStats> LocationStats(const trace::Trace& trace,
                                                   std::span<const GenericType> region_types,
                                                   uint32_t location) {
  const trace::LocationEvents& ev = trace.location(location);
  FlatHashMap<uint32_t, InstanceStats> stats;
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
        InstanceStats* s = stats.Find(callpath);
        if (s == nullptr) {
          stats.Insert(callpath, InstanceStats{});
          s = stats.Find(callpath);
        }
        const GenericType type = TypeOf(trace, region_types, callpath);
        s->Add(InstanceMeasure(type, inclusive, o.children, o.overhead));
        s->bytes += o.bytes;
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
  return stats;
}

}  // namespace

std::vector<InstanceStats> CollectInstanceStats(const trace::Trace& trace,
                                                std::span<const GenericType> region_types,
                                                unsigned threads) {
  const uint32_t n = trace.location_count();
  std::vector<FlatHashMap<uint32_t, InstanceStats>> per_location(n);
  ParallelFor(n, threads, [&](size_t loc) {
    per_location[loc] = LocationStats(trace, region_types, static_cast<uint32_t>(loc));
  });
  std::vector<InstanceStats> out(trace.call_tree.size());
  for (const auto& stats : per_location) {
    stats.ForEach([&](uint32_t callpath, const InstanceStats& s) {
      if (callpath >= out.size()) return;
      InstanceStats& all = out[callpath];
      InstanceStats location = s;  // one location's: its deviation within the process
      if (s.count >= 2 && s.total > 0) {
        location.within_high = static_cast<double>(s.max) / s.Mean();
        location.within_low = static_cast<double>(s.min) / s.Mean();
      }
      all.Merge(location);
    });
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
