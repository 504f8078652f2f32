#include "analysis/pipeline/analysis.h"

namespace cw::analysis {

AnalysisResult AnalyzeTrace(const trace::Trace& trace, const match::SyncGraph& graph,
                            const AnalysisOptions& options) {
  AnalysisResult r;
  WaitStateOptions ws;
  ws.threads = options.threads;
  ws.instances_per_metric = options.instances_per_metric;
  r.waitstates = AnalyzeWaitStates(trace, graph, ws);
  if (!options.root_causes) return r;

  r.sync_points = BuildSyncPoints(trace, r.waitstates.sync, options.threads);
  DelayOptions delay;
  delay.threads = options.threads;
  r.delay = AnalyzeDelay(trace, *r.sync_points, r.waitstates.severities, delay);
  CriticalPathOptions critical;
  critical.threads = options.threads;
  r.critical_path = AnalyzeCriticalPath(trace, *r.sync_points, r.waitstates.severities, critical);
  return r;
}

}  // namespace cw::analysis
