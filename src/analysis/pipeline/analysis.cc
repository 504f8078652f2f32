#include "analysis/pipeline/analysis.h"

#include <chrono>

#include "analysis/advice/delay_root_causes.h"

namespace cw::analysis {
namespace {

class PhaseClock {
 public:
  explicit PhaseClock(AnalysisResult& r) : r_(r), last_(std::chrono::steady_clock::now()) {}
  void Lap(const char* phase) {
    auto now = std::chrono::steady_clock::now();
    r_.phase_seconds.emplace_back(phase, std::chrono::duration<double>(now - last_).count());
    last_ = now;
  }

 private:
  AnalysisResult& r_;
  std::chrono::steady_clock::time_point last_;
};

void RunAdvice(const trace::Trace& trace, const match::SyncGraph& graph,
               const AnalysisOptions& options, std::span<const WaitEdge> edges, AnalysisResult& r) {
  AdviceInput in;
  in.trace = &trace;
  in.graph = &graph;
  in.edges = edges;
  in.region_types = r.region_types;
  in.severities = r.waitstates.severities;
  in.baselines = options.baselines;
  in.baselines_path = options.baselines_path;
  in.threads = options.threads;
  r.advice = AnalyzeAdvice(in, options.advice_parameters);
}

}  // namespace

WaitStateOptions WaitStateOptionsFor(const AnalysisOptions& options) {
  WaitStateOptions ws;
  ws.threads = options.threads;
  ws.instances_per_metric = options.instances_per_metric;
  ws.sync_edges = options.root_causes || options.advice;
  ws.probes_wait = options.semantics == Semantics::kCauseway;
  ws.interval_completions = options.semantics == Semantics::kScalasca;
  ws.one_sided_sync = options.semantics == Semantics::kCauseway;
  ws.sender_waits = options.semantics == Semantics::kCauseway;
  return ws;
}

AnalysisResult AnalyzeTrace(const trace::Trace& trace, const match::SyncGraph& graph,
                            const AnalysisOptions& options) {
  AnalysisResult r;
  r.semantics = options.semantics;
  PhaseClock clock(r);
  r.region_types = (options.constructs != nullptr ? *options.constructs : ConstructMap::Builtin())
                       .ClassifyRegions(trace.defs);
  r.waitstates = AnalyzeWaitStates(trace, graph, WaitStateOptionsFor(options));
  r.pop = ComputePopEfficiency(trace, r.waitstates);
  clock.Lap("wait states");
  if (!options.root_causes) {
    if (options.advice) {
      std::vector<WaitEdge> bottleneck_only =
          KeepFollowedEdges(r.waitstates.sync, options.semantics);
      RunAdvice(trace, graph, options, BottleneckEdges(r.waitstates.sync.edges, bottleneck_only),
                r);
      clock.Lap("advice");
    }
    return r;
  }

  std::vector<WaitEdge> bottleneck_only = KeepFollowedEdges(r.waitstates.sync, options.semantics);
  r.sync_points = BuildSyncPoints(trace, std::move(r.waitstates.sync), options.threads);
  clock.Lap("sync points");
  DelayOptions delay;
  delay.threads = options.threads;
  delay.semantics = options.semantics;
  r.delay = AnalyzeDelay(trace, *r.sync_points, r.waitstates.severities, delay);
  clock.Lap("delay");
  CriticalPathOptions critical;
  critical.threads = options.threads;
  critical.semantics = options.semantics;
  r.critical_path = AnalyzeCriticalPath(trace, *r.sync_points, r.waitstates.severities, critical);
  clock.Lap("critical path");
  if (options.advice) {
    RunAdvice(trace, graph, options, BottleneckEdges(r.sync_points->edges, bottleneck_only), r);
    AddDelayRootCauses(r.waitstates.severities, *r.advice);
    clock.Lap("advice");
  }
  return r;
}

}  // namespace cw::analysis
