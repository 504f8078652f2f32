// Delay analysis on the situations of Böhme 2013 chapter 4, built with exact timestamps (one tick
// is one second). Every expected number is derived by hand in the comments from the definitions:
//   interval of a wait (p waited for q): from the previous synchronisation of the pair (here
//   MPI_Init, left by everyone at 1, unless said otherwise) to the Enter of the waiting call;
//   d(c) = time per call path in it, waits removed; δ(c) = max(d_q(c) - d_p(c), 0);
//   s = 1 / (δ̂ + ω̂) with ω̂ = q's waits in its interval;
//   short-term cost of c = s δ(c) ω; long-term cost of c = s δ(c) φ;
//   φ of q's wait l += s ω_l (ω + φ); propagating part of l = max s ω_l ω;
//   indirect part of the wait = s ω̂ ω.
#include <gtest/gtest.h>

#include "tests/common/analysis_fixture.h"
#include "tests/common/root_cause_invariants.h"

namespace cw::test {
namespace {

using testing::Scenario;

constexpr double kEps = 1e-12;

// Figure 4.1: A's excess in foo makes B wait (a direct wait), and B's wait makes C wait
// (partly indirect). All three then meet in MPI_Finalize, where C arrives last.
//
//   A: Init [0,1] foo [1,7]  Send->B [7,8]  bar [8,12]  Finalize [12,14]
//   B: Init [0,1] foo [1,4]  Recv<-A [4,8]  foo [8,10]  Send->C [10,11]  Finalize [11,14]
//   C: Init [0,1] foo [1,4]  Recv<-B [4,11] baz [11,13] Finalize [13,14]
//
// Wait states: B Late Sender 7-4 = 3, C Late Sender 10-4 = 6; at Finalize (last entrant C at
// 13) A waits 1, B waits 2.
Scenario DirectAndIndirect() {
  Scenario s(3);
  s.rank(0).Enter(0, "main").Call(0, 1, "MPI_Init").Call(1, 7, "foo").Send(7, 8, 1, 0, 8);
  s.rank(0).Call(8, 12, "bar").Call(12, 14, "MPI_Finalize").Leave(15, "main");
  s.rank(1).Enter(0, "main").Call(0, 1, "MPI_Init").Call(1, 4, "foo").Recv(4, 8, 0, 0, 8);
  s.rank(1).Call(8, 10, "foo").Send(10, 11, 2, 0, 8).Call(11, 14, "MPI_Finalize").Leave(15, "main");
  s.rank(2).Enter(0, "main").Call(0, 1, "MPI_Init").Call(1, 4, "foo").Recv(4, 11, 1, 0, 8);
  s.rank(2).Call(11, 13, "baz").Call(13, 14, "MPI_Finalize").Leave(15, "main");
  return s;
}

TEST(DelayScenarioTest, DirectAndIndirectWaitStates) {
  Analysis a = AnalyzeScenario(DirectAndIndirect());
  ASSERT_EQ(a.Total("mpi_latesender"), 9.0);
  ASSERT_EQ(a.Total("mpi_finalize_wait"), 3.0);

  // Backward order: the Finalize waits first.
  // A waits 1 for C. Pair (A, C) last met in MPI_Init. d_A = {foo 6, Send 1, bar 4};
  // d_C = {foo 3, Recv 1 (its non-waiting part [10,11]), baz 2}. δ = {Recv 1, baz 2}, δ̂ = 3;
  // ω̂ = C's Late Sender 6; s = 1/9. Short-term: C Recv 1/9, C baz 2/9. φ_Finalize(C's wait)
  // += 1/9 * 6 * 1 = 2/3. A's wait: indirect 1/9 * 6 * 1 = 2/3.
  // B waits 2 for C. Pair (B, C) last met at B's Send / C's Recv, both left at 11: the interval
  // starts at 11. d_B = {} (its Send ended at 11); d_C = {baz 2}. δ̂ = 2, ω̂ = 0 (C's wait in
  // the Recv is where the interval starts), s = 1/2: short-term C baz 2. B's wait is direct.
  EXPECT_NEAR(a.Value("delay_finalize", "main/MPI_Recv", 2), 1.0 / 9, kEps);
  EXPECT_NEAR(a.Value("delay_finalize", "main/baz", 2), 2.0 / 9 + 2.0, kEps);

  // C waits 6 for B. Pair (B, C) since MPI_Init. d_C = {foo 3}; d_B = {foo 3+2, Recv 1 (its
  // non-waiting part [7,8])}. δ = {foo 2, Recv 1}, δ̂ = 3; ω̂ = B's wait 3; s = 1/6.
  // Short-term on B: foo 2/6*6 = 2, Recv 1/6*6 = 1.
  // Long-term (Finalize) on B with φ_Finalize(C) = 2/3: foo 1/6*2*2/3 = 2/9, Recv 1/9.
  // B's wait: φ_LS += 1/6*3*(6+0) = 3; φ_Finalize += 1/6*3*2/3 = 1/3; propagating 1/6*3*6 = 3.
  // C's wait: indirect 1/6*3*6 = 3, direct 3; propagating 2/3 (from A's Finalize wait).
  EXPECT_NEAR(a.Value("delay_latesender", "main/foo", 1), 2.0, kEps);
  EXPECT_NEAR(a.Value("delay_latesender", "main/MPI_Recv", 1), 1.0, kEps);
  EXPECT_NEAR(a.Value("delay_finalize_longterm", "main/foo", 1), 2.0 / 9, kEps);
  EXPECT_NEAR(a.Value("delay_finalize_longterm", "main/MPI_Recv", 1), 1.0 / 9, kEps);

  // B waits 3 for A. Pair (A, B) since MPI_Init. d_B = {foo 3}; d_A = {foo 6}: δ̂ = 3, ω̂ = 0,
  // s = 1/3. Short-term on A foo: 3. Long-term on A foo: LS 1/3*3*3 = 3, Finalize 1/3*3*1/3 =
  // 1/3. B's wait is direct.
  EXPECT_NEAR(a.Value("delay_latesender", "main/foo", 0), 3.0, kEps);
  EXPECT_NEAR(a.Value("delay_latesender_longterm", "main/foo", 0), 3.0, kEps);
  EXPECT_NEAR(a.Value("delay_finalize_longterm", "main/foo", 0), 1.0 / 3, kEps);

  // Per pattern the costs are the waiting time: LS 3 + 2 + 1 + 3 = 9; Finalize
  // 1/9 + 2/9 + 2 + 2/9 + 1/9 + 1/3 = 3. Nothing else was charged.
  EXPECT_NEAR(a.Total("delay_latesender_aggregate"), 9.0, kEps);
  EXPECT_NEAR(a.Total("delay_finalize_aggregate"), 3.0, kEps);
  EXPECT_NEAR(a.Total("delay"), 12.0, kEps);

  // Classification.
  EXPECT_NEAR(a.Value("mpi_wait_direct_latesender", "main/MPI_Recv", 1), 3.0, kEps);
  EXPECT_NEAR(a.Value("mpi_wait_indirect_latesender", "main/MPI_Recv", 1), 0.0, kEps);
  EXPECT_NEAR(a.Value("mpi_wait_direct_latesender", "main/MPI_Recv", 2), 3.0, kEps);
  EXPECT_NEAR(a.Value("mpi_wait_indirect_latesender", "main/MPI_Recv", 2), 3.0, kEps);
  EXPECT_NEAR(a.Value("mpi_wait_propagating_ls", "main/MPI_Recv", 1), 3.0, kEps);
  EXPECT_NEAR(a.Value("mpi_wait_terminal_ls", "main/MPI_Recv", 1), 0.0, kEps);
  EXPECT_NEAR(a.Value("mpi_wait_propagating_ls", "main/MPI_Recv", 2), 2.0 / 3, kEps);
  EXPECT_NEAR(a.Value("mpi_wait_terminal_ls", "main/MPI_Recv", 2), 6.0 - 2.0 / 3, kEps);
  EXPECT_NEAR(a.Value("mpi_wait_indirect_collective", "main/MPI_Finalize", 0), 2.0 / 3, kEps);
  EXPECT_NEAR(a.Value("mpi_wait_direct_collective", "main/MPI_Finalize", 0), 1.0 / 3, kEps);
  EXPECT_NEAR(a.Value("mpi_wait_direct_collective", "main/MPI_Finalize", 1), 2.0, kEps);
  EXPECT_NEAR(a.Total("mpi_wait_terminal_collective"), 3.0, kEps);

  ExpectRootCauseInvariants(a);
}

// A long-term cost travels back two hops: D waits for C, which waited for B, which waited for
// A's excess in foo.
//
//   R0: foo [1,6] Send->R1 [6,7] bar [7,9]
//   R1: foo [1,2] Recv<-R0 [2,7] Send->R2 [7,8] bar [8,9]
//   R2: foo [1,2] Recv<-R1 [2,8] Send->R3 [8,9]
//   R3: foo [1,2] Recv<-R2 [2,9]
// (Init [0,1], Finalize [9,10] everywhere.) Late Senders: R1 6-2 = 4, R2 7-2 = 5, R3 8-2 = 6.
TEST(DelayScenarioTest, LongTermCostTravelsBackTwoHops) {
  Scenario s(4);
  for (int r = 0; r < 4; ++r) s.rank(r).Enter(0, "main").Call(0, 1, "MPI_Init");
  s.rank(0).Call(1, 6, "foo").Send(6, 7, 1, 0, 8).Call(7, 9, "bar");
  s.rank(1).Call(1, 2, "foo").Recv(2, 7, 0, 0, 8).Send(7, 8, 2, 0, 8).Call(8, 9, "bar");
  s.rank(2).Call(1, 2, "foo").Recv(2, 8, 1, 0, 8).Send(8, 9, 3, 0, 8);
  s.rank(3).Call(1, 2, "foo").Recv(2, 9, 2, 0, 8);
  for (int r = 0; r < 4; ++r) s.rank(r).Call(9, 10, "MPI_Finalize").Leave(10, "main");
  Analysis a = AnalyzeScenario(s);
  ASSERT_EQ(a.Total("mpi_latesender"), 15.0);

  // R3 waits 6 for R2: d_R3 = {foo 1}; d_R2 = {foo 1, Recv 1}; δ̂ = 1, ω̂ = 5, s = 1/6.
  //   short: R2 Recv 1. φ(R2's wait) = 1/6*5*6 = 5. R3: indirect 5, direct 1.
  // R2 waits 5 for R1 (φ = 5): d_R2 = {foo 1}; d_R1 = {foo 1, Recv 1}; δ̂ = 1, ω̂ = 4, s = 1/5.
  //   short: R1 Recv 1; long: R1 Recv 1/5*1*5 = 1. φ(R1's wait) = 1/5*4*(5+5) = 8.
  //   R2: indirect 4, direct 1; R1's wait propagating 1/5*4*5 = 4.
  // R1 waits 4 for R0 (φ = 8): d_R1 = {foo 1}; d_R0 = {foo 5}; δ̂ = 4, ω̂ = 0, s = 1/4.
  //   short: R0 foo 4; long: R0 foo 1/4*4*8 = 8 -- R3's and R2's waiting, two and one hops on.
  EXPECT_NEAR(a.Value("delay_latesender", "main/MPI_Recv", 2), 1.0, kEps);
  EXPECT_NEAR(a.Value("delay_latesender", "main/MPI_Recv", 1), 1.0, kEps);
  EXPECT_NEAR(a.Value("delay_latesender_longterm", "main/MPI_Recv", 1), 1.0, kEps);
  EXPECT_NEAR(a.Value("delay_latesender", "main/foo", 0), 4.0, kEps);
  EXPECT_NEAR(a.Value("delay_latesender_longterm", "main/foo", 0), 8.0, kEps);
  EXPECT_NEAR(a.Total("delay_latesender_aggregate"), 15.0, kEps);

  EXPECT_NEAR(a.Value("mpi_wait_indirect_latesender", "main/MPI_Recv", 3), 5.0, kEps);
  EXPECT_NEAR(a.Value("mpi_wait_indirect_latesender", "main/MPI_Recv", 2), 4.0, kEps);
  EXPECT_NEAR(a.Value("mpi_wait_indirect_latesender", "main/MPI_Recv", 1), 0.0, kEps);
  // Propagating: R1's wait 4 (1/5*4*5), R2's 5 (1/6*5*6); R3's wait is terminal.
  EXPECT_NEAR(a.Value("mpi_wait_propagating_ls", "main/MPI_Recv", 1), 4.0, kEps);
  EXPECT_NEAR(a.Value("mpi_wait_propagating_ls", "main/MPI_Recv", 2), 5.0, kEps);
  EXPECT_NEAR(a.Value("mpi_wait_terminal_ls", "main/MPI_Recv", 3), 6.0, kEps);
  ExpectRootCauseInvariants(a);
}

// The interval of a pair begins when the first of the two left their previous synchronisation:
// time both spent in the same transfer cancels, a side that stayed longer shows it.
//   A: foo [1,2] Send->B [2,3] foo [3,4] Recv<-B [4,7]
//   B: Recv<-A [1,5] foo [5,6] Send->A [6,7]
// (Init [0,1], Finalize [7,8].) B's Late Sender 2-1 = 1, A's 6-4 = 2.
TEST(DelayScenarioTest, IntervalsBeginWhenThePairFirstLeftItsSynchronisation) {
  Scenario s(2);
  for (int r = 0; r < 2; ++r) s.rank(r).Enter(0, "main").Call(0, 1, "MPI_Init");
  s.rank(0).Call(1, 2, "foo").Send(2, 3, 1, 0, 8).Call(3, 4, "foo").Recv(4, 7, 1, 0, 8);
  s.rank(1).Recv(1, 5, 0, 0, 8).Call(5, 6, "foo").Send(6, 7, 0, 0, 8);
  for (int r = 0; r < 2; ++r) s.rank(r).Call(7, 8, "MPI_Finalize").Leave(8, "main");
  Analysis a = AnalyzeScenario(s);
  ASSERT_EQ(a.Total("mpi_latesender"), 3.0);
  // A waits 2 for B. They last met at A's Send [2,3] / B's Recv [1,5]; A left first, at 3.
  // d_A = {foo [3,4] 1}; d_B = {Recv [3,5] 2, foo 1}; δ = {Recv 2}; ω̂ = 0 (B's wait in that
  // Recv was before the moment); s = 1/2: short-term B Recv 1/2*2*2 = 2.
  EXPECT_NEAR(a.Value("delay_latesender", "main/MPI_Recv", 1), 2.0, kEps);
  // B waits 1 for A since MPI_Init: d_B = {}, d_A = {foo 1}: short-term A foo 1.
  EXPECT_NEAR(a.Value("delay_latesender", "main/foo", 0), 1.0, kEps);
  EXPECT_NEAR(a.Total("delay"), 3.0, kEps);
  ExpectRootCauseInvariants(a);
}

// Collective waits are charged to the last process to enter (N x N) and, per waiter, spread
// over the excess since the pair last synchronised. Two partitions: ranks 0-1 run particles,
// ranks 2-3 run mesh, then all meet in MPI_Allreduce.
//   R0: particles [1,5] Allreduce [5,6];  R1: particles [1,4] Allreduce [4,6];
//   R2: mesh [1,3] Allreduce [3,6];       R3: mesh [1,3] Allreduce [3,6].
// Waits at N x N (last entrant R0 at 5): R1 1, R2 2, R3 2.
TEST(DelayScenarioTest, CollectiveWaitsAreChargedToTheLastEntrant) {
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
  ASSERT_EQ(a.Total("mpi_wait_nxn"), 5.0);
  // R1: d_R1 = {particles 3}, d_R0 = {particles 4}: δ̂ = 1, s = 1: R0 particles 1.
  // R2, R3: d = {mesh 2}, d_R0 = {particles 4}: δ̂ = 4, s = 1/4: R0 particles 4/4*2 = 2 each.
  EXPECT_NEAR(a.Value("delay_n2n", "main/particles", 0), 5.0, kEps);
  EXPECT_NEAR(a.Total("delay_n2n_aggregate"), 5.0, kEps);
  EXPECT_NEAR(a.Total("mpi_wait_direct_collective"), 5.0, kEps);
  ExpectRootCauseInvariants(a);
}

TEST(DelayScenarioTest, ResultsDoNotDependOnTheThreadCount) {
  ExpectThreadIndependent(DirectAndIndirect().WriteOrDie(testing::MakeTempDir("threads")));
}

}  // namespace
}  // namespace cw::test
