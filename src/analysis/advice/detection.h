// Bottleneck detection (PPW §5.2.2): which call paths took longer than they should.
//   1. Hotspot filter: the call path's instances take more than `hotspot_share` of all time.
//   2. Baseline filter, where the construct has a baseline (never for a local operation): the
//      mean instance exceeds baseline_ratio x the baseline; its bottleneck instances are those
//      beyond that bound.
//   3. Deviation filter otherwise: its instances (at least two) differ, max/mean above
//      deviation_high or min/mean below deviation_low (PPW's one-sided form, min/mean above a
//      threshold, can never fire); its bottleneck instances are those above the mean. A local
//      operation (a user function) is compared within each process: across processes its
//      instances differ by load imbalance, which the global analyses report.
//   4. Waiting otherwise: the call path's wait states (InstanceStats::waiting) take more than
//      `hotspot_share` of all time. Instances that all wait alike pass the deviation filter, and
//      a wait within the baseline ratio the baseline filter: the wait-state analysis has found
//      them anyway. Its bottleneck instances are those longer than an instance without its
//      waiting (`expected`).
// Set-up and tear-down (initialisation, termination) are never bottlenecks here: the global
// analyses see their imbalance.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "analysis/advice/advice_types.h"
#include "analysis/advice/baselines.h"
#include "analysis/advice/instance_stats.h"
#include "trace/trace.h"

namespace cw::analysis {

struct DetectedBottleneck {
  uint32_t callpath = trace::kNone;
  DetectionFilter filter = DetectionFilter::kDeviation;
  std::optional<double> expected;  // ticks per instance (baseline filter)
  double bound = 0;                // ticks: an instance longer than this is a bottleneck
};

struct DetectionInput {
  const trace::Trace* trace = nullptr;
  std::span<const InstanceStats> stats;       // by call path
  std::span<const GenericType> region_types;  // by region
  uint64_t total_time = 0;                    // TotalLocationTime
  const Baselines* baselines = nullptr;       // nullptr: deviation filtering only
  uint32_t processes = 1;                     // for the baseline lookup
};

// In call-path order. `candidates` (if given) is set to the call paths past the hotspot filter.
std::vector<DetectedBottleneck> DetectBottlenecks(const DetectionInput& in,
                                                  const AdviceParameters& p,
                                                  uint64_t* candidates = nullptr);

// By call path, 1 where its instances may pass the hotspot filter, decided from the locations'
// profiles before any instance is measured: their inclusive time (never less than what an
// instance measures) exceeds `hotspot_share` of `total_time`, and the call path is neither
// set-up, tear-down nor the measurement system's. Every call path DetectBottlenecks keeps is one,
// as long as the profile counts every instance (BottlenecksAmong checks). `trace` holds every
// location's events.
std::vector<uint8_t> HotspotCandidates(const trace::Trace& trace,
                                       std::span<const GenericType> region_types,
                                       uint64_t total_time, const AdviceParameters& p);

// Whether every bottleneck's call path is a candidate (HotspotCandidates).
bool BottlenecksAmong(std::span<const DetectedBottleneck> bottlenecks,
                      std::span<const uint8_t> candidates);

}  // namespace cw::analysis
