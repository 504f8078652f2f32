// The one walk over each location's events that the instance statistics (instance_stats.h) and
// the runs of transfers (frequency.h) share: both close a region's instance at its Leave, and
// reading every event of the trace once instead of twice is a good part of what the bottleneck
// analysis costs (docs/performance.md).
#pragma once

#include <span>
#include <vector>

#include "analysis/advice/frequency.h"
#include "analysis/advice/instance_stats.h"
#include "analysis/generic/generic_types.h"
#include "trace/trace.h"

namespace cw::analysis {

struct WalkedLocations {
  std::vector<InstanceStats> stats;        // by call path, over every location
  std::vector<FrequencyShare::Runs> runs;  // every location's, in location order
  // By location, the Enter events of the instances of the candidate call paths, in event order:
  // the cause analysis reads these instead of every event (CauseInput::instances).
  std::vector<std::vector<uint32_t>> candidate_instances;
};

// Walks the locations `trace` holds on up to `threads` threads. `region_types` by region
// (ConstructMap::ClassifyRegions); `candidates` by call path (HotspotCandidates; empty: no
// instances are collected).
WalkedLocations WalkLocations(const trace::Trace& trace, std::span<const GenericType> region_types,
                              std::span<const uint8_t> candidates, const AdviceParameters& p,
                              unsigned threads);

}  // namespace cw::analysis
