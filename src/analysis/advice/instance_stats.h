// Per call path, the statistics of its instances over every location, and within each: what
// bottleneck detection (detection.h) filters. An instance is one visit of the call path (Enter to
// Leave); a local operation (a user function, computation) is measured by its exclusive time, so
// that a function is not a bottleneck for the calls it makes, every other construct by its
// inclusive time.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "analysis/generic/generic_types.h"
#include "analysis/metrics/severity.h"
#include "trace/trace.h"

namespace cw::analysis {

struct InstanceStats {
  uint64_t count = 0;
  uint64_t total = 0;  // ticks
  uint64_t min = UINT64_MAX;
  uint64_t max = 0;
  uint64_t bytes = 0;  // sent and received by the records directly inside its instances
  // Over the locations with two instances or more, the largest max/mean and the smallest
  // min/mean of one location's instances: how a local operation deviates within a process
  // (across processes its instances differ by load imbalance, which the global analyses see).
  double within_high = 0;
  double within_low = 1;
  uint64_t waiting = 0;  // ticks of its wait states (WaitingMetrics), every location

  void Add(uint64_t duration) {
    ++count;
    total += duration;
    min = duration < min ? duration : min;
    max = duration > max ? duration : max;
  }
  // Adds another share's instances (another location's, another analysis rank's).
  void Merge(const InstanceStats& o);
  double Mean() const {
    return count == 0 ? 0 : static_cast<double>(total) / static_cast<double>(count);
  }
};

// The measure of an instance lasting `inclusive` ticks, `children` of them in nested regions and
// `overhead` in the measurement system's regions nested in it (trace buffer flushes: the tracer's
// time, not the operation's).
inline uint64_t InstanceMeasure(GenericType type, uint64_t inclusive, uint64_t children,
                                uint64_t overhead) {
  return type == GenericType::kLocal ? inclusive - children : inclusive - overhead;
}

// What a closed region adds to its parent's measurement overhead: all of it if it is the
// measurement system's, else the overhead nested in it.
inline uint64_t OverheadOf(GenericType type, uint64_t inclusive, uint64_t nested) {
  return type == GenericType::kMeasurement ? inclusive : nested;
}

// One location's statistics of a call path with its deviation within the location set
// (`within_high`, `within_low`), to be merged with the other locations'. The instances are
// collected by the walk over each location's events (location_walk.h).
InstanceStats WithinLocation(InstanceStats s);

// Adds the wait states of the locations `severities` holds (WaitingMetrics, by call path) to
// `stats`' `waiting`.
void AddWaiting(std::span<const LocationSeverities> severities, std::vector<InstanceStats>& stats);

// Every location's span (first to last event), summed: the time hotspots are a share of.
uint64_t TotalLocationTime(const trace::Trace& trace);

}  // namespace cw::analysis
