// Runs the whole pipeline (OTF2 file -> trace -> matching -> wait states -> report) for tests.
//
//   testing::Scenario s(2); ...
//   Analysis a = AnalyzeScenario(s);
//   EXPECT_EQ(a.Value("mpi_latesender", "main/MPI_Recv", 1), 4.0);
#pragma once

#include <map>
#include <optional>
#include <string>
#include <tuple>

#include "analysis/pipeline/analysis.h"
#include "clock/controlled_logical_clock.h"
#include "match/sync_graph.h"
#include "report/report.h"
#include "testing/scenario.h"
#include "trace/trace.h"

namespace cw::test {

struct Analysis {
  trace::Trace trace;
  match::SyncGraph graph;
  analysis::AnalysisResult result;  // result.waitstates holds every metric's severities
  report::Report report;
  std::optional<clock::ClockCorrection> correction;  // with time correction

  // The report value of `metric` at the call path named `callpath` ("main/MPI_Recv") on
  // `location`; 0 if absent. Fails the test if the metric or call path is unknown.
  double Value(const std::string& metric, const std::string& callpath, uint32_t location) const;
  // Sum of `metric` over all call paths of `location`.
  double LocationTotal(const std::string& metric, uint32_t location) const;
  // Sum of `metric` over everything.
  double Total(const std::string& metric) const;
  uint32_t Callpath(const std::string& name) const;  // fails the test if absent
  // Every non-zero report value by (metric name, location, call path name): comparable between
  // two traces whose call-path ids differ.
  std::map<std::tuple<std::string, uint32_t, std::string>, double> ValuesByName() const;
};

// Reads `anchor` (with `threads` workers), corrects its timestamps if asked (as
// `--time-correct`) and analyses it with the root-cause metrics' `semantics`. Fails the test on a
// read error.
Analysis AnalyzeFile(const std::string& anchor, unsigned threads = 2, bool time_correct = false,
                     analysis::Semantics semantics = analysis::Semantics::kCauseway);
// A Late Sender whose regions have hostile names, for the writers of untrusted text: rank 0
// computes 0..10 in kMarkupRegion and sends 10..11; rank 1 receives 4..12 (Late Sender 6 s)
// inside kHostileRegion, whose name would close a script element and holds quotes, a
// backslash and a byte that is not UTF-8.
inline constexpr char kMarkupRegion[] = "<script>alert(1)</script>";
inline constexpr char kHostileRegion[] = "</script><script>alert(2)</script><!-- \"q\" \\ \xff";
testing::Scenario HostileNamesLateSender();
// The bottleneck analysis's Late Sender (tests/advice/advice_test.cc derives its findings): rank
// 0 runs a (0..1), sends, b (2..10), sends, c (11..12), sends; rank 1 receives in 0..2, 3..11
// and 12..13, so its second receive waits 7 s for the send after b. main ends at 40 on both.
testing::Scenario LateSecondSend();
// Two ranks that take turns being late, each computing 8 s in a (no call path imbalanced over
// the run): rank 0's receive waits 4 s for rank 1's late send and rank 1's for rank 0's
// (tests/advice/predicted_saving_test.cc derives the delay root causes and the saving).
testing::Scenario TakingTurns();
// One-sided transfers only: rank 0 puts 8 bytes into rank 1's window twice (0..1, 1..2) and gets
// 16 bytes once (2..3); main ends at 4 on both.
testing::Scenario TwoPutsAndAGet();
// Ranks 1 and 2 put 4 bytes each into rank 0's window: rank 1's MPI_Put lasts 1..6, rank 2's
// 2..3 and 4..5, so rank 2's transfers compete with rank 1's for the target. main ends at 10 on
// ranks 0 and 2 and at `rank1_end` on rank 1.
testing::Scenario CompetingPuts(uint64_t rank1_end);

// Reads `anchor` and analyses it with `options` (no ideal-network replay: the report has no POP
// serialisation or transfer efficiency).
Analysis AnalyzeFileWith(const std::string& anchor, const analysis::AnalysisOptions& options);
// The same for a scenario, written to a fresh temporary directory.
Analysis AnalyzeScenarioWith(const testing::Scenario& scenario,
                             const analysis::AnalysisOptions& options);

// Writes the scenario to a fresh temporary directory and analyses it.
Analysis AnalyzeScenario(const testing::Scenario& scenario, unsigned threads = 2,
                         analysis::Semantics semantics = analysis::Semantics::kCauseway);

}  // namespace cw::test
