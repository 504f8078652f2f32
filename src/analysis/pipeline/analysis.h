// Every analysis of a matched trace, in order: wait states and the POP efficiencies, then (unless
// switched off) the synchronisation points, delay analysis and critical-path analysis built on
// them, then (if asked for) the automatic bottleneck analysis.
//
// This is what `causeway analyze` and the tests run; each analysis adds its metrics to the same
// per-location severities, so a report reads one cube.
//
//   match::SyncGraph graph = match::MatchTrace(trace, threads);
//   AnalysisResult r = AnalyzeTrace(trace, graph, {.threads = threads});
//   r.waitstates.severities[loc].Get(MetricId::kDelayLateSender, callpath);
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "analysis/advice/advice.h"
#include "analysis/critpath/critical_path.h"
#include "analysis/delay/delay_analysis.h"
#include "analysis/generic/construct_map.h"
#include "analysis/metrics/semantics.h"
#include "analysis/pop/pop_efficiency.h"
#include "analysis/syncpoints/sync_points.h"
#include "analysis/waitstates/waitstate_analysis.h"
#include "match/sync_graph.h"
#include "trace/trace.h"

namespace cw::analysis {

struct AnalysisOptions {
  unsigned threads = 1;
  size_t instances_per_metric = 10;
  bool root_causes = true;                     // delay and critical-path analysis
  Semantics semantics = Semantics::kCauseway;  // of the root-cause metrics (semantics.h)
  // Which generic operation type each construct is (nullptr: causeway's own table).
  const ConstructMap* constructs = nullptr;
  // The automatic bottleneck analysis (advice.h), with its thresholds and baselines.
  bool advice = false;
  AdviceParameters advice_parameters{};
  const Baselines* baselines = nullptr;
  std::optional<std::string> baselines_path{};
};

struct AnalysisResult {
  Semantics semantics = Semantics::kCauseway;  // the definitions the metrics follow
  WaitStateResult waitstates;                  // its severities hold every analysis's metrics
  PopEfficiency pop;
  std::optional<SyncPoints> sync_points;
  std::optional<DelayResult> delay;
  std::optional<CriticalPathResult> critical_path;
  std::vector<std::pair<std::string, double>> phase_seconds;  // wall-clock time per phase
  std::vector<GenericType> region_types;  // by region: its generic operation type
  std::optional<Advice> advice;
};

// The wait-state analysis's options for `options`: its threads and instances, whether it keeps
// the synchronisation edges (the root-cause and bottleneck analyses follow them), and the
// semantics' choices (probes wait and one-sided synchronisation is followed in causeway's;
// intervals start at completions in Scalasca's). One process and an analysis job use it alike.
WaitStateOptions WaitStateOptionsFor(const AnalysisOptions& options);

AnalysisResult AnalyzeTrace(const trace::Trace& trace, const match::SyncGraph& graph,
                            const AnalysisOptions& options);

}  // namespace cw::analysis
