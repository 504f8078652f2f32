// What a perturbation does to a location's own clock, in ticks, for both replays that step it:
// the event replay's engine and the replay over synchronisation points (sim/sync_replay/). One
// definition, so that both round and scale every gap alike (their tests compare them tick for
// tick).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "sim/perturbation.h"

namespace cw::sim::internal {

// Whether compute-scale `rule` applies to location `location` of MPI rank `rank` (kNone if none).
bool Applies(const ComputeScale& rule, uint32_t location, uint32_t rank);

// A ComputeWindow of one location, in ticks relative to the trace's clock offset.
struct ComputeWindowTicks {
  int64_t begin = 0;
  int64_t end = 0;
  double factor = 1;
};

// `scaled`, the computation from `from` to `to` (relative ticks) after the compute rules, with
// the part of it inside `windows` (sorted by begin, disjoint) scaled by their factors; `next` is
// the first window that can still overlap a later gap, advanced as gaps pass.
int64_t WindowScaled(const std::vector<ComputeWindowTicks>& windows, size_t& next, int64_t from,
                     int64_t to, int64_t scaled);

// Perturbation::calls by call path (empty: no change anywhere), with the cost caps in ticks.
struct CallChangeTicks {
  bool remove = false;
  int64_t max_cost = INT64_MAX;
};
std::vector<CallChangeTicks> CallChangesByCallpath(const Perturbation& p, double ticks_per_second);

}  // namespace cw::sim::internal
