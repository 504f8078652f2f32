// The properties delay and critical-path analysis must satisfy on any trace, checked by the
// scenario tests and on every real trace:
//   - per wait-state pattern, the delay costs (short- plus long-term) equal the waiting time the
//     analyses followed, and overall;
//   - per location, call path and pattern group, direct + indirect = waiting time and
//     propagating + terminal = waiting time;
//   - the critical path is as long as the analysis window (unless timestamps violate the clock
//     condition, which can open gaps between its segments);
//   - the performance impacts sum to processes x window.
#pragma once

#include <cstdint>
#include <vector>

#include "tests/common/analysis_fixture.h"

namespace cw::test {

struct InvariantOptions {
  // Timestamps that violate the clock condition clamp waits, so the path can have gaps; then
  // only "no longer than the window" is checked.
  bool clock_condition_holds = true;
};

void ExpectRootCauseInvariants(const Analysis& a, const InvariantOptions& options = {});

// The locations the critical path passes through, from its start, each once per stay.
std::vector<uint32_t> PathLocations(const Analysis& a);

// Runs the analysis with 1, 2 and 4 threads and expects bit-identical reports.
void ExpectThreadIndependent(const std::string& anchor);

}  // namespace cw::test
