#include "driver/trace_analysis.h"

#include <future>
#include <optional>
#include <utility>

#include "driver/predicted_saving.h"
#include "match/matcher.h"
#include "report/advice_section.h"
#include "sim/trace_source.h"
#include "sim/whatif.h"

namespace cw::driver {
namespace {

// Forwards to the observer, if there is one.
class Steps {
 public:
  explicit Steps(StepObserver* observer) : observer_(observer) {}
  void Begin(const char* description) {
    if (observer_ != nullptr) observer_->Begin(description);
  }
  void End(const char* name) {
    if (observer_ != nullptr) observer_->End(name);
  }

 private:
  StepObserver* observer_;
};

}  // namespace

Result<AnalysedTrace> AnalyseTrace(const std::string& path, const TraceAnalysisOptions& options,
                                   StepObserver* observer) {
  Steps steps(observer);
  const unsigned threads = options.read.threads;
  AnalysedTrace out;
  CW_ASSIGN_OR_RETURN(out.trace, otf2::ReadTrace(path, options.read));
  steps.End("read");

  steps.Begin("matching messages and collectives");
  out.graph = match::MatchTrace(out.trace, threads);
  steps.End("match");
  if (options.time_correct) {
    steps.Begin("correcting timestamps (controlled logical clock)");
    out.correction = clock::CorrectTimestamps(out.trace, out.graph, {});
    out.graph = match::MatchTrace(out.trace, threads);  // messages carry the corrected times
    steps.End("time correction");
  }

  // The ideal-network replay (one thread) runs beside the analysis: it reads only the trace.
  const trace::Trace& trace = out.trace;
  std::future<Result<sim::ReplayResult>> ideal = std::async(
      std::launch::async, [&trace] { return sim::ReplayOnIdealNetwork(sim::TraceInput(trace)); });
  steps.Begin("analysing wait states, root causes and the critical path");
  analysis::AnalysisOptions analysis_options = options.analysis;
  analysis_options.threads = threads;
  out.analysis = analysis::AnalyzeTrace(out.trace, out.graph, analysis_options);
  steps.End("analysis");
  // POP's serialisation and transfer efficiency need the runtime on an ideal network; if the
  // replay fails they stay unavailable (and say so).
  Result<sim::ReplayResult> ideal_replay = ideal.get();
  if (ideal_replay) {
    analysis::AddIdealNetworkRuntime(
        out.analysis.pop,
        static_cast<double>(sim::PredictedSpan(*ideal_replay, out.analysis.pop.locations)));
  }
  steps.End("ideal replay");

  // The savings replays (after a parallel start, one thread per fix, often a single fix) run
  // beside the building of the report and its views, which read everything but the advice: the
  // advice is taken out of the analysis meanwhile and its report section built afterwards.
  std::optional<analysis::Advice> advice = std::move(out.analysis.advice);
  out.analysis.advice.reset();
  std::future<Status> savings;
  if (advice) {
    steps.Begin("predicting what fixing the bottlenecks saves, building the report");
    savings = std::async(std::launch::async, [&out, &advice, &options, threads] {
      return PredictSavings(out.trace, *advice, options.predictions, threads, &out.graph);
    });
  } else {
    steps.Begin("building the report");
  }
  out.report = report::BuildReport(out.trace, out.graph, out.analysis,
                                   out.correction ? &*out.correction : nullptr);
  if (options.event_views) {
    out.views =
        report::EventViewsOf(out.report, out.trace, out.graph, report::AllLocations(out.trace));
  }
  steps.End("report");
  if (advice) {
    CW_RETURN_IF_ERROR(savings.get());
    out.analysis.advice = std::move(advice);
    out.report.advice = report::SummarizeAdvice(*out.analysis.advice, out.trace);
    steps.End("predicted savings");
  }
  return out;
}

}  // namespace cw::driver
