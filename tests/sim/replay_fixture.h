// Replays of hand-built traces with every simulated timestamp kept (tests of sim/).
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "sim/replay.h"
#include "testing/scenario.h"
#include "trace/trace.h"

namespace cw::sim {

struct Replayed {
  trace::Trace trace;
  ReplayResult result;
  std::vector<std::vector<uint64_t>> times;  // per location, per event: simulated

  uint64_t End(uint32_t location) const { return result.locations[location].predicted_end; }
  // The simulated time of event `event` (an index into the location's events) at `location`.
  uint64_t Time(uint32_t location, uint32_t event) const { return times[location][event]; }
};

// Writes the scenario, reads it back and replays it under `p` in small turns (locations
// interleave as they would on a big trace).
Replayed Replay(const testing::Scenario& s, const Perturbation& p = {});

// Every event keeps its time when nothing changes.
void ExpectIdentity(const Replayed& r);

// A perturbation with one compute scale, e.g. "work=2@0".
Perturbation ComputeScaled(const std::string& spec);

}  // namespace cw::sim
