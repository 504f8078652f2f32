// Wait states, delay costs and the critical path through probes: the test cases of Haus 2024
// §4.2.4-4.2.6 (its Listings 2-4), built with exact timestamps. The rules (Haus 2024 §3.3-3.5):
// a probed message's Late Sender is the probe's, Enter(send) - Enter(probe); its receive does not
// wait; the probe is the receiver's synchronisation point for delay and critical path; Wrong
// Order is decided at receives, against the Late Senders of probes and receives alike. Delay
// costs follow the definitions of delay_scenarios_test.cc.
#include <gtest/gtest.h>

#include "tests/common/analysis_fixture.h"
#include "tests/common/root_cause_invariants.h"

namespace cw::test {
namespace {

using testing::Scenario;

constexpr double kProbeEps = 1e-9;

// Haus 2024 §4.2.4 (Listing 2): A sleeps and sends to B; B probes, receives, sleeps and sends to
// C; C probes and receives. One tick is one second; the calls the thesis shows as instant take
// no time, except C's receive (1 s), so that C is the last to enter MPI_Finalize as in the
// thesis (instant calls would tie B and C, and ties go to the lower rank).
//   A: Init [0,1] Sleep [1,3] Send->B [3,3] Finalize [3,6]
//   B: Init [0,1] Probe(A) [1,3] Recv<-A [3,3] Sleep [3,4] Send->C [4,4] Finalize [4,6]
//   C: Init [0,1] Probe(B) [1,4] Recv<-B [4,5] Finalize [5,6]
Scenario LateSenderInProbes(bool recorded) {
  Scenario s(3);
  for (int r = 0; r < 3; ++r) s.rank(r).Enter(0, "main").Call(0, 1, "MPI_Init");
  s.rank(0).Call(1, 3, "Sleep").Send(3, 3, 1, 0, 4).Call(3, 6, "MPI_Finalize");
  if (recorded) {
    s.rank(1).Probe(1, 3, 0, 0);
    s.rank(2).Probe(1, 4, 1, 1);
  } else {
    s.rank(1).Call(1, 3, "MPI_Probe");
    s.rank(2).Call(1, 4, "MPI_Probe");
  }
  s.rank(1).Recv(3, 3, 0, 0, 4).Call(3, 4, "Sleep").Send(4, 4, 2, 1, 4);
  s.rank(1).Call(4, 6, "MPI_Finalize");
  s.rank(2).Recv(4, 5, 1, 1, 4).Call(5, 6, "MPI_Finalize");
  for (int r = 0; r < 3; ++r) s.rank(r).Leave(6, "main");
  return s;
}

void ExpectLateSenderInProbes(const Analysis& a) {
  // Wait states: B's probe 3 - 1 = 2, C's probe 4 - 1 = 3; the probed receives wait nothing.
  // Finalize (last Enter: C at 5): A waits 2, B waits 1.
  EXPECT_EQ(a.Value("mpi_latesender", "main/MPI_Probe", 1), 2.0);
  EXPECT_EQ(a.Value("mpi_latesender", "main/MPI_Probe", 2), 3.0);
  EXPECT_EQ(a.Value("mpi_latesender", "main/MPI_Recv", 1), 0.0);
  EXPECT_EQ(a.Value("mpi_latesender", "main/MPI_Recv", 2), 0.0);
  EXPECT_EQ(a.Total("mpi_latesender"), 5.0);
  EXPECT_EQ(a.Value("mpi_finalize_wait", "main/MPI_Finalize", 0), 2.0);
  EXPECT_EQ(a.Value("mpi_finalize_wait", "main/MPI_Finalize", 1), 1.0);

  // Backward, the Finalize waits first.
  // A waits 2 for C; pair (A, C) since MPI_Init (left at 1). d_A = {Sleep 2}; d_C = {Recv 1}
  // (its probe waited the whole call). δ = {Recv 1}, ω̂ = C's probe wait 3, s = 1/4.
  //   short: C Recv 1/4*1*2 = 1/2; φ_Fin(C's probe wait) += 1/4*3*2 = 3/2.
  // B waits 1 for C; pair (B, C) last met at B's Send / C's probe, both left at 4.
  //   d_B = {}; d_C = {Recv 1}; ω̂ = 0, s = 1: short: C Recv 1.
  // C's probe waits 3 for B (φ_Fin = 3/2); pair (B, C) since MPI_Init. d_C = {};
  //   d_B = {Sleep 1} (probe and receive without waiting time take none); ω̂ = B's probe wait 2;
  //   s = 1/3. short: B Sleep 1/3*1*3 = 1; long Fin: B Sleep 1/3*1*3/2 = 1/2.
  //   φ_LS(B's probe wait) += 1/3*2*3 = 2; φ_Fin += 1/3*2*3/2 = 1.
  // B's probe waits 2 for A (φ_LS 2, φ_Fin 1); since MPI_Init d_B = {}, d_A = {Sleep 2}: s = 1/2.
  //   short: A Sleep 2; long LS: A Sleep 2; long Fin: A Sleep 1.
  // So C's 3 s in its probe are 1 s of B's Sleep (short-term) and 2 s of A's (long-term), as
  // the thesis finds; A's Finalize wait is 1/2 s of C's receive and 3/2 s through C's probe,
  // split 2:1 over A's and B's Sleep (the thesis's 0.67/0.33 of its 1 s).
  EXPECT_NEAR(a.Value("delay_latesender", "main/Sleep", 0), 2.0, kProbeEps);
  EXPECT_NEAR(a.Value("delay_latesender_longterm", "main/Sleep", 0), 2.0, kProbeEps);
  EXPECT_NEAR(a.Value("delay_latesender", "main/Sleep", 1), 1.0, kProbeEps);
  EXPECT_NEAR(a.Value("delay_latesender_longterm", "main/Sleep", 1), 0.0, kProbeEps);
  EXPECT_NEAR(a.Value("delay_finalize", "main/MPI_Recv", 2), 1.5, kProbeEps);
  EXPECT_NEAR(a.Value("delay_finalize_longterm", "main/Sleep", 0), 1.0, kProbeEps);
  EXPECT_NEAR(a.Value("delay_finalize_longterm", "main/Sleep", 1), 0.5, kProbeEps);
  EXPECT_NEAR(a.Total("delay_latesender_aggregate"), 5.0, kProbeEps);
  EXPECT_NEAR(a.Total("delay_finalize_aggregate"), 3.0, kProbeEps);
  // Classification: B's probe wait is direct and propagating (1/3*2*3 = 2); C's is 1 direct and
  // 2 indirect (1/3*2*3), propagating 3/2 (to A's Finalize wait, 1/4*3*2).
  EXPECT_NEAR(a.Value("mpi_wait_direct_latesender", "main/MPI_Probe", 1), 2.0, kProbeEps);
  EXPECT_NEAR(a.Value("mpi_wait_propagating_ls", "main/MPI_Probe", 1), 2.0, kProbeEps);
  EXPECT_NEAR(a.Value("mpi_wait_indirect_latesender", "main/MPI_Probe", 2), 2.0, kProbeEps);
  EXPECT_NEAR(a.Value("mpi_wait_propagating_ls", "main/MPI_Probe", 2), 1.5, kProbeEps);
  EXPECT_NEAR(a.Value("mpi_wait_terminal_ls", "main/MPI_Probe", 2), 1.5, kProbeEps);

  // Critical path: from C's Finalize Enter (5) back: C's Recv [4,5]; C's probe waited for B's
  // Send (4): move to B: Sleep [3,4]; B's probe waited for A's Send (3): move to A: Sleep
  // [1,3], Init [0,1]. It starts on A, moves to B at A's Send and to C at B's Send.
  EXPECT_EQ(a.result.critical_path->length, 5);
  EXPECT_EQ(PathLocations(a), (std::vector<uint32_t>{0, 1, 2}));
  EXPECT_EQ(a.Value("critical_path", "main/Sleep", 0), 2.0);
  EXPECT_EQ(a.Value("critical_path", "main/MPI_Init", 0), 1.0);
  EXPECT_EQ(a.Value("critical_path", "main/Sleep", 1), 1.0);
  EXPECT_EQ(a.Value("critical_path", "main/MPI_Recv", 2), 1.0);
  EXPECT_EQ(a.Total("critical_path"), 5.0);
  ExpectRootCauseInvariants(a);
}

TEST(ProbeScenarioTest, LateSenderInRecordedProbes) {
  Analysis a = AnalyzeScenario(LateSenderInProbes(/*recorded=*/true));
  EXPECT_EQ(a.graph.stats.probes_linked, 2u);
  EXPECT_EQ(a.graph.stats.probes_inferred, 0u);
  ExpectLateSenderInProbes(a);
}

TEST(ProbeScenarioTest, LateSenderInInferredProbesOfAScorePTrace) {
  // The same run as Score-P records it (probes as Enter/Leave only): the links are inferred
  // from the next receives, with the same results, and the report says so.
  Analysis a = AnalyzeScenario(LateSenderInProbes(/*recorded=*/false));
  EXPECT_EQ(a.graph.stats.probes_linked, 2u);
  EXPECT_EQ(a.graph.stats.probes_inferred, 2u);
  ExpectLateSenderInProbes(a);
  bool reported = false;
  for (const report::DiagnosticEntry& d : a.report.diagnostics) {
    reported = reported || (d.name == "match.probe_inferred" && d.count == 2);
  }
  EXPECT_TRUE(reported);
}

// Haus 2024 §4.2.5 (Listing 3, 4 ranks): rank r sleeps r seconds and sends to A (rank 0); A
// probes and receives C's message (rank 2), then D's (rank 3), then B's (rank 1).
//   A: Init [0,1] Probe(C) [1,3] Recv [3,3] Probe(D) [3,4] Recv [4,4] Probe(B) [4,4] Recv [4,4]
//      Finalize [4,5]
//   B: Init [0,1] Sleep [1,2] Send->A [2,2] Finalize [2,5]
//   C: Init [0,1] Sleep [1,3] Send->A [3,3] Finalize [3,5]
//   D: Init [0,1] Sleep [1,4] Send->A [4,4] Finalize [4,5]
TEST(ProbeScenarioTest, WrongOrderAcrossProbesAndReceives) {
  Scenario s(4);
  for (int r = 0; r < 4; ++r) s.rank(r).Enter(0, "main").Call(0, 1, "MPI_Init");
  s.rank(0).Probe(1, 3, 2, 2).Recv(3, 3, 2, 2, 4000).Probe(3, 4, 3, 3).Recv(4, 4, 3, 3, 4000);
  s.rank(0).Probe(4, 4, 1, 1).Recv(4, 4, 1, 1, 4000).Call(4, 5, "MPI_Finalize");
  for (int r = 1; r < 4; ++r) {
    uint64_t t = 1 + static_cast<uint64_t>(r);
    s.rank(r).Call(1, t, "Sleep").Send(t, t, 0, static_cast<uint32_t>(r), 4000);
    s.rank(r).Call(t, 5, "MPI_Finalize");
  }
  for (int r = 0; r < 4; ++r) s.rank(r).Leave(5, "main");
  Analysis a = AnalyzeScenario(s);

  // Late Senders in A's probes: C's Send 3 - 1 = 2, D's Send 4 - 3 = 1; B's message was there.
  // At the receive of B's message (sent at 2), both buffered Late Senders (sends at 3 and 4)
  // turn out to be Wrong Order, from a different sender than B.
  EXPECT_EQ(a.Value("mpi_latesender", "main/MPI_Probe", 0), 3.0);
  EXPECT_EQ(a.Value("mpi_latesender_wo", "main/MPI_Probe", 0), 3.0);
  EXPECT_EQ(a.Value("mpi_lswo_different", "main/MPI_Probe", 0), 3.0);
  EXPECT_EQ(a.Value("mpi_lswo_same", "main/MPI_Probe", 0), 0.0);
  // Finalize: A and D enter last (4; the tie goes to A). B waits 2, C waits 1.
  EXPECT_EQ(a.Value("mpi_finalize_wait", "main/MPI_Finalize", 1), 2.0);
  EXPECT_EQ(a.Value("mpi_finalize_wait", "main/MPI_Finalize", 2), 1.0);
  EXPECT_EQ(a.Total("mpi_finalize_wait"), 3.0);

  // Backward (ω̂ is the delayer's own waiting in the interval):
  // B waits 2 for A; pair (A, B) since MPI_Init (A's probe of B's message did not wait: no
  //   synchronisation). d_B = {Sleep 1}, d_A = {} (A only waited): δ̂ = 0, ω̂ = A's probe waits
  //   2 + 1, s = 1/3. φ_Fin(A's first probe wait) += 1/3*2*2 = 4/3; φ_Fin(second) += 1/3*1*2 = 2/3.
  // C waits 1 for A; pair (A, C) last met at A's first probe / C's Send, both left at 3.
  //   d_C = {}, d_A = {}, ω̂ = A's second probe wait 1, s = 1: φ_Fin(second) += 1.
  // A's second probe waits 1 for D (φ_Fin 5/3); since MPI_Init d_A = {}, d_D = {Sleep 3},
  //   ω̂ = 0 (D did not wait), s = 1/3. short: D Sleep 1; long Fin: D Sleep 1/3*3*5/3 = 5/3.
  // A's first probe waits 2 for C (φ_Fin 4/3); d_A = {}, d_C = {Sleep 2}: s = 1/2.
  //   short: C Sleep 2; long Fin: C Sleep 4/3.
  // As the thesis finds: C's Sleep causes the first wait, 1 s of D's Sleep the second, and the
  // 3 s of Finalize waiting are long-term costs of C's (1.33 s) and D's (1.67 s) Sleep.
  EXPECT_NEAR(a.Value("delay_latesender", "main/Sleep", 2), 2.0, kProbeEps);
  EXPECT_NEAR(a.Value("delay_latesender_longterm", "main/Sleep", 2), 0.0, kProbeEps);
  EXPECT_NEAR(a.Value("delay_latesender", "main/Sleep", 3), 1.0, kProbeEps);
  EXPECT_NEAR(a.Value("delay_finalize_longterm", "main/Sleep", 2), 4.0 / 3, kProbeEps);
  EXPECT_NEAR(a.Value("delay_finalize_longterm", "main/Sleep", 3), 5.0 / 3, kProbeEps);
  EXPECT_NEAR(a.Total("delay_latesender_aggregate"), 3.0, kProbeEps);
  EXPECT_NEAR(a.Total("delay_finalize_aggregate"), 3.0, kProbeEps);
  EXPECT_NEAR(a.Total("delay"), 6.0, kProbeEps);

  // Critical path: ends on A at 4; A's second probe waited for D's Send (4): the path moves to
  // D at once and stays there: Sleep [1,4], Init [0,1]. Nothing of A's probes is on it.
  EXPECT_EQ(a.result.critical_path->length, 4);
  EXPECT_EQ(a.Value("critical_path", "main/Sleep", 3), 3.0);
  EXPECT_EQ(a.Value("critical_path", "main/MPI_Init", 3), 1.0);
  EXPECT_EQ(a.LocationTotal("critical_path", 0), 0.0);
  ExpectRootCauseInvariants(a);
}

// Haus 2024 §4.2.6 (Listing 4, 2 ranks): A fills an array, sleeps 1 s and sends 40 MB (a
// rendezvous send); B probes, sleeps 2 s, then receives. One tick is 0.1 s. B's receive takes
// 0.2 s and A's send ends when the data is through (3.3 s), so B enters MPI_Finalize last.
//   A: Init [0,1] FillArray [1,2] Sleep1 [2,12] Send->B [12,33] Finalize [33,35]
//   B: Init [0,1] Probe [1,12] Sleep2 [12,32] Recv<-A [32,34] Finalize [34,35]
TEST(ProbeScenarioTest, LateSenderInProbeAndLateReceiverInSend) {
  Scenario s(2, /*ticks_per_second=*/10);
  for (int r = 0; r < 2; ++r) s.rank(r).Enter(0, "main").Call(0, 1, "MPI_Init");
  s.rank(0).Call(1, 2, "FillArray").Call(2, 12, "Sleep1").Send(12, 33, 1, 0, 40000000);
  s.rank(0).Call(33, 35, "MPI_Finalize");
  s.rank(1).Probe(1, 12, 0, 0).Call(12, 32, "Sleep2").Recv(32, 34, 0, 0, 40000000);
  s.rank(1).Call(34, 35, "MPI_Finalize");
  for (int r = 0; r < 2; ++r) s.rank(r).Leave(35, "main");
  Analysis a = AnalyzeScenario(s);

  // Both wait states of the thesis: Late Sender in B's probe 1.2 - 0.1 = 1.1 s, Late Receiver
  // in A's send 3.2 - 1.2 = 2 s (against B's receive, never the probe); A waits 0.1 s at
  // Finalize.
  EXPECT_NEAR(a.Value("mpi_latesender", "main/MPI_Probe", 1), 1.1, kProbeEps);
  EXPECT_NEAR(a.Value("mpi_latereceiver", "main/MPI_Send", 0), 2.0, kProbeEps);
  EXPECT_NEAR(a.Value("mpi_finalize_wait", "main/MPI_Finalize", 0), 0.1, kProbeEps);

  // A's send is a synchronisation point twice: it delays B's probe and waits for B's receive.
  // The thesis's prototype could keep only one (it dropped the Late Receiver's costs); here each
  // wait has its own interval:
  // A's Finalize wait 0.1 for B: pair last met at A's send / B's receive; A left first (3.3),
  //   so d_A = {} and d_B = {Recv 3.3-3.4}: short: B Recv 0.1.
  // A's Late Receiver 2 for B: the pair last met in the same send call (B's probe), which A had
  //   not left: d_A = {}; B's interval runs from its probe's end (1.2) to the receive: d_B =
  //   {Sleep2 2}: short: B Sleep2 2 -- the thesis's other optimisation candidate.
  // B's Late Sender 1.1 for A: since MPI_Init d_B = {}, d_A = {FillArray 0.1, Sleep1 1}: s =
  //   1/1.1: short: FillArray 0.1, Sleep1 1 -- the prototype's result.
  EXPECT_NEAR(a.Value("delay_latesender", "main/Sleep1", 0), 1.0, kProbeEps);
  EXPECT_NEAR(a.Value("delay_latesender", "main/FillArray", 0), 0.1, kProbeEps);
  EXPECT_NEAR(a.Value("delay_latereceiver", "main/Sleep2", 1), 2.0, kProbeEps);
  EXPECT_NEAR(a.Value("delay_finalize", "main/MPI_Recv", 1), 0.1, kProbeEps);
  EXPECT_NEAR(a.Total("delay"), 3.2, kProbeEps);

  // Critical path: ends on B (3.4): Recv [3.2,3.4], Sleep2 [1.2,3.2]; B's probe waited for A's
  // send (1.2): move to A: Sleep1 [0.2,1.2], FillArray [0.1,0.2], Init [0,0.1].
  EXPECT_EQ(a.result.critical_path->length, 34);
  EXPECT_EQ(PathLocations(a), (std::vector<uint32_t>{0, 1}));
  EXPECT_NEAR(a.Value("critical_path", "main/Sleep1", 0), 1.0, kProbeEps);
  EXPECT_NEAR(a.Value("critical_path", "main/FillArray", 0), 0.1, kProbeEps);
  EXPECT_NEAR(a.Value("critical_path", "main/MPI_Init", 0), 0.1, kProbeEps);
  EXPECT_NEAR(a.Value("critical_path", "main/Sleep2", 1), 2.0, kProbeEps);
  EXPECT_NEAR(a.Value("critical_path", "main/MPI_Recv", 1), 0.2, kProbeEps);
  EXPECT_NEAR(a.Value("critical_path", "main/MPI_Probe", 1), 0.0, kProbeEps);
  ExpectRootCauseInvariants(a);
}

}  // namespace
}  // namespace cw::test
