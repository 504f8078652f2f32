// The runtime fixing a bottleneck would save, predicted by the what-if replay (sim/): what PPW's
// advice does not have. For each of the first findings whose fix the replay can model, it
// replays the trace with the bottleneck removed and compares the predicted runtime with the
// unchanged replay's:
//   - imbalanced_callpath: the call path's region computes on its slowest process only as long
//     as its mean over the processes (a compute scale of mean / max on that rank).
// Other patterns keep `predicted_saving` empty (docs/metrics.md says which fixes are modelled).
// The findings are then ranked by predicted saving, those without one after them by excess.
#pragma once

#include <cstddef>

#include "analysis/advice/advice_types.h"
#include "base/status.h"
#include "trace/trace.h"

namespace cw::advice_savings {

// Runs at most `max_predictions` replays besides the unchanged one.
Status PredictSavings(const trace::Trace& trace, analysis::Advice& advice, size_t max_predictions);

}  // namespace cw::advice_savings
