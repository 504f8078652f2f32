// The runtime fixing a bottleneck would save, predicted by the what-if replay (sim/): what PPW's
// advice does not have. For each of the first findings whose fix the replay can model, it
// replays the trace with the bottleneck removed and compares the predicted runtime with the
// unchanged replay's: an imbalanced call path balanced to its mean (and a wait's root causes
// so), a redundant barrier removed, a slow operation at its baseline, a run of small transfers
// merged, serialised transfers overlapped. Other patterns keep `predicted_saving` empty
// (docs/metrics.md, "Predicted saving"); each finding without a prediction says why not
// (`no_prediction`). A finding predicted to save nothing is no bottleneck: it leaves the list
// for `saving_nothing`. The findings are then ranked by predicted saving, those without one
// after them by excess.
#pragma once

#include <cstddef>
#include <string>

#include "analysis/advice/advice_types.h"
#include "base/status.h"
#include "match/sync_graph.h"
#include "trace/trace.h"

namespace cw::driver {

// Runs at most `max_predictions` replays besides the unchanged one, of `trace`'s events, up to
// `threads` of them at a time (each replay runs on one thread). With `graph`, the matching of
// `trace`, a replay steps over the synchronisation points instead of the events where it can
// (sim/sync_replay/sync_replay.h): the same predictions, in a fraction of the time.
Status PredictSavings(const trace::Trace& trace, analysis::Advice& advice, size_t max_predictions,
                      unsigned threads = 1, const match::SyncGraph* graph = nullptr);
// The same, streaming the events from the trace file at `path` (an MPI analysis job, whose
// first rank holds only its own locations' events; `trace` gives the definitions). Each replay
// holds read buffers for every location.
Status PredictSavings(const trace::Trace& trace, const std::string& path, analysis::Advice& advice,
                      size_t max_predictions, unsigned threads = 1);

}  // namespace cw::driver
