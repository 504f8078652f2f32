// What fixing a finding saves, predicted by the what-if replay (driver/predicted_saving.h), on a
// hand-built trace with the derivation beside it (one tick is one second).
#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include "analysis/advice/baselines.h"
#include "driver/predicted_saving.h"
#include "sim/sync_replay/sync_replay.h"
#include "tests/common/analysis_fixture.h"

namespace cw::analysis {
namespace {

TEST(PredictedSavingTest, BalancingAnImbalancedCallPathIsReplayed) {
  AnalysisOptions options;
  options.threads = 2;
  options.advice = true;
  test::Analysis a = test::AnalyzeScenarioWith(test::LateSecondSend(), options);
  Advice& advice = *a.result.advice;
  // One finding: the Late Sender, with b (rank 0's imbalance) as its root cause.
  ASSERT_EQ(advice.findings.size(), 1u);
  ASSERT_TRUE(driver::PredictSavings(a.trace, advice, 5).has_value());
  // b at its mean over the two processes (4 s of 8) on rank 0: b ends at 6, the second send
  // runs 6..7, c 7..8, the third send 8..9 and main ends 27 s later, at 36. Rank 1's second
  // receive is ready at 6 and leaves at 7 (its 1 s after the send's Enter); the third, entered
  // 1 s later (8), leaves with its send at 9; main ends at 36. The run is 4 s shorter.
  const AdviceFinding& first = advice.findings[0];
  EXPECT_EQ(first.pattern, AdvicePattern::kLateSender);
  ASSERT_TRUE(first.predicted_saving.has_value());
  EXPECT_DOUBLE_EQ(*first.predicted_saving, 4.0);
  // No replay at all: nothing predicted.
  test::Analysis b = test::AnalyzeScenarioWith(test::LateSecondSend(), options);
  ASSERT_TRUE(driver::PredictSavings(b.trace, *b.result.advice, 0).has_value());
  EXPECT_FALSE(b.result.advice->findings[0].predicted_saving.has_value());
}

// The saving of the finding of `pattern` at `callpath` (fails the test if it has none).
double SavingOf(const test::Analysis& a, AdvicePattern pattern, const std::string& callpath) {
  for (const AdviceFinding& f : a.result.advice->findings) {
    if (f.pattern != pattern || a.trace.CallpathName(f.callpath) != callpath) continue;
    EXPECT_TRUE(f.predicted_saving.has_value()) << callpath;
    return f.predicted_saving.value_or(-1);
  }
  ADD_FAILURE() << "no " << AdvicePatternName(pattern) << " at " << callpath;
  return -1;
}

// ARedundantBarrierIsRemoved's trace (derivations there), with an MPI window defined if
// `window`:
//   rank 0: a 0..4, MPI_Barrier 4..5, b 5..6, main ends at 6
//   rank 1: c 0..1, MPI_Barrier 1..5, d 5..9, main ends at 9
testing::Scenario BarrierBetweenImbalancedPhases(bool window = false) {
  testing::Scenario s(2);
  if (window) s.AddWindow(0);
  s.rank(0)
      .Enter(0, "main")
      .Call(0, 4, "a")
      .Collective(4, 5, "MPI_Barrier", OTF2_COLLECTIVE_OP_BARRIER, 0, 0)
      .Call(5, 6, "b")
      .Leave(6, "main");
  s.rank(1)
      .Enter(0, "main")
      .Call(0, 1, "c")
      .Collective(1, 5, "MPI_Barrier", OTF2_COLLECTIVE_OP_BARRIER, 0, 0)
      .Call(5, 9, "d")
      .Leave(9, "main");
  return s;
}

TEST(PredictedSavingTest, ARedundantBarrierIsRemoved) {
  // rank 0: a 0..4, MPI_Barrier 4..5, b 5..6, main ends at 6
  // rank 1: c 0..1, MPI_Barrier 1..5, d 5..9, main ends at 9
  // Nobody communicates: the barrier is redundant. Without it rank 0 runs a, b (0..5) and rank
  // 1 c, d (0..5): the run takes 5 s instead of 9, a saving of 4. Rank 1 waits in the barrier
  // for rank 0, whose a and b are imbalanced (4 and 1 s against means of 2 and 0.5): the wait's
  // root causes. Balancing them, rank 0 enters the barrier at 2, both leave at 3 (its 1 s after
  // the last arrival) and rank 1's d ends at 7: 2 s saved; balancing d (mean 2) on rank 1 the
  // same.
  const testing::Scenario s = BarrierBetweenImbalancedPhases();
  AnalysisOptions options;
  options.advice = true;
  test::Analysis a = test::AnalyzeScenarioWith(s, options);
  ASSERT_TRUE(driver::PredictSavings(a.trace, *a.result.advice, 5).has_value());
  EXPECT_DOUBLE_EQ(SavingOf(a, AdvicePattern::kRedundantBarrier, "main/MPI_Barrier"), 4.0);
  EXPECT_DOUBLE_EQ(SavingOf(a, AdvicePattern::kWaitOnGroup, "main/MPI_Barrier"), 2.0);
  EXPECT_DOUBLE_EQ(SavingOf(a, AdvicePattern::kImbalancedCallpath, "main/d"), 2.0);
  // Ranked by saving: the barrier, then d and the wait (equal savings keep the order by excess:
  // d's 2 s beyond its mean before the wait's 4 - 2.5 = 1.5 s). Balancing c saves nothing (rank 1
  // still waits for rank 0): no bottleneck, it leaves the list for `saving_nothing`.
  const std::vector<AdviceFinding>& f = a.result.advice->findings;
  ASSERT_EQ(f.size(), 3u);
  EXPECT_EQ(f[0].pattern, AdvicePattern::kRedundantBarrier);
  EXPECT_EQ(a.trace.CallpathName(f[1].callpath), "main/d");
  EXPECT_EQ(f[2].pattern, AdvicePattern::kWaitOnGroup);
  EXPECT_EQ(a.result.advice->saving_nothing, std::vector<uint32_t>{a.Callpath("main/c")});
  for (const AdviceFinding& finding : f) EXPECT_EQ(finding.no_prediction, "");
}

TEST(PredictedSavingTest, APossiblyRedundantBarrierIsNotRemoved) {
  // ARedundantBarrierIsRemoved's trace, with an MPI window defined: a local store into it before
  // the barrier, read by the other rank after it, would be invisible. The barrier stays in every
  // replay, and its finding says why it has no prediction.
  const testing::Scenario s = BarrierBetweenImbalancedPhases(/*window=*/true);
  AnalysisOptions options;
  options.advice = true;
  test::Analysis a = test::AnalyzeScenarioWith(s, options);
  ASSERT_TRUE(driver::PredictSavings(a.trace, *a.result.advice, 5).has_value());
  bool found = false;
  for (const AdviceFinding& f : a.result.advice->findings) {
    EXPECT_NE(f.pattern, AdvicePattern::kRedundantBarrier);
    if (f.pattern != AdvicePattern::kPossiblyRedundantBarrier) continue;
    found = true;
    EXPECT_FALSE(f.predicted_saving.has_value());
    EXPECT_EQ(f.no_prediction.rfind("it may be needed", 0), 0u) << f.no_prediction;
  }
  EXPECT_TRUE(found);
  // The wait and d keep their predictions (2 s each, as without the window).
  EXPECT_DOUBLE_EQ(SavingOf(a, AdvicePattern::kWaitOnGroup, "main/MPI_Barrier"), 2.0);
  EXPECT_DOUBLE_EQ(SavingOf(a, AdvicePattern::kImbalancedCallpath, "main/d"), 2.0);
}

TEST(PredictedSavingTest, AFindingWithoutPredictionSaysWhy) {
  // The same trace with one prediction: the first finding the replay can model (the barrier)
  // gets it; the others say they were beyond it. With none asked for, every finding says so.
  const testing::Scenario s = BarrierBetweenImbalancedPhases();
  AnalysisOptions options;
  options.advice = true;
  test::Analysis one = test::AnalyzeScenarioWith(s, options);
  ASSERT_TRUE(driver::PredictSavings(one.trace, *one.result.advice, 1).has_value());
  size_t predicted = 0;
  for (const AdviceFinding& f : one.result.advice->findings) {
    if (f.predicted_saving) {
      ++predicted;
      EXPECT_EQ(f.no_prediction, "");
    } else {
      EXPECT_EQ(f.no_prediction, "beyond the first 1 predictions (--predictions)");
    }
  }
  EXPECT_EQ(predicted, 1u);
  test::Analysis none = test::AnalyzeScenarioWith(s, options);
  ASSERT_TRUE(driver::PredictSavings(none.trace, *none.result.advice, 0).has_value());
  ASSERT_FALSE(none.result.advice->findings.empty());
  for (const AdviceFinding& f : none.result.advice->findings) {
    EXPECT_FALSE(f.predicted_saving.has_value());
    EXPECT_EQ(f.no_prediction, "no predictions were asked for (--predictions 0)");
  }
}

TEST(PredictedSavingTest, AnOperationAtItsBaselineTime) {
  // advice_test.cc's two MPI_Allreduce calls of 5 s (0..5 and 10..15) that nobody waited in,
  // with a baseline of 1 s (5 / 1 > 2): at the baseline, the first ends at 1, the 5 s of
  // computation after it end at 6, the second ends at 7 and main 5 s later, at 12 instead of
  // 20. (The trace's clock has 1 tick per second: a baseline below 1 s would round to 0.)
  testing::Scenario s(2);
  for (int r = 0; r < 2; ++r) {
    s.rank(r)
        .Enter(0, "main")
        .Collective(0, 5, "MPI_Allreduce", OTF2_COLLECTIVE_OP_ALLREDUCE, 8, 8)
        .Collective(10, 15, "MPI_Allreduce", OTF2_COLLECTIVE_OP_ALLREDUCE, 8, 8)
        .Leave(20, "main");
  }
  Result<Baselines> baselines = Baselines::Parse("MPI_Allreduce 2 16 1\n", "test");
  ASSERT_TRUE(baselines.has_value());
  AnalysisOptions options;
  options.advice = true;
  options.baselines = &*baselines;
  test::Analysis a = test::AnalyzeScenarioWith(s, options);
  ASSERT_TRUE(driver::PredictSavings(a.trace, *a.result.advice, 5).has_value());
  EXPECT_DOUBLE_EQ(SavingOf(a, AdvicePattern::kNoRemoteCause, "main/MPI_Allreduce"), 8.0);
}

TEST(PredictedSavingTest, SmallTransfersMergedCostOneTransfer) {
  // Rank 0 puts 4 bytes into rank 1's window 8 times back to back, 8 s each (0..64), and main
  // ends at 68; rank 1's main lasts 0..4. One run of 8 small transfers to one target, 64 s of
  // the 72: merged, the run costs one transfer, 8 s, spread over its 8 calls (1 s each), so rank
  // 0 ends at 8 + 4 = 12 instead of 68: 56 s saved.
  testing::Scenario s(2);
  const uint32_t win = s.AddWindow(0);
  testing::RankScript& r0 = s.rank(0).Enter(0, "main");
  for (uint64_t k = 0; k < 8; ++k) r0.RmaTransfer(8 * k, 8 * k + 8, "MPI_Put", win, 1, 4, k + 1);
  r0.Leave(68, "main");
  s.rank(1).Enter(0, "main").Leave(4, "main");
  AnalysisOptions options;
  options.advice = true;
  test::Analysis a = test::AnalyzeScenarioWith(s, options);
  ASSERT_TRUE(driver::PredictSavings(a.trace, *a.result.advice, 5).has_value());
  EXPECT_DOUBLE_EQ(SavingOf(a, AdvicePattern::kSmallTransfers, "main/MPI_Put"), 56.0);
}

TEST(PredictedSavingTest, AWaitWithoutImbalanceTakesItsRootCausesFromTheDelayAnalysis) {
  AnalysisOptions options;
  options.advice = true;
  test::Analysis a = test::AnalyzeScenarioWith(test::TakingTurns(), options);
  ASSERT_TRUE(driver::PredictSavings(a.trace, *a.result.advice, 5).has_value());
  const std::vector<AdviceFinding>& findings = a.result.advice->findings;
  ASSERT_EQ(findings.size(), 1u);
  const AdviceFinding& f = findings[0];
  EXPECT_EQ(f.pattern, AdvicePattern::kLateSender);
  EXPECT_EQ(a.trace.CallpathName(f.callpath), "main/MPI_Recv");
  // The delay analysis charges each wait to the sender's excess in a since the pair's previous
  // synchronisation: rank 0's 6 s against rank 1's 2 s before the first message, rank 1's 6 s
  // against rank 0's 2 s after it. a on each rank: 8 s of computation, 4 s of delay costs.
  ASSERT_EQ(f.root_causes.size(), 2u);
  std::vector<uint32_t> locations;
  for (const RootCause& r : f.root_causes) {
    locations.push_back(r.location);
    EXPECT_EQ(r.source, RootCauseSource::kDelay);
    EXPECT_EQ(a.trace.CallpathName(r.callpath), "main/a");
    EXPECT_EQ(r.time, 8u);
    EXPECT_DOUBLE_EQ(r.delay, 4.0);
    EXPECT_DOUBLE_EQ(r.mean, 4.0);
  }
  std::sort(locations.begin(), locations.end());
  EXPECT_EQ(locations, (std::vector<uint32_t>{0, 1}));
  // The replay shortens a by its delay costs on both ranks, 8 s to 4 s each (every instance
  // halved). Each send costs its measured 1 s and each receive leaves 1 s after its send's Enter:
  //   rank 0: a 0..3, send 3..4, a 4..5, receive 5..8 (the send enters at 7), main ends at 9;
  //   rank 1: a 0..1, receive 1..4 (the send entered at 3), a 4..7, send 7..8, main ends at 9.
  // The run takes 9 s instead of 15: 6 s saved.
  ASSERT_TRUE(f.predicted_saving.has_value()) << f.no_prediction;
  EXPECT_DOUBLE_EQ(*f.predicted_saving, 6.0);
}

// Rank 0 is late twice, for two receives of rank 1 at different call paths:
//   rank 0: a 0..6, send 6..7, a 7..13, send 13..14, main ends at 15
//   rank 1: a 0..2, x/MPI_Recv 2..7, a 7..9, y/MPI_Recv 9..14, main ends at 15
// Each receive waits 4 s (6 - 2, 13 - 9): two Late Sender findings. Both have one root cause,
// a on rank 0: 12 s against a mean of 8 over the two ranks (rank 1 computes 4). Their fix is the
// same change, replayed once: a at 8 s on rank 0 (each instance 6 -> 4 s):
//   rank 0: a 0..4, send 4..5, a 5..9, send 9..10, main ends at 11;
//   rank 1: a 0..2, x/MPI_Recv 2..5 (1 s after the send's Enter), a 5..7, y/MPI_Recv 7..10,
//           main ends at 11.
// 4 s saved, once: the second finding names the first as the same fix.
TEST(PredictedSavingTest, WaitsWithTheSameRootCausesShareOneFix) {
  testing::Scenario s(2);
  s.rank(0)
      .Enter(0, "main")
      .Call(0, 6, "a")
      .Send(6, 7, 1, 0, 8)
      .Call(7, 13, "a")
      .Send(13, 14, 1, 0, 8)
      .Leave(15, "main");
  s.rank(1)
      .Enter(0, "main")
      .Call(0, 2, "a")
      .Enter(2, "x")
      .Recv(2, 7, 0, 0, 8)
      .Leave(7, "x")
      .Call(7, 9, "a")
      .Enter(9, "y")
      .Recv(9, 14, 0, 0, 8)
      .Leave(14, "y")
      .Leave(15, "main");
  AnalysisOptions options;
  options.advice = true;
  test::Analysis a = test::AnalyzeScenarioWith(s, options);
  ASSERT_TRUE(driver::PredictSavings(a.trace, *a.result.advice, 5).has_value());
  const std::vector<AdviceFinding>& findings = a.result.advice->findings;
  ASSERT_EQ(findings.size(), 2u);
  for (const AdviceFinding& f : findings) {
    EXPECT_EQ(f.pattern, AdvicePattern::kLateSender);
    ASSERT_EQ(f.root_causes.size(), 1u);
    EXPECT_EQ(a.trace.CallpathName(f.root_causes[0].callpath), "main/a");
    EXPECT_EQ(f.root_causes[0].location, 0u);
    ASSERT_TRUE(f.predicted_saving.has_value()) << f.no_prediction;
    EXPECT_DOUBLE_EQ(*f.predicted_saving, 4.0);
  }
  std::vector<std::string> paths = {a.trace.CallpathName(findings[0].callpath),
                                    a.trace.CallpathName(findings[1].callpath)};
  std::sort(paths.begin(), paths.end());
  EXPECT_EQ(paths, (std::vector<std::string>{"main/x/MPI_Recv", "main/y/MPI_Recv"}));
  EXPECT_FALSE(findings[0].same_fix_as.has_value());
  EXPECT_EQ(findings[1].same_fix_as, std::optional<uint32_t>(0));
}

TEST(PredictedSavingTest, AWaitWithoutDelayCostsHasNoRootCause) {
  // --wait-states-only: no delay analysis, so no root cause, and the finding says why it has no
  // prediction.
  AnalysisOptions options;
  options.advice = true;
  options.root_causes = false;
  test::Analysis a = test::AnalyzeScenarioWith(test::TakingTurns(), options);
  ASSERT_TRUE(driver::PredictSavings(a.trace, *a.result.advice, 5).has_value());
  ASSERT_EQ(a.result.advice->findings.size(), 1u);
  const AdviceFinding& f = a.result.advice->findings[0];
  EXPECT_TRUE(f.root_causes.empty());
  EXPECT_FALSE(f.predicted_saving.has_value());
  EXPECT_EQ(f.no_prediction.rfind("no computation to shorten was found behind the wait", 0), 0u)
      << f.no_prediction;
}

// Two barriers; each rank computes 8 s in a, but not in each block:
//   rank 0: a 0..6, MPI_Barrier 6..7, a 7..9, MPI_Barrier 9..14, main ends at 15
//   rank 1: a 0..2, MPI_Barrier 2..7, a 7..13, MPI_Barrier 13..14, main ends at 15
testing::Scenario ImbalancedBlocks() {
  testing::Scenario s(2);
  const uint64_t first[2] = {6, 2};
  const uint64_t second[2] = {9, 13};
  for (int r = 0; r < 2; ++r) {
    s.rank(r)
        .Enter(0, "main")
        .Call(0, first[r], "a")
        .Collective(first[r], 7, "MPI_Barrier", OTF2_COLLECTIVE_OP_BARRIER, 0, 0)
        .Call(7, second[r], "a")
        .Collective(second[r], 14, "MPI_Barrier", OTF2_COLLECTIVE_OP_BARRIER, 0, 0)
        .Leave(15, "main");
  }
  return s;
}

TEST(PredictedSavingTest, ImbalancedBlocksAreBalancedInTheReplay) {
  AnalysisOptions options;
  options.advice = true;
  test::Analysis a = test::AnalyzeScenarioWith(ImbalancedBlocks(), options);
  ASSERT_TRUE(driver::PredictSavings(a.trace, *a.result.advice, 5).has_value());
  const std::vector<AdviceFinding>& findings = a.result.advice->findings;
  // Nobody communicates between the barriers: they are redundant too. Without them rank 0
  // computes 0..8 and rank 1 0..8, main ends at 9 on both: 6 s saved, ranked first.
  ASSERT_EQ(findings.size(), 2u);
  EXPECT_EQ(findings[0].pattern, AdvicePattern::kRedundantBarrier);
  EXPECT_DOUBLE_EQ(findings[0].predicted_saving.value_or(-1), 6.0);
  const AdviceFinding& f = findings[1];
  EXPECT_EQ(f.pattern, AdvicePattern::kImbalancedBlock);
  EXPECT_EQ(a.trace.CallpathName(f.callpath), "main/MPI_Barrier");
  ASSERT_EQ(f.blocks.size(), f.imbalanced_blocks);
  ASSERT_EQ(f.blocks.size(), 1u);
  // The block between the barriers: rank 0 works 7..9, rank 1 7..13; mean 4.
  EXPECT_EQ(f.blocks[0].location, 1u);
  EXPECT_EQ(f.blocks[0].begin, 7u);
  EXPECT_EQ(f.blocks[0].end, 13u);
  EXPECT_DOUBLE_EQ(f.blocks[0].mean, 4.0);
  // Rank 1's computation in it at 4/6: a 7..11, the second barrier's last member arrives at
  // 11 (rank 0 at 9), everyone leaves 1 s later (its cost after the last arrival), main ends at
  // 13: 2 s saved.
  ASSERT_TRUE(f.predicted_saving.has_value()) << f.no_prediction;
  EXPECT_DOUBLE_EQ(*f.predicted_saving, 2.0);
}

// What a prediction run leaves in the advice, for comparing two of them.
std::vector<std::string> Predictions(const test::Analysis& a) {
  std::vector<std::string> out;
  for (const AdviceFinding& f : a.result.advice->findings) {
    out.push_back(std::string(AdvicePatternName(f.pattern)) + " " +
                  a.trace.CallpathName(f.callpath) + " saves " +
                  (f.predicted_saving ? std::to_string(*f.predicted_saving) : "?") + " as #" +
                  (f.same_fix_as ? std::to_string(*f.same_fix_as) : "-") + " " + f.no_prediction);
  }
  for (uint32_t callpath : a.result.advice->saving_nothing) {
    out.push_back("saves nothing: " + a.trace.CallpathName(callpath));
  }
  return out;
}

TEST(PredictedSavingTest, ReplaysSideBySideChangeNoPrediction) {
  // The unchanged replay and the fixes' replays run one per worker thread: the findings, their
  // savings, their order, the shared fixes, the reasons and what saves nothing are the same on 1
  // thread as on 4, with every fix replayed (5) and with the fixes beyond the first (1).
  AnalysisOptions options;
  options.advice = true;
  for (size_t predictions : {5u, 1u}) {
    test::Analysis serial = test::AnalyzeScenarioWith(BarrierBetweenImbalancedPhases(), options);
    test::Analysis side_by_side =
        test::AnalyzeScenarioWith(BarrierBetweenImbalancedPhases(), options);
    ASSERT_TRUE(driver::PredictSavings(serial.trace, *serial.result.advice, predictions, 1));
    ASSERT_TRUE(
        driver::PredictSavings(side_by_side.trace, *side_by_side.result.advice, predictions, 4));
    EXPECT_EQ(Predictions(serial), Predictions(side_by_side)) << predictions;
    EXPECT_GE(Predictions(serial).size(), 3u);  // the barrier, d, the wait (and c with 5)
  }
}

TEST(PredictedSavingTest, ThePointsReplayPredictsWhatTheEventReplayPredicts) {
  // With the trace's matching, the fixes are replayed over the synchronisation points
  // (sim/sync_replay/): every finding, saving, order, shared fix and reason is the event
  // replay's, on imbalanced phases around a barrier (a balanced call path, a removed barrier),
  // imbalanced blocks (compute windows), a late sender with an imbalanced root cause and one
  // whose root causes come from the delay analysis.
  AnalysisOptions options;
  options.advice = true;
  const std::vector<std::pair<std::string, testing::Scenario>> programs = {
      {"barrier between imbalanced phases", BarrierBetweenImbalancedPhases()},
      {"imbalanced blocks", ImbalancedBlocks()},
      {"late second send", test::LateSecondSend()},
      {"taking turns", test::TakingTurns()}};
  for (const auto& [name, program] : programs) {
    SCOPED_TRACE(name);
    test::Analysis events = test::AnalyzeScenarioWith(program, options);
    test::Analysis points = test::AnalyzeScenarioWith(program, options);
    std::string unmodelled;
    EXPECT_NE(sim::SyncReplay::Build(points.trace, points.graph, unmodelled), nullptr)
        << unmodelled;
    ASSERT_TRUE(driver::PredictSavings(events.trace, *events.result.advice, 5, 2));
    ASSERT_TRUE(driver::PredictSavings(points.trace, *points.result.advice, 5, 2, &points.graph));
    EXPECT_EQ(Predictions(events), Predictions(points));
    EXPECT_FALSE(Predictions(points).empty());
  }
}

}  // namespace
}  // namespace cw::analysis
