// Wait for Progress of OpenSHMEM (private): a shmem_quiet that completes non-blocking transfers
// waited for a target PE that was busy outside OpenSHMEM when the quiet began, if the quiet
// returned soon after that PE entered the library (where it can progress the transfers of
// implementations that need the target's participation). A heuristic, as the trace has no
// record of when a transfer reached its target: docs/metrics.md gives the definition.
// Not followed by the root-cause analyses.
#pragma once

#include <vector>

#include "analysis/waitstates/internal/context.h"

namespace cw::analysis::internal {

struct ProgressWait {
  uint32_t callpath = trace::kNone;
  uint64_t entered = 0;             // Enter of the quiet
  int64_t value = 0;                // ticks, > 0
  uint32_t partner = trace::kNone;  // the target waited for
};

// The waits of every location, indexed by location (empty when the trace has no OpenSHMEM
// window); distributed, of the rank's own locations.
std::vector<std::vector<ProgressWait>> EvaluateShmemProgress(const Context& ctx, unsigned threads);

void ApplyProgressWaits(const std::vector<ProgressWait>& waits, uint32_t location,
                        LocationOutput& out);

}  // namespace cw::analysis::internal
