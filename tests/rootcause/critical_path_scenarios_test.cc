// Critical-path analysis on the situations of Böhme 2013 chapter 5, with exact timestamps (one
// tick is one second). The window runs from the last MPI_Init Enter (0 here) to the last
// MPI_Finalize Enter; the path starts there and, going backwards, moves to the location waited
// for wherever its current location waited, keeping the non-waiting part of the waiting call.
//   ι(c) = max(d_cp(c) - avg_p d_p(c), 0), shared by the locations carrying c on the path;
//   imbalance cost of p in c = δ_p(c) / δ̂_p * ŵ_p with δ_p(c) = max(d_cp(c) - d_p(c), 0) and ŵ_p
//   = window - Σ_c d_p(c); intra-partition if p runs c, inter-partition if not.
#include <gtest/gtest.h>

#include "tests/common/analysis_fixture.h"
#include "tests/common/root_cause_invariants.h"

namespace cw::test {
namespace {

using testing::Scenario;

constexpr double kPathEps = 1e-12;

// The delay scenario of Böhme 2013 Fig. 4.1 (see delay_scenarios_test.cc): A delays B, B delays
// C, C enters MPI_Finalize last (at 13).
//   A: Init [0,1] foo [1,7]  Send->B [7,8]  bar [8,12]  Finalize [12,14]
//   B: Init [0,1] foo [1,4]  Recv<-A [4,8]  foo [8,10]  Send->C [10,11]  Finalize [11,14]
//   C: Init [0,1] foo [1,4]  Recv<-B [4,11] baz [11,13] Finalize [13,14]
TEST(CriticalPathScenarioTest, PathFollowsTheWaitsBackToTheirOrigin) {
  Scenario s(3);
  s.rank(0).Enter(0, "main").Call(0, 1, "MPI_Init").Call(1, 7, "foo").Send(7, 8, 1, 0, 8);
  s.rank(0).Call(8, 12, "bar").Call(12, 14, "MPI_Finalize").Leave(15, "main");
  s.rank(1).Enter(0, "main").Call(0, 1, "MPI_Init").Call(1, 4, "foo").Recv(4, 8, 0, 0, 8);
  s.rank(1).Call(8, 10, "foo").Send(10, 11, 2, 0, 8).Call(11, 14, "MPI_Finalize").Leave(15, "main");
  s.rank(2).Enter(0, "main").Call(0, 1, "MPI_Init").Call(1, 4, "foo").Recv(4, 11, 1, 0, 8);
  s.rank(2).Call(11, 13, "baz").Call(13, 14, "MPI_Finalize").Leave(15, "main");
  Analysis a = AnalyzeScenario(s);

  // From C's Finalize Enter (13) back: C baz [11,13], C's Recv waited for B's Send (10): keep
  // its non-waiting part [10,11], move to B before its Send: foo [8,10], Recv's non-waiting part
  // [7,8] (it waited for A's Send at 7), move to A: foo [1,7], Init [0,1]. 2+1+2+1+6+1 = 13.
  EXPECT_EQ(a.result.critical_path->length, 13);
  EXPECT_EQ(PathLocations(a), (std::vector<uint32_t>{0, 1, 2}));
  EXPECT_EQ(a.Value("critical_path", "main/MPI_Init", 0), 1.0);
  EXPECT_EQ(a.Value("critical_path", "main/foo", 0), 6.0);
  EXPECT_EQ(a.Value("critical_path", "main/MPI_Recv", 1), 1.0);
  EXPECT_EQ(a.Value("critical_path", "main/foo", 1), 2.0);
  EXPECT_EQ(a.Value("critical_path", "main/MPI_Recv", 2), 1.0);
  EXPECT_EQ(a.Value("critical_path", "main/baz", 2), 2.0);
  EXPECT_EQ(a.LocationTotal("critical_path", 0), 7.0);  // no Send, no bar: A's Send delayed B
  EXPECT_EQ(a.Value("critical_path", "main/bar", 0), 0.0);

  // d_cp: Init 1, foo 8, Recv 2, baz 2. Non-waiting time in the window [0,13]:
  //   A: Init 1, foo 6, Send 1, bar 4 (12; waits 1 in Finalize)
  //   B: Init 1, foo 5, Recv 1, Send 1 (8; waits 3 + 2)
  //   C: Init 1, foo 3, Recv 1, baz 2 (7; waits 6)
  // ι: foo 8 - 14/3 = 10/3 shared 6:2 by A and B; Recv 2 - 2/3 = 4/3 shared by B and C; baz
  // 2 - 2/3 = 4/3 on C; Init 1 - 1 = 0.
  EXPECT_NEAR(a.Value("critical_path_imbalance", "main/foo", 0), 10.0 / 3 * 6 / 8, kPathEps);
  EXPECT_NEAR(a.Value("critical_path_imbalance", "main/foo", 1), 10.0 / 3 * 2 / 8, kPathEps);
  EXPECT_NEAR(a.Value("critical_path_imbalance", "main/MPI_Recv", 1), 2.0 / 3, kPathEps);
  EXPECT_NEAR(a.Value("critical_path_imbalance", "main/MPI_Recv", 2), 2.0 / 3, kPathEps);
  EXPECT_NEAR(a.Value("critical_path_imbalance", "main/baz", 2), 4.0 / 3, kPathEps);
  EXPECT_NEAR(a.Total("critical_path_imbalance"), 10.0 / 3 + 4.0 / 3 + 4.0 / 3, kPathEps);

  // Imbalance costs. A: δ = {foo 2, Recv 2, baz 2}, ŵ = 1: foo 1/3 intra, Recv and baz 1/3
  // inter (A runs neither). B: δ = {foo 3, Recv 1, baz 2}, ŵ = 5: foo 5/2, Recv 5/6 intra, baz
  // 5/3 inter. C: δ = {foo 5, Recv 1}, ŵ = 6: foo 5, Recv 1 intra.
  // intra: foo 1/3 + 5/2 + 5 = 47/6 (A 6/8 of it, B 2/8), Recv 5/6 + 1 = 11/6 (B, C halves).
  // inter: Recv 1/3 (B, C halves), baz 1/3 + 5/3 = 2 (C).
  EXPECT_NEAR(a.Value("intra_partition_imbalance", "main/foo", 0), 47.0 / 6 * 6 / 8, kPathEps);
  EXPECT_NEAR(a.Value("intra_partition_imbalance", "main/foo", 1), 47.0 / 6 * 2 / 8, kPathEps);
  EXPECT_NEAR(a.Value("intra_partition_imbalance", "main/MPI_Recv", 2), 11.0 / 12, kPathEps);
  EXPECT_NEAR(a.Value("inter_partition_imbalance", "main/MPI_Recv", 1), 1.0 / 6, kPathEps);
  EXPECT_NEAR(a.Value("inter_partition_imbalance", "main/baz", 2), 2.0, kPathEps);
  EXPECT_NEAR(a.Total("critical_imbalance_impact"), 12.0, kPathEps);  // all waiting: 1 + 5 + 6
  // Activity impact: min(d_cp, d_p); A: Init 1, foo 6; B: Init 1, foo 5, Recv 1; C: Init 1,
  // foo 3, Recv 1, baz 2 = 21. Non-critical: A Send 1, bar 4; B Send 1 = 6. 21 + 6 + 12 = 39.
  EXPECT_NEAR(a.Total("critical_path_activities"), 21.0, kPathEps);
  EXPECT_NEAR(a.Total("non_critical_path_activities"), 6.0, kPathEps);
  EXPECT_NEAR(a.Total("performance_impact"), 3 * 13.0, kPathEps);
  ExpectRootCauseInvariants(a);
}

// A function that runs once per process, one after the other (a token passed along), looks
// perfectly balanced in a profile -- every process spends 2 s in it -- but it is the whole
// critical path.
//   R0: serial [1,3] Send->R1 [3,4]   Barrier [4,10]
//   R1: Recv<-R0 [1,4] serial [4,6] Send->R2 [6,7] Barrier [7,10]
//   R2: Recv<-R1 [1,7] serial [7,9] Barrier [9,10]
// (Init [0,1], Finalize [10,11].) Waits: R1 LS 2, R2 LS 5; barrier (last entrant R2 at 9): R0
// 5, R1 2.
// A barrier whose CollectiveBegin records are stamped after the Enters (Score-P stamps them
// together; other writers need not):
//   rank 0: Enter(Barrier) 2, begin 3, end 10, Leave 11, Finalize [12, 13]
//   rank 1: Enter(Barrier) 6, begin 8, end 10, Leave 11, Finalize [11, 13]
// Waits are measured between Enters, as Scalasca measures them: rank 0 waits 6 - 2 = 4 (not
// 8 - 3 = 5 between the begin records). The critical path then stays whole: from rank 0's
// Finalize (12, the last to arrive) back through its barrier's non-waiting part [6, 11] and main
// [11, 12], to rank 1 at its Enter (6): rank 1's Init [0, 1] and main [1, 6]. Length 12 = the
// window [0, 12], with no gap at the jump (measured from the begin records, rank 0's barrier
// would only count [7, 11] and the path would be 11).
TEST(CriticalPathScenarioTest, CollectiveBeginStampedAfterTheEnter) {
  Scenario s(2);
  s.rank(0).Enter(0, "main").Call(0, 1, "MPI_Init").Enter(2, "MPI_Barrier").CollectiveBeginEvent(3);
  s.rank(0).CollectiveEndEvent(10, OTF2_COLLECTIVE_OP_BARRIER, 0, OTF2_UNDEFINED_UINT32, 0, 0);
  s.rank(0).Leave(11, "MPI_Barrier").Call(12, 13, "MPI_Finalize").Leave(14, "main");
  s.rank(1).Enter(0, "main").Call(0, 1, "MPI_Init").Enter(6, "MPI_Barrier").CollectiveBeginEvent(8);
  s.rank(1).CollectiveEndEvent(10, OTF2_COLLECTIVE_OP_BARRIER, 0, OTF2_UNDEFINED_UINT32, 0, 0);
  s.rank(1).Leave(11, "MPI_Barrier").Call(11, 13, "MPI_Finalize").Leave(14, "main");
  Analysis a = AnalyzeScenario(s);
  EXPECT_EQ(a.Value("mpi_barrier_wait", "main/MPI_Barrier", 0), 4.0);
  EXPECT_EQ(a.Value("mpi_barrier_wait", "main/MPI_Barrier", 1), 0.0);
  EXPECT_EQ(a.result.critical_path->length, 12);
  EXPECT_EQ(a.Value("critical_path", "main/MPI_Barrier", 0), 5.0);
  EXPECT_EQ(a.Value("critical_path", "main", 1), 5.0);
  ExpectRootCauseInvariants(a);
}

TEST(CriticalPathScenarioTest, SerialisedFunctionInvisibleInTheProfile) {
  Scenario s(3);
  for (int r = 0; r < 3; ++r) s.rank(r).Enter(0, "main").Call(0, 1, "MPI_Init");
  auto barrier = [](testing::RankScript& r, uint64_t enter) {
    r.Collective(enter, 10, "MPI_Barrier", OTF2_COLLECTIVE_OP_BARRIER, 0, 0);
  };
  s.rank(0).Call(1, 3, "serial").Send(3, 4, 1, 0, 8);
  barrier(s.rank(0), 4);
  s.rank(1).Recv(1, 4, 0, 0, 8).Call(4, 6, "serial").Send(6, 7, 2, 0, 8);
  barrier(s.rank(1), 7);
  s.rank(2).Recv(1, 7, 1, 0, 8).Call(7, 9, "serial");
  barrier(s.rank(2), 9);
  for (int r = 0; r < 3; ++r) s.rank(r).Call(10, 11, "MPI_Finalize").Leave(11, "main");
  Analysis a = AnalyzeScenario(s);

  // Every process: serial 2 s. The path (end at R0, lowest rank of the three that entered
  // Finalize at 10): R0's barrier waited for R2 -> keep [9,10] on R0; R2 serial [7,9], Recv's
  // non-waiting [6,7] -> R1 serial [4,6], Recv [3,4] -> R0 serial [1,3], Init [0,1]: 10 s.
  for (uint32_t r = 0; r < 3; ++r) {
    EXPECT_EQ(a.Value("critical_path", "main/serial", r), 2.0) << r;
  }
  EXPECT_EQ(a.result.critical_path->length, 10);
  // d_cp(serial) = 6, avg 2: ι = 4, a third on each. For the barrier (cp 1, avg 1) and Init
  // (1, 1) it is 0; Recv: cp 2, avg 2/3, ι 4/3.
  EXPECT_NEAR(a.Total("critical_path_imbalance"), 4.0 + 4.0 / 3, kPathEps);
  EXPECT_NEAR(a.Value("critical_path_imbalance", "main/serial", 1), 4.0 / 3, kPathEps);
  EXPECT_NEAR(a.Value("critical_path_imbalance", "main/MPI_Barrier", 0), 0.0, kPathEps);
  ExpectRootCauseInvariants(a);
}

// MPMD: ranks 0-1 run particles (4 and 3 s), ranks 2-3 run mesh (2 s), then MPI_Allreduce.
// The path is rank 0 throughout; waiting is 1 (rank 1) + 2 + 2 (the mesh ranks).
TEST(CriticalPathScenarioTest, IntraVersusInterPartitionImbalance) {
  Scenario s(4);
  for (int r = 0; r < 4; ++r) s.rank(r).Enter(0, "main").Call(0, 1, "MPI_Init");
  s.rank(0)
      .Call(1, 5, "particles")
      .Collective(5, 6, "MPI_Allreduce", OTF2_COLLECTIVE_OP_ALLREDUCE, 8, 8);
  s.rank(1)
      .Call(1, 4, "particles")
      .Collective(4, 6, "MPI_Allreduce", OTF2_COLLECTIVE_OP_ALLREDUCE, 8, 8);
  for (int r = 2; r < 4; ++r) {
    s.rank(r)
        .Call(1, 3, "mesh")
        .Collective(3, 6, "MPI_Allreduce", OTF2_COLLECTIVE_OP_ALLREDUCE, 8, 8);
  }
  for (int r = 0; r < 4; ++r) s.rank(r).Call(6, 7, "MPI_Finalize").Leave(7, "main");
  Analysis a = AnalyzeScenario(s);

  // d_cp: Init 1, particles 4, Allreduce 1 (window [0,6]).
  // Rank 1: δ = {particles 1}, ŵ = 1: intra 1. Ranks 2, 3: δ = {particles 4}, ŵ = 2 each,
  // and they never run particles: inter 2 + 2 = 4.
  EXPECT_NEAR(a.Value("intra_partition_imbalance", "main/particles", 0), 1.0, kPathEps);
  EXPECT_NEAR(a.Value("inter_partition_imbalance", "main/particles", 0), 4.0, kPathEps);
  EXPECT_NEAR(a.Total("critical_imbalance_impact"), 5.0, kPathEps);
  // Performance impact of particles: its time 4 + 3 plus 5 of imbalance = 12.
  EXPECT_NEAR(a.Value("performance_impact", "main/particles", 0) +
                  a.Value("performance_impact", "main/particles", 1),
              12.0, kPathEps);
  EXPECT_NEAR(a.Total("performance_impact"), 4 * 6.0, kPathEps);
  ExpectRootCauseInvariants(a);
}

// Rotating overload (Böhme 2013 Fig. 3.5b): in iteration i rank i works 3 s and the others 1 s,
// then all meet in a barrier. Time-aggregated, every rank worked 5 s -- no imbalance -- yet the
// run takes 9 s of work instead of 5.
TEST(CriticalPathScenarioTest, RotatingOverloadIsFoundDespiteABalancedProfile) {
  Scenario s(3);
  for (int r = 0; r < 3; ++r) s.rank(r).Enter(0, "main").Call(0, 1, "MPI_Init");
  for (uint64_t iteration = 0; iteration < 3; ++iteration) {
    uint64_t begin = 1 + 3 * iteration, end = begin + 3;
    for (int r = 0; r < 3; ++r) {
      uint64_t work_end = static_cast<uint64_t>(r) == iteration ? end : begin + 1;
      s.rank(r).Call(begin, work_end, "step");
      s.rank(r).Collective(work_end, end, "MPI_Barrier", OTF2_COLLECTIVE_OP_BARRIER, 0, 0);
    }
  }
  for (int r = 0; r < 3; ++r) s.rank(r).Call(10, 11, "MPI_Finalize").Leave(11, "main");
  Analysis a = AnalyzeScenario(s);

  for (uint32_t r = 0; r < 3; ++r) {
    EXPECT_EQ(a.result.waitstates.severities[r].Total(analysis::MetricId::kComp), 5.0 + 0) << r;
    EXPECT_EQ(a.Value("critical_path", "main/step", r), 3.0) << r;
  }
  // The path: R0 from 10 back: its last barrier waited for R2 -> R2 step [7,10], barrier 2
  // waited for R1 -> R1 step [4,7], barrier 1 waited for R0 -> R0 step [1,4], Init.
  EXPECT_EQ(PathLocations(a), (std::vector<uint32_t>{0, 1, 2}));
  // ι(step) = 9 - 5 = 4: the dynamic imbalance a profile cannot see.
  EXPECT_NEAR(a.Total("critical_path_imbalance"), 4.0, kPathEps);
  // Every barrier wait is short-term cost of the overloaded rank's step: 2 + 2 per iteration.
  EXPECT_NEAR(a.Value("delay_barrier", "main/step", 0), 4.0, kPathEps);
  EXPECT_NEAR(a.Value("delay_barrier", "main/step", 1), 4.0, kPathEps);
  EXPECT_NEAR(a.Value("delay_barrier", "main/step", 2), 4.0, kPathEps);
  ExpectRootCauseInvariants(a);
}

// The rotating overload on 2 ranks over 10,000 iterations with 50 functions: in iteration i, rank
// i % 2 works 3 s in step<i % 50> (the other 1 s, then waits in the barrier). The path runs
// through the overloaded rank of every iteration, so step<k>'s 200 iterations, all on rank k % 2
// (50 is even), put 3 x 200 = 600 s of it on the path there and none on the other rank; the
// path spans the window [0, 30001]. Each rank's 5,000 segments of the path are summed in several
// batches (PathWalk::Collect), which must add up to the same.
TEST(CriticalPathScenarioTest, ALongPathOverManyFunctionsSumsEverySegment) {
  constexpr uint64_t kIterations = 10000;
  constexpr uint64_t kFunctions = 50;
  Scenario s(2);
  for (int r = 0; r < 2; ++r) s.rank(r).Enter(0, "main").Call(0, 1, "MPI_Init");
  for (uint64_t i = 0; i < kIterations; ++i) {
    const uint64_t begin = 1 + 3 * i, end = begin + 3;
    const std::string step = "step" + std::to_string(i % kFunctions);
    for (int r = 0; r < 2; ++r) {
      const uint64_t work_end = static_cast<uint64_t>(r) == i % 2 ? end : begin + 1;
      s.rank(r).Call(begin, work_end, step.c_str());
      s.rank(r).Collective(work_end, end, "MPI_Barrier", OTF2_COLLECTIVE_OP_BARRIER, 0, 0);
    }
  }
  const uint64_t last = 1 + 3 * kIterations;
  for (int r = 0; r < 2; ++r)
    s.rank(r).Call(last, last + 1, "MPI_Finalize").Leave(last + 1, "main");
  Analysis a = AnalyzeScenario(s);
  for (uint64_t k = 0; k < kFunctions; ++k) {
    const std::string step = "main/step" + std::to_string(k);
    const uint32_t on = static_cast<uint32_t>(k % 2);
    EXPECT_EQ(a.Value("critical_path", step, on), 600.0) << step;
    EXPECT_EQ(a.Value("critical_path", step, 1 - on), 0.0) << step;
  }
  EXPECT_NEAR(a.Total("critical_path"), static_cast<double>(last), kPathEps);
  ExpectRootCauseInvariants(a);
}

}  // namespace
}  // namespace cw::test
