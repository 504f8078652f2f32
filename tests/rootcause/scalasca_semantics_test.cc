// `--semantics scalasca`: the root-cause metrics under Scalasca 2.6's definitions
// (analysis/critpath/scalasca_impact.h, docs/metrics.md "Differs from Scalasca"), with exact
// timestamps (one tick is one second) and the expected values derived beside them. The same
// traces under causeway's semantics show what the option changes. Each scenario here was also
// analysed by Scalasca 2.6 itself (scout.mpi, its report remapped with scout.spec): under
// `--semantics scalasca` all 124 metrics both tools compute agreed per location.
#include <gtest/gtest.h>

#include "tests/common/analysis_fixture.h"
#include "tests/common/root_cause_invariants.h"

namespace cw::test {
namespace {

using analysis::Semantics;
using testing::Scenario;

constexpr double kScalascaEps = 1e-12;

// Two processes that run different code (MPMD), launched one second apart, with time in main
// before MPI_Init and after MPI_Finalize:
//   R0: main [0,16]  Init [1,3]  foo [3,9]  Send->R1 [9,10]  Recv<-R1 [10,14]  Finalize [14,15]
//   R1: main [0,16]  Init [2,3]  Recv<-R0 [3,10]  bar [10,13]  Send->R0 [13,14]  Finalize [14,15]
// Late Senders: R1 waits 9 - 3 = 6 in its Recv, R0 waits 13 - 10 = 3. The window is [2, 14]
// (R1's Init Enter to the Finalize Enters; R0 ends the path, lowest rank on the tie).
// The path, backwards from R0 at 14: R0 Recv's non-waiting part [13,14], then R1 before its
// Send: bar [10,13], Recv's non-waiting part [9,10], then R0 before its Send: foo [3,9], Init
// [2,3], and under Scalasca's semantics on to R0's Init Enter at 1: Init [1,3].
Scenario LaunchSkewMpmd() {
  Scenario s(2);
  s.rank(0).Enter(0, "main").Call(1, 3, "MPI_Init").Call(3, 9, "foo").Send(9, 10, 1, 0, 8);
  s.rank(0).Recv(10, 14, 1, 0, 8).Call(14, 15, "MPI_Finalize").Leave(16, "main");
  s.rank(1).Enter(0, "main").Call(2, 3, "MPI_Init").Recv(3, 10, 0, 0, 8).Call(10, 13, "bar");
  s.rank(1).Send(13, 14, 0, 0, 8).Call(14, 15, "MPI_Finalize").Leave(16, "main");
  return s;
}

TEST(ScalascaSemanticsTest, CriticalPathStartsAtMpiInitsEnter) {
  Analysis own = AnalyzeScenario(LaunchSkewMpmd());
  Analysis scalasca = AnalyzeScenario(LaunchSkewMpmd(), 2, Semantics::kScalasca);
  ASSERT_TRUE(own.result.critical_path && scalasca.result.critical_path);
  // causeway: Recv 1 + bar 3 + Recv 1 + foo 6 + Init 1 = 12, the window.
  EXPECT_EQ(own.result.critical_path->length, 12);
  EXPECT_EQ(own.Value("critical_path", "main/MPI_Init", 0), 1.0);
  // Scalasca: R0's whole Init [1,3]: 13.
  EXPECT_EQ(scalasca.result.critical_path->length, 13);
  EXPECT_EQ(scalasca.Value("critical_path", "main/MPI_Init", 0), 2.0);
  EXPECT_EQ(scalasca.Value("critical_path", "main/foo", 0), 6.0);
  EXPECT_EQ(scalasca.Value("critical_path", "main/MPI_Recv", 0), 1.0);
  EXPECT_EQ(scalasca.Value("critical_path", "main/MPI_Recv", 1), 1.0);
  EXPECT_EQ(scalasca.Value("critical_path", "main/bar", 1), 3.0);
  EXPECT_EQ(scalasca.Total("critical_path"), 13.0);
  // The path's first stretch is R0's from its Init Enter (1 s after the trace's start).
  ASSERT_FALSE(scalasca.result.critical_path->segments.empty());
  const analysis::PathSegment& first = scalasca.result.critical_path->segments.front();
  EXPECT_EQ(first.location, 0u);
  EXPECT_EQ(scalasca.trace.SecondsSinceStart(static_cast<uint64_t>(first.begin)), 1.0);
  EXPECT_EQ(scalasca.report.semantics, "scalasca");
  EXPECT_EQ(own.report.semantics, "causeway");
  // The wait states do not depend on the semantics.
  EXPECT_EQ(scalasca.Total("mpi_latesender"), 9.0);
  EXPECT_EQ(own.Total("mpi_latesender"), 9.0);
  ExpectRootCauseInvariants(own);
}

// The impact metrics on the same trace. Scalasca's inputs, over each process's whole trace:
//   cp(c):  Init 2, foo 6, Recv 2 (1 on each), bar 3; Σ 13.
//   time:   R0 main 2 ([0,1], [15,16]), Init 2, foo 6, Send 1, Recv 4, Finalize 1
//           R1 main 3 ([0,2], [15,16]), Init 1, Recv 7, bar 3, Send 1, Finalize 1
//   d = time - waits: R0 Recv 4 - 3 = 1 (Σ d 13); R1 Recv 7 - 6 = 1 (Σ d 10).
TEST(ScalascaSemanticsTest, ImpactOverTheWholeTraceAsScalascaComputesIt) {
  Analysis a = AnalyzeScenario(LaunchSkewMpmd(), 2, Semantics::kScalasca);
  // Activity impact min(cp, d) where cp > 0: R0 Init 2, foo 6, Recv 1 = 9; R1 Init 1, Recv 1,
  // bar 3 = 5.
  EXPECT_NEAR(a.LocationTotal("critical_path_activities", 0), 9.0, kScalascaEps);
  EXPECT_NEAR(a.LocationTotal("critical_path_activities", 1), 5.0, kScalascaEps);
  EXPECT_NEAR(a.Value("critical_path_activities", "main/MPI_Recv", 0), 1.0, kScalascaEps);
  // Non-critical d - cp where positive: R0 main 2, Send 1, Finalize 1 = 4; R1 main 3, Send 1,
  // Finalize 1 = 5. (causeway counts the window only: no main time before Init.)
  EXPECT_NEAR(a.LocationTotal("non_critical_path_activities", 0), 4.0, kScalascaEps);
  EXPECT_NEAR(a.LocationTotal("non_critical_path_activities", 1), 5.0, kScalascaEps);
  EXPECT_NEAR(a.Value("non_critical_path_activities", "main", 1), 3.0, kScalascaEps);
  // Imbalance costs. R0: waiting Σcp - Σd = 0: nothing. R1: waiting 13 - 10 = 3, excess
  // max(cp - d, 0) = {Init 1, foo 6, Recv 1}, Σ 8: Init 3/8, foo 18/8, Recv 3/8. Written where
  // the path runs the call path, in proportion to its time there: R0 Init 3/8, R0 foo 9/4,
  // Recv 3/16 on each.
  EXPECT_NEAR(a.Total("critical_imbalance_impact"), 3.0, kScalascaEps);
  EXPECT_NEAR(a.Value("critical_imbalance_impact", "main/MPI_Init", 0), 3.0 / 8, kScalascaEps);
  EXPECT_NEAR(a.Value("critical_imbalance_impact", "main/foo", 0), 9.0 / 4, kScalascaEps);
  EXPECT_NEAR(a.Value("critical_imbalance_impact", "main/MPI_Recv", 1), 3.0 / 16, kScalascaEps);
  // Headroom. R0 runs everything but bar: Σ max(d, cp) over what it runs = main 2 + Init 2 +
  // foo 6 + Send 1 + Recv 2 + Finalize 1 = 14, so bar gets 3 · (13 - 14) / 3 = -1. R1 runs
  // everything but foo: 3 + 2 + 2 + 3 + 1 + 1 = 12, foo gets 6 · (13 - 12) / 6 = 1. Only the
  // positive one is written: foo 1 on R0, inter-partition; the rest of foo's costs (9/4 - 1)
  // are intra-partition.
  EXPECT_NEAR(a.Total("inter_partition_imbalance"), 1.0, kScalascaEps);
  EXPECT_NEAR(a.Value("inter_partition_imbalance", "main/foo", 0), 1.0, kScalascaEps);
  EXPECT_NEAR(a.Value("intra_partition_imbalance", "main/foo", 0), 5.0 / 4, kScalascaEps);
  EXPECT_NEAR(a.Total("intra_partition_imbalance"), 2.0, kScalascaEps);
  // Performance impact: 14 + 3 + 9 = 26 (causeway's adds up to P × window = 24).
  EXPECT_NEAR(a.Total("performance_impact"), 26.0, kScalascaEps);
  EXPECT_NEAR(AnalyzeScenario(LaunchSkewMpmd()).Total("performance_impact"), 24.0, kScalascaEps);
  // Critical-path imbalance cp_l(c) · max(0, 1 - (T - W)(c) / (N · CP(c))), N = 2, summed over
  // both locations: T - W = Init 3, foo 6, Recv 1 + 1, bar 3. Ratios: Init 1 - 3/4 = 1/4, foo
  // 1 - 6/12 = 1/2, Recv 1 - 2/4 = 1/2, bar 1 - 3/6 = 1/2.
  EXPECT_NEAR(a.Value("critical_path_imbalance", "main/MPI_Init", 0), 2.0 / 4, kScalascaEps);
  EXPECT_NEAR(a.Value("critical_path_imbalance", "main/foo", 0), 3.0, kScalascaEps);
  EXPECT_NEAR(a.Value("critical_path_imbalance", "main/MPI_Recv", 0), 0.5, kScalascaEps);
  EXPECT_NEAR(a.Value("critical_path_imbalance", "main/MPI_Recv", 1), 0.5, kScalascaEps);
  EXPECT_NEAR(a.Value("critical_path_imbalance", "main/bar", 1), 1.5, kScalascaEps);
  EXPECT_NEAR(a.Total("critical_path_imbalance"), 6.0, kScalascaEps);
}

// Where Scalasca divides by zero, its sums over processes become NaN and it writes nothing.
// Ranks 0-1 run particles (4 and 3 s), ranks 2-3 mesh (2 s), then MPI_Allreduce [.., 6] and
// MPI_Finalize [6, 7]: the path is rank 0's Init [0,1], particles [1,5], Allreduce [5,6]
// (cp: Init 1, particles 4, Allreduce 1; Σ 6).
//   - Rank 0 runs the whole path and nothing slower than the path: its excess is 0 in every
//     call path, its waiting Σ cp - Σ d = 6 - 7 (Finalize) = -1, and -1 / 0 scales zeros into
//     NaN: no imbalance costs anywhere (causeway's semantics: 5 s, 4 of them inter-partition,
//     see critical_path_scenarios_test.cc).
//   - Ranks 0 and 1 run every critical call path: their headroom is (6 - 7) / 0 and (6 - 7) / 0,
//     NaN again: no inter-partition imbalance.
// Activity impact is unaffected: min(cp, d) = Init 1, particles 4 (3 on rank 1) and Allreduce
// 1 (what is left after the wait for rank 0's Enter at 5: rank 1 waits 1 of 2, ranks 2-3 2 of
// 3).
TEST(ScalascaSemanticsTest, NoImbalanceCostsWhereScalascaDividesByZero) {
  Scenario s(4);
  for (int r = 0; r < 4; ++r) s.rank(r).Enter(0, "main").Call(0, 1, "MPI_Init");
  s.rank(0).Call(1, 5, "particles");
  s.rank(0).Collective(5, 6, "MPI_Allreduce", OTF2_COLLECTIVE_OP_ALLREDUCE, 8, 8);
  s.rank(1).Call(1, 4, "particles");
  s.rank(1).Collective(4, 6, "MPI_Allreduce", OTF2_COLLECTIVE_OP_ALLREDUCE, 8, 8);
  for (int r = 2; r < 4; ++r) {
    s.rank(r).Call(1, 3, "mesh");
    s.rank(r).Collective(3, 6, "MPI_Allreduce", OTF2_COLLECTIVE_OP_ALLREDUCE, 8, 8);
  }
  for (int r = 0; r < 4; ++r) s.rank(r).Call(6, 7, "MPI_Finalize").Leave(7, "main");
  Analysis a = AnalyzeScenario(s, 2, Semantics::kScalasca);
  EXPECT_EQ(a.Total("inter_partition_imbalance"), 0.0);
  EXPECT_EQ(a.Total("critical_imbalance_impact"), 0.0);
  EXPECT_GT(AnalyzeScenario(s).Total("critical_imbalance_impact"), 0.0);
  // Rank 0: Init 1, particles 4, Allreduce 1; rank 1: 1, 3, 1; ranks 2-3: Init 1, Allreduce 1.
  EXPECT_NEAR(a.Total("critical_path_activities"), 6.0 + 5.0 + 2 * 2.0, kScalascaEps);
}

// What Scalasca does not follow.
//   R0: Init [0,1]  foo [1,5]  Barrier [5,6]  Finalize [6,10]
//   R1: Init [0,1]  Barrier [1,6]  bar [6,9]  Finalize [9,10]
// R1 waits 4 in the barrier (for R0's foo), R0 waits 3 in MPI_Finalize (for R1's bar).
// causeway: the barrier wait costs R0's foo 4 and the Finalize wait R1's bar 3; both waits are
// direct. Scalasca: the barrier's delay alone, and no classification of either wait (it
// classifies point-to-point waits only). The wait states themselves are the same.
TEST(ScalascaSemanticsTest, FinalizeWaitIsNotFollowedAndCollectiveWaitsNotClassified) {
  Scenario s(2);
  s.rank(0).Enter(0, "main").Call(0, 1, "MPI_Init").Call(1, 5, "foo");
  s.rank(0).Collective(5, 6, "MPI_Barrier", OTF2_COLLECTIVE_OP_BARRIER, 0, 0);
  s.rank(0).Call(6, 10, "MPI_Finalize").Leave(11, "main");
  s.rank(1).Enter(0, "main").Call(0, 1, "MPI_Init");
  s.rank(1).Collective(1, 6, "MPI_Barrier", OTF2_COLLECTIVE_OP_BARRIER, 0, 0);
  s.rank(1).Call(6, 9, "bar").Call(9, 10, "MPI_Finalize").Leave(11, "main");
  Analysis own = AnalyzeScenario(s);
  Analysis scalasca = AnalyzeScenario(s, 2, Semantics::kScalasca);
  for (const Analysis* a : {&own, &scalasca}) {
    EXPECT_EQ(a->Value("mpi_barrier_wait", "main/MPI_Barrier", 1), 4.0);
    EXPECT_EQ(a->Value("mpi_finalize_wait", "main/MPI_Finalize", 0), 3.0);
    EXPECT_NEAR(a->Value("delay_barrier", "main/foo", 0), 4.0, kScalascaEps);
  }
  EXPECT_NEAR(own.Value("delay_finalize", "main/bar", 1), 3.0, kScalascaEps);
  EXPECT_NEAR(own.Total("mpi_wait_direct_collective"), 7.0, kScalascaEps);
  EXPECT_NEAR(own.Total("delay"), 7.0, kScalascaEps);
  EXPECT_EQ(scalasca.Total("delay_finalize_aggregate"), 0.0);
  EXPECT_EQ(scalasca.Total("waitstates_direct_vs_indirect"), 0.0);
  EXPECT_EQ(scalasca.Total("waitstates_propagating_vs_terminal"), 0.0);
  EXPECT_NEAR(scalasca.Total("delay"), 4.0, kScalascaEps);
  ExpectRootCauseInvariants(own);
}

// Scalasca 2.6 has no probe support. A probes for B's message from 1 until it arrives (B sends
// at 4), then receives it [5,6]: causeway charges the Late Sender to the probe (4 - 1 = 3);
// Scalasca's probe is plain MPI time, and the receive, entered after the send, does not wait.
//   A: Init [0,1]  Probe(B) [1,5]  Recv<-B [5,6]  Finalize [6,7]
//   B: Init [0,1]  work [1,4]  Send->A [4,5]  Finalize [6,7]
// (B waits 1 in MPI_Finalize under both.)
TEST(ScalascaSemanticsTest, ProbesAreNotWaitStates) {
  Scenario s(2);
  for (int r = 0; r < 2; ++r) s.rank(r).Enter(0, "main").Call(0, 1, "MPI_Init");
  s.rank(0).Probe(1, 5, 1, 0).Recv(5, 6, 1, 0, 8).Call(6, 7, "MPI_Finalize").Leave(7, "main");
  s.rank(1).Call(1, 4, "work").Send(4, 5, 0, 0, 8).Call(5, 7, "MPI_Finalize").Leave(7, "main");
  Analysis own = AnalyzeScenario(s);
  Analysis scalasca = AnalyzeScenario(s, 2, Semantics::kScalasca);
  EXPECT_EQ(own.Value("mpi_latesender", "main/MPI_Probe", 0), 3.0);
  EXPECT_NEAR(own.Value("delay_latesender", "main/work", 1), 3.0, kScalascaEps);
  EXPECT_EQ(scalasca.Total("mpi_latesender"), 0.0);
  EXPECT_EQ(scalasca.Total("delay_latesender_aggregate"), 0.0);
  // Both: the probe's call counts as MPI point-to-point time, 4 s.
  EXPECT_EQ(scalasca.Value("mpi_point2point", "main/MPI_Probe", 0), 4.0);
  EXPECT_EQ(own.report.matching.probes_linked, scalasca.report.matching.probes_linked);
}

// Scalasca's cost scaling. Rank 0 spends time outside every region (a program whose main is not
// instrumented) before its Send, so its interval with rank 1 shows less excess than rank 1
// waited:
//   R0: Init [0,1]  w [1,X]  (outside every region until 3)  Send->R1 [3,4]  Finalize [5,6]
//   R1: Init [0,1]  Recv<-R0 [1,5] (Late Sender 2)  Finalize [5,6]
// With X = 2, rank 0's excess is w 1 < 2: causeway charges w the whole wait, 2; Scalasca's
// scale min(2 / 1, 1) = 1 charges w 1. With X = 1, nothing explains the wait: causeway charges
// rank 0's Send 2 (delay.unexplained_wait); Scalasca drops it.
Scenario UntrackedDelayer(uint64_t work_end) {
  Scenario s(2);
  s.rank(0).Call(0, 1, "MPI_Init");
  if (work_end > 1) s.rank(0).Call(1, work_end, "w");
  s.rank(0).Send(3, 4, 1, 0, 8).Call(5, 6, "MPI_Finalize");
  s.rank(1).Call(0, 1, "MPI_Init").Recv(1, 5, 0, 0, 8).Call(5, 6, "MPI_Finalize");
  return s;
}

TEST(ScalascaSemanticsTest, CostsCappedAtTheExcessAndUnexplainedWaitsDropped) {
  const Analysis own_capped = AnalyzeScenario(UntrackedDelayer(2));
  const Analysis capped = AnalyzeScenario(UntrackedDelayer(2), 2, Semantics::kScalasca);
  EXPECT_EQ(capped.Value("mpi_latesender", "MPI_Recv", 1), 2.0);
  EXPECT_NEAR(own_capped.Value("delay_latesender", "w", 0), 2.0, kScalascaEps);
  EXPECT_NEAR(capped.Value("delay_latesender", "w", 0), 1.0, kScalascaEps);
  EXPECT_NEAR(capped.Total("delay"), 1.0, kScalascaEps);

  const Analysis own_dropped = AnalyzeScenario(UntrackedDelayer(1));
  const Analysis dropped = AnalyzeScenario(UntrackedDelayer(1), 2, Semantics::kScalasca);
  EXPECT_NEAR(own_dropped.Value("delay_latesender", "MPI_Send", 0), 2.0, kScalascaEps);
  EXPECT_EQ(dropped.Total("delay"), 0.0);
  ASSERT_TRUE(own_dropped.result.delay && dropped.result.delay);
  EXPECT_EQ(own_dropped.result.delay->unexplained_waits, 1u);
  EXPECT_EQ(dropped.result.delay->unexplained_waits, 1u);  // still reported
}

// Where an interval starts after a broadcast. Rank 1 waits in the broadcast for the root
// (rank 0) and leaves it after the root; then rank 0 waits for rank 1's message:
//   R0: Init [0,1]  w [1,3]  Bcast root [3,4]  Recv<-R1 [4,9] (Late Sender 8 - 4 = 4)
//   R1: Init [0,1]  Bcast [1,5] (Late Broadcast 2)  w [5,8]  Send->R0 [8,9]
// causeway starts the pair's interval when the first of them (the root, at 4) left the
// broadcast, so rank 1's excess is the rest of its Bcast [4,5] and w [5,8]: 1 + 3 = 4, the
// whole wait, split 1 : 3. Scalasca measures rank 1's completion from the earliest end among
// the receivers that waited, its own (5): none of the Bcast counts, the excess is w 3, and the
// capped scale min(4 / 3, 1) charges w 3.
TEST(ScalascaSemanticsTest, IntervalAfterABroadcastStartsAtTheReceiversEarliestEnd) {
  Scenario s(2);
  for (int r = 0; r < 2; ++r) s.rank(r).Enter(0, "main").Call(0, 1, "MPI_Init");
  s.rank(0).Call(1, 3, "w").Collective(3, 4, "MPI_Bcast", OTF2_COLLECTIVE_OP_BCAST, 8, 0, 0);
  s.rank(0).Recv(4, 9, 1, 0, 8).Call(9, 10, "MPI_Finalize").Leave(10, "main");
  s.rank(1).Collective(1, 5, "MPI_Bcast", OTF2_COLLECTIVE_OP_BCAST, 0, 8, 0);
  s.rank(1).Call(5, 8, "w").Send(8, 9, 0, 0, 8).Call(9, 10, "MPI_Finalize").Leave(10, "main");
  const Analysis own = AnalyzeScenario(s);
  const Analysis scalasca = AnalyzeScenario(s, 2, Semantics::kScalasca);
  for (const Analysis* a : {&own, &scalasca}) {
    EXPECT_EQ(a->Value("mpi_latesender", "main/MPI_Recv", 0), 4.0);
    EXPECT_EQ(a->Value("mpi_latebroadcast", "main/MPI_Bcast", 1), 2.0);
  }
  EXPECT_NEAR(own.Value("delay_latesender", "main/MPI_Bcast", 1), 1.0, kScalascaEps);
  EXPECT_NEAR(own.Value("delay_latesender", "main/w", 1), 3.0, kScalascaEps);
  EXPECT_EQ(scalasca.Value("delay_latesender", "main/MPI_Bcast", 1), 0.0);
  EXPECT_NEAR(scalasca.Value("delay_latesender", "main/w", 1), 3.0, kScalascaEps);
  EXPECT_NEAR(scalasca.Total("delay_latesender_aggregate"), 3.0, kScalascaEps);
  ExpectRootCauseInvariants(own);
}

}  // namespace
}  // namespace cw::test
