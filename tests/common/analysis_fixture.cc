#include "tests/common/analysis_fixture.h"

#include "sim/trace_source.h"
#include "sim/whatif.h"

#include <gtest/gtest.h>

#include "analysis/metrics/metric_catalog.h"
#include "match/matcher.h"
#include "otf2/trace_reader.h"

namespace cw::test {

uint32_t Analysis::Callpath(const std::string& name) const {
  for (uint32_t cp = 0; cp < trace.call_tree.size(); ++cp) {
    if (trace.CallpathName(cp) == name) return cp;
  }
  ADD_FAILURE() << "no call path " << name;
  return trace::kNone;
}

double Analysis::Value(const std::string& metric, const std::string& callpath,
                       uint32_t location) const {
  std::optional<analysis::MetricId> id = analysis::FindMetric(metric);
  if (!id) {
    ADD_FAILURE() << "no metric " << metric;
    return 0;
  }
  uint32_t cp = Callpath(callpath);
  for (const report::Value& v : report.values) {
    if (v.metric == *id && v.callpath == cp && v.location == location) return v.value;
  }
  return 0;
}

double Analysis::LocationTotal(const std::string& metric, uint32_t location) const {
  std::optional<analysis::MetricId> id = analysis::FindMetric(metric);
  if (!id) {
    ADD_FAILURE() << "no metric " << metric;
    return 0;
  }
  return report.PerLocation(*id).at(location);
}

double Analysis::Total(const std::string& metric) const {
  std::optional<analysis::MetricId> id = analysis::FindMetric(metric);
  if (!id) {
    ADD_FAILURE() << "no metric " << metric;
    return 0;
  }
  return report.Total(*id);
}

std::map<std::tuple<std::string, uint32_t, std::string>, double> Analysis::ValuesByName() const {
  std::map<std::tuple<std::string, uint32_t, std::string>, double> values;
  for (const report::Value& v : report.values) {
    values[{std::string(analysis::Metric(v.metric).name), v.location,
            report.CallpathName(v.callpath)}] = v.value;
  }
  return values;
}

Analysis AnalyzeFile(const std::string& anchor, unsigned threads, bool time_correct,
                     analysis::Semantics semantics) {
  Analysis a;
  otf2::ReadOptions options;
  options.threads = threads;
  Result<trace::Trace> trace = otf2::ReadTrace(anchor, options);
  if (!trace) {
    ADD_FAILURE() << "reading " << anchor << ": " << trace.error().message();
    return a;
  }
  a.trace = std::move(*trace);
  a.graph = match::MatchTrace(a.trace, threads);
  if (time_correct) {
    a.correction = clock::CorrectTimestamps(a.trace, a.graph, clock::ClockOptions{});
    a.graph = match::MatchTrace(a.trace, threads);
  }
  analysis::AnalysisOptions options_all;
  options_all.threads = threads;
  options_all.instances_per_metric = 20;
  options_all.semantics = semantics;
  a.result = analysis::AnalyzeTrace(a.trace, a.graph, options_all);
  // As `causeway analyze` does: POP's T_ideal from the ideal-network replay.
  Result<sim::ReplayResult> ideal = sim::ReplayOnIdealNetwork(sim::TraceInput(a.trace));
  EXPECT_TRUE(ideal.has_value());
  if (ideal) {
    analysis::AddIdealNetworkRuntime(
        a.result.pop, static_cast<double>(sim::PredictedSpan(*ideal, a.result.pop.locations)));
  }
  a.report =
      report::BuildReport(a.trace, a.graph, a.result, a.correction ? &*a.correction : nullptr);
  return a;
}

testing::Scenario HostileNamesLateSender() {
  testing::Scenario s(2);
  s.rank(0).Enter(0, "main").Call(0, 10, kMarkupRegion).Send(10, 11, 1, 0, 8).Leave(20, "main");
  s.rank(1)
      .Enter(0, "main")
      .Enter(1, kHostileRegion)
      .Recv(4, 12, 0, 0, 8)
      .Leave(13, kHostileRegion)
      .Leave(20, "main");
  return s;
}

testing::Scenario TwoPutsAndAGet() {
  testing::Scenario s(2);
  const uint32_t win = s.AddWindow(0);
  s.rank(0)
      .Enter(0, "main")
      .RmaTransfer(0, 1, "MPI_Put", win, 1, 8, 1)
      .RmaTransfer(1, 2, "MPI_Put", win, 1, 8, 2)
      .RmaTransfer(2, 3, "MPI_Get", win, 1, 16, 3)
      .Leave(4, "main");
  s.rank(1).Enter(0, "main").Leave(4, "main");
  return s;
}

testing::Scenario CompetingPuts(uint64_t rank1_end) {
  testing::Scenario s(3);
  const uint32_t win = s.AddWindow(0);
  s.rank(0).Enter(0, "main").Leave(10, "main");
  s.rank(1).Enter(0, "main").RmaTransfer(1, 6, "MPI_Put", win, 0, 4, 1).Leave(rank1_end, "main");
  s.rank(2)
      .Enter(0, "main")
      .RmaTransfer(2, 3, "MPI_Put", win, 0, 4, 1)
      .RmaTransfer(4, 5, "MPI_Put", win, 0, 4, 2)
      .Leave(10, "main");
  return s;
}

testing::Scenario LateSecondSend() {
  testing::Scenario s(2);
  s.rank(0)
      .Enter(0, "main")
      .Call(0, 1, "a")
      .Send(1, 2, 1, 0, 8)
      .Call(2, 10, "b")
      .Send(10, 11, 1, 0, 8)
      .Call(11, 12, "c")
      .Send(12, 13, 1, 0, 8)
      .Leave(40, "main");
  s.rank(1)
      .Enter(0, "main")
      .Recv(0, 2, 0, 0, 8)
      .Recv(3, 11, 0, 0, 8)
      .Recv(12, 13, 0, 0, 8)
      .Leave(40, "main");
  return s;
}

// Two ranks that take turns being late (one tick is one second):
//   rank 0: a 0..6, MPI_Send 6..7 to 1, a 7..9, MPI_Recv 9..14 from 1, main ends at 15
//   rank 1: a 0..2, MPI_Recv 2..7 from 0, a 7..13, MPI_Send 13..14 to 0, main ends at 15
// Each computes 8 s in a: no call path is imbalanced over the run, yet each receive waits 4 s
// (2..6 and 9..13) for the other's late send.
testing::Scenario TakingTurns() {
  testing::Scenario s(2);
  s.rank(0)
      .Enter(0, "main")
      .Call(0, 6, "a")
      .Send(6, 7, 1, 0, 8)
      .Call(7, 9, "a")
      .Recv(9, 14, 1, 0, 8)
      .Leave(15, "main");
  s.rank(1)
      .Enter(0, "main")
      .Call(0, 2, "a")
      .Recv(2, 7, 0, 0, 8)
      .Call(7, 13, "a")
      .Send(13, 14, 0, 0, 8)
      .Leave(15, "main");
  return s;
}

Analysis AnalyzeScenarioWith(const testing::Scenario& scenario,
                             const analysis::AnalysisOptions& options) {
  return AnalyzeFileWith(scenario.WriteOrDie(testing::MakeTempDir("scenario")), options);
}

Analysis AnalyzeFileWith(const std::string& anchor, const analysis::AnalysisOptions& options) {
  Analysis a;
  otf2::ReadOptions read;
  read.threads = options.threads;
  Result<trace::Trace> trace = otf2::ReadTrace(anchor, read);
  if (!trace) {
    ADD_FAILURE() << "reading " << anchor << ": " << trace.error().message();
    return a;
  }
  a.trace = std::move(*trace);
  a.graph = match::MatchTrace(a.trace, options.threads);
  a.result = analysis::AnalyzeTrace(a.trace, a.graph, options);
  a.report = report::BuildReport(a.trace, a.graph, a.result);
  return a;
}

Analysis AnalyzeScenario(const testing::Scenario& scenario, unsigned threads,
                         analysis::Semantics semantics) {
  std::string dir = testing::MakeTempDir("scenario");
  return AnalyzeFile(scenario.WriteOrDie(dir), threads, false, semantics);
}

}  // namespace cw::test
