// The whole analysis of a trace in one process, from one options struct: what `causeway
// analyze` runs without mpirun, and `compare` for each trace it is given. An MPI analysis job
// runs the same analyses on its ranks' shares (job_analysis.h).
//
// The steps: read the trace (otf2/), match its messages and collectives (match/), correct its
// timestamps if asked (clock/), analyse it (analysis/pipeline: wait states, root causes, the
// critical path, POP and, if asked, the bottleneck analysis) while the trace is replayed on an
// ideal network beside it for POP's serialisation and transfer efficiencies (sim/), predict
// what fixing the first findings saves (predicted_saving.h), and build the report model
// (report/) and its event views that the writers format. The savings replays, which run last
// and mostly on one thread, run beside the building of the report, which does not read them.
//
//   TraceAnalysisOptions options;
//   options.read.threads = 4;
//   CW_ASSIGN_OR_RETURN(AnalysedTrace a, AnalyseTrace("run/traces.otf2", options));
//   report::WriteJson(a.report, "out/report.json");
#pragma once

#include <cstddef>
#include <optional>
#include <string>

#include "analysis/pipeline/analysis.h"
#include "base/status.h"
#include "clock/controlled_logical_clock.h"
#include "match/sync_graph.h"
#include "otf2/trace_reader.h"
#include "report/event_views.h"
#include "report/report.h"
#include "trace/trace.h"

namespace cw::driver {

struct TraceAnalysisOptions {
  otf2::ReadOptions read;     // read.threads: the worker threads of reading and of every analysis
  bool time_correct = false;  // the controlled logical clock (`--time-correct`)
  analysis::AnalysisOptions analysis;  // its `threads` is taken from read.threads
  size_t predictions = 0;    // with analysis.advice: the findings whose savings are replayed
  bool event_views = false;  // compute the report's event views (AnalysedTrace::views)
};

struct AnalysedTrace {
  trace::Trace trace;
  match::SyncGraph graph;
  std::optional<clock::ClockCorrection> correction;  // with time_correct
  analysis::AnalysisResult analysis;
  report::Report report;
  report::EventViews views;  // with event_views
};

// Told when each step begins (a description for a progress line) and ends (its name, for
// `--timings`).
class StepObserver {
 public:
  virtual ~StepObserver() = default;
  virtual void Begin(const char* description) = 0;
  virtual void End(const char* name) = 0;
};

// Reads, analyses and reports the trace at `path`; `observer` may be nullptr.
Result<AnalysedTrace> AnalyseTrace(const std::string& path, const TraceAnalysisOptions& options,
                                   StepObserver* observer = nullptr);

}  // namespace cw::driver
