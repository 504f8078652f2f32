// Exact timing rules of the what-if replay on hand-built traces. One tick is one second, so the
// perturbations below (seconds) are whole ticks. Each test states the measured trace, the change,
// and how the expected times follow from the rules of sim/replay.h:
//   computation keeps its gap (times its scale, plus noise once per computation phase);
//   an MPI call's Leave = max(Enter', each dependency' + delta) + its measured cost, where the
//   cost is what the call took after its dependencies were met in the measured run.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "sim/replay.h"
#include "testing/scenario.h"
#include "tests/sim/replay_fixture.h"

namespace cw::sim {
namespace {

using testing::RankScript;
using testing::Scenario;

// ---- Computation of one call path, and in intervals of one location ----------------------------

// One rank: main 0..10, calling a 2..6, which calls b 3..5. Events: main, a, b, /b, /a, /main.
Scenario NestedCalls() {
  Scenario s(1);
  s.rank(0).Enter(0, "main").Enter(2, "a").Call(3, 5, "b").Leave(6, "a").Leave(10, "main");
  return s;
}

uint32_t CallpathNamed(const trace::Trace& trace, const std::string& name) {
  for (uint32_t cp = 0; cp < trace.call_tree.size(); ++cp) {
    if (trace.CallpathName(cp) == name) return cp;
  }
  ADD_FAILURE() << "no call path " << name;
  return trace::kNone;
}

TEST(ReplayRulesTest, ACallPathRuleScalesItsOwnComputationOnly) {
  const Replayed measured = Replay(NestedCalls());
  ExpectIdentity(measured);
  // main/a x2 on location 0: a's own computation, 2..3 and 5..6, takes 2 s each; b's 3..5
  // inside it keeps its 2 s. a enters at 2, b at 4, leaves at 6, a leaves at 8, main at 12.
  Perturbation p;
  ComputeScale scale;
  scale.callpath = CallpathNamed(measured.trace, "main/a");
  scale.factor = 2;
  scale.location = 0;
  p.compute.push_back(scale);
  const Replayed r = Replay(NestedCalls(), p);
  EXPECT_EQ(r.Time(0, 1), 2u);  // Enter a
  EXPECT_EQ(r.Time(0, 2), 4u);  // Enter b
  EXPECT_EQ(r.Time(0, 3), 6u);  // Leave b
  EXPECT_EQ(r.Time(0, 4), 8u);  // Leave a
  EXPECT_EQ(r.End(0), 12u);
  // The region rule a=2 scales what a calls too: b takes 4 s, a leaves at 10, main at 14.
  const Replayed region = Replay(NestedCalls(), ComputeScaled("a=2"));
  EXPECT_EQ(region.Time(0, 3), 8u);
  EXPECT_EQ(region.End(0), 14u);
  // On another location the rule changes nothing.
  p.compute.back().location = 1;
  ExpectIdentity(Replay(NestedCalls(), p));
}

// One rank: main 0..10, calling work 4..8. Events: main, work, /work, /main.
Scenario OneCall() {
  Scenario s(1);
  s.rank(0).Enter(0, "main").Call(4, 8, "work").Leave(10, "main");
  return s;
}

TEST(ReplayRulesTest, AWindowScalesTheComputationInsideIt) {
  // 2..6 at 0.5 on location 0: the gap 0..4 has 2 s inside (2..4), taking 1: work enters at 3;
  // 4..8 has 2 s inside (4..6): 3 s, work leaves at 6; 8..10 none: main leaves at 8.
  Perturbation p;
  p.windows.push_back(ComputeWindow{0, 2, 6, 0.5});
  const Replayed r = Replay(OneCall(), p);
  EXPECT_EQ(r.Time(0, 1), 3u);
  EXPECT_EQ(r.Time(0, 2), 6u);
  EXPECT_EQ(r.End(0), 8u);
  // On top of all computation x2 on rank 0: each gap doubles first (0..4 takes 8), and the part
  // inside the window, 2 of the 4 measured seconds (4 s scaled), takes half: 8 - 2 = 6. Then
  // 4..8 the same, 6 (work leaves at 12), and 8..10 takes 4: main leaves at 16.
  p.compute.push_back(ComputeScaled("2@0").compute.front());
  const Replayed both = Replay(OneCall(), p);
  EXPECT_EQ(both.Time(0, 1), 6u);
  EXPECT_EQ(both.Time(0, 2), 12u);
  EXPECT_EQ(both.End(0), 16u);
  // A window of another location changes nothing.
  Perturbation elsewhere;
  elsewhere.windows.push_back(ComputeWindow{1, 2, 6, 0.5});
  ExpectIdentity(Replay(OneCall(), elsewhere));
}

// ---- Blocking point-to-point -------------------------------------------------------------------

// Rank 0 works 0..4 in "work" and sends 4..5; rank 1 receives 1..6. Events: rank 0 = main,
// work, /work, MPI_Send, send record, /MPI_Send, /main; rank 1 = main, MPI_Recv, recv, /MPI_Recv,
// /main. The receive was ready at 4 (the send's start) and cost 6 - 4 = 2 after it.
Scenario BlockingPair(uint64_t bytes = 8) {
  Scenario s(2);
  s.rank(0).Enter(0, "main").Call(0, 4, "work").Send(4, 5, 1, 7, bytes).Leave(10, "main");
  s.rank(1).Enter(0, "main").Recv(1, 6, 0, 7, bytes).Leave(10, "main");
  return s;
}

TEST(ReplayRulesTest, IdentityWithoutChange) {
  Replayed r = Replay(BlockingPair());
  ExpectIdentity(r);
  EXPECT_EQ(r.result.measured_end, 10u);
  EXPECT_EQ(r.result.predicted_end, 10u);
  EXPECT_EQ(r.result.stats.messages, 1u);
  EXPECT_EQ(r.result.stats.unmatched_receives + r.result.stats.unmatched_sends, 0u);
}

TEST(ReplayRulesTest, LateSenderPassesTheSendersDelayOn) {
  // work x2 on rank 0: work ends at 8, the send runs 8..9 (its cost 1), main ends 9 + 5 = 14.
  // Rank 1: ready = max(1, 8) = 8, Leave = 8 + 2 = 10, main ends 10 + 4 = 14.
  Replayed r = Replay(BlockingPair(), ComputeScaled("work=2@0"));
  EXPECT_EQ(r.Time(0, 2), 8u);  // Leave work
  EXPECT_EQ(r.Time(0, 3), 8u);  // Enter MPI_Send
  EXPECT_EQ(r.Time(0, 5), 9u);  // Leave MPI_Send
  EXPECT_EQ(r.End(0), 14u);
  EXPECT_EQ(r.Time(1, 1), 1u);   // Enter MPI_Recv: unchanged
  EXPECT_EQ(r.Time(1, 3), 10u);  // Leave MPI_Recv
  EXPECT_EQ(r.Time(1, 2), 10u);  // the receive record, at the Leave as measured
  EXPECT_EQ(r.End(1), 14u);
  EXPECT_EQ(r.result.predicted_end, 14u);
}

TEST(ReplayRulesTest, ScaleOfOtherRanksOrRegionsChangesNothing) {
  ExpectIdentity(Replay(BlockingPair(), ComputeScaled("work=2@1")));
  ExpectIdentity(Replay(BlockingPair(), ComputeScaled("other=3")));
}

TEST(ReplayRulesTest, SlackAbsorbsAnEarlierSender) {
  // work x0.5 on rank 0: work ends at 2, the send runs 2..3. Rank 1 posted at 1; ready =
  // max(1, 2) = 2 and Leave = 2 + 2 = 4: the receive waits 2 less.
  Replayed r = Replay(BlockingPair(), ComputeScaled("work=0.5@0"));
  EXPECT_EQ(r.Time(1, 3), 4u);
  EXPECT_EQ(r.End(1), 8u);
  EXPECT_EQ(r.End(0), 3u + 5u);
}

TEST(ReplayRulesTest, IdealNetworkRemovesEveryCallsOwnCost) {
  // Ideal network: MPI calls cost nothing beyond waiting. Rank 0: the send 4..4, main ends
  // 4 + 5 = 9. Rank 1: ready = max(1, 4) = 4, Leave = 4 + 0, main ends 4 + 4 = 8.
  Perturbation p;
  p.network.ideal = true;
  Replayed r = Replay(BlockingPair(), p);
  EXPECT_EQ(r.Time(0, 5), 4u);
  EXPECT_EQ(r.End(0), 9u);
  EXPECT_EQ(r.Time(1, 3), 4u);
  EXPECT_EQ(r.End(1), 8u);
}

TEST(ReplayRulesTest, LatencyChangeDelaysTheMessage) {
  // Latency 3 on a network whose latency was 1: the message arrives 2 later. Rank 1: ready =
  // max(1, 4 + 2) = 6, Leave = 6 + 2 = 8, main ends 12. The eager send itself does not change.
  Perturbation p;
  p.network.latency = 3;
  p.network.base_latency = 1;
  Replayed r = Replay(BlockingPair(), p);
  EXPECT_EQ(r.Time(1, 3), 8u);
  EXPECT_EQ(r.End(1), 12u);
  EXPECT_EQ(r.End(0), 10u);
}

TEST(ReplayRulesTest, BandwidthChangeScalesWithTheMessageSize) {
  // 1000 bytes; time per byte 0.003 instead of 0.001: the message arrives 2 later, as above.
  Perturbation p;
  p.network.per_byte = 0.003;
  p.network.base_per_byte = 0.001;
  Replayed r = Replay(BlockingPair(1000), p);
  EXPECT_EQ(r.Time(1, 3), 8u);
}

TEST(ReplayRulesTest, CostFactorScalesWhatCallsTakeAfterTheirPartnersWereReady) {
  // Communication x3: the send costs 3 (4..7), main ends 12; the receive: ready at 4, cost
  // 2 x 3 = 6, Leave 10, main ends 14.
  Perturbation p;
  p.network.cost_factor = 3;
  Replayed r = Replay(BlockingPair(), p);
  EXPECT_EQ(r.Time(0, 5), 7u);
  EXPECT_EQ(r.End(0), 12u);
  EXPECT_EQ(r.Time(1, 3), 10u);
  EXPECT_EQ(r.End(1), 14u);
}

TEST(ReplayRulesTest, OverheadIsAddedToEachSideOfAMessage) {
  // Overhead 1: the send 4..6, main 11; the receive ready at 4, 4 + 2 + 1 = 7, main 11.
  Perturbation p;
  p.network.overhead = 1;
  Replayed r = Replay(BlockingPair(), p);
  EXPECT_EQ(r.Time(0, 5), 6u);
  EXPECT_EQ(r.Time(1, 3), 7u);
}

// ---- Eager and rendezvous sends ----------------------------------------------------------------

// Rank 0 sends at 1; rank 1 works 0..5 ("work") and receives 5..7. The send's Leave is
// `send_leave`: 2 for a message that went eagerly, 6 for one that waited for the posting at 5.
Scenario LateReceiver(uint64_t bytes, uint64_t send_leave, const std::string& call = "MPI_Send") {
  Scenario s(2);
  s.rank(0).Enter(0, "main").Send(1, send_leave, 1, 7, bytes, call).Leave(20, "main");
  s.rank(1).Enter(0, "main").Call(0, 5, "work").Recv(5, 7, 0, 7, bytes).Leave(20, "main");
  return s;
}

TEST(ReplayRulesTest, EagerSendDoesNotWaitForItsReceiver) {
  // 8 bytes, eager: work x2 on rank 1 moves the receive to 10..12 (ready = max(10, 1), cost 2);
  // the send still leaves at 2.
  // Rank 0's events: main, MPI_Send, send record, /MPI_Send, /main.
  Replayed r = Replay(LateReceiver(8, 2), ComputeScaled("work=2@1"));
  EXPECT_EQ(r.Time(0, 3), 2u);
  EXPECT_EQ(r.Time(1, 5), 12u);
}

TEST(ReplayRulesTest, RendezvousSendWaitsForItsReceiver) {
  // 1 MiB, above the 64 KiB eager limit: the send waited for the posting at 5 and cost 6 - 5 =
  // 1 after it. Work x2 on rank 1 posts at 10: the send leaves at 10 + 1 = 11.
  Replayed r = Replay(LateReceiver(1 << 20, 6), ComputeScaled("work=2@1"));
  EXPECT_EQ(r.Time(0, 3), 11u);
  EXPECT_EQ(r.Time(1, 5), 12u);
  ExpectIdentity(Replay(LateReceiver(1 << 20, 6)));
}

TEST(ReplayRulesTest, SynchronousSendWaitsWhateverItsSize) {
  Replayed r = Replay(LateReceiver(8, 6, "MPI_Ssend"), ComputeScaled("work=2@1"));
  EXPECT_EQ(r.Time(0, 3), 11u);
}

TEST(ReplayRulesTest, ALargeSendThatLeftBeforeThePostingWasBuffered) {
  // 1 MiB, but the measured send left at 2, before the receive was posted at 5: it went eagerly
  // in the traced run, so the later posting does not hold it.
  Replayed r = Replay(LateReceiver(1 << 20, 2), ComputeScaled("work=2@1"));
  EXPECT_EQ(r.Time(0, 3), 2u);
}

TEST(ReplayRulesTest, LowerEagerLimitMakesASendWait) {
  // --eager-limit 4 on the 8-byte send: it now waits for the posting at 5 (no offset: the
  // measured run had none), and keeps its measured cost 2 - 1 = 1: Leave = 5 + 1 = 6.
  Perturbation p;
  p.network.eager_limit = 4;
  Replayed r = Replay(LateReceiver(8, 2), p);
  EXPECT_EQ(r.Time(0, 3), 6u);
}

// ---- Non-blocking point-to-point ---------------------------------------------------------------

TEST(ReplayRulesTest, NonBlockingPairCompletesInTheWaits) {
  // Rank 0: works 0..3, MPI_Isend 3..4 (request 1), works 4..6, MPI_Wait 6..7 (IsendComplete).
  // Rank 1: MPI_Irecv 0..1 (request 2, posted at 0), works 1..2, MPI_Wait 2..8 (Irecv record):
  // ready at the Isend's start 3, cost 8 - 3 = 5.
  // Work x2 on rank 0: the Isend runs 6..7, the work after it 7..11, the Wait 11..12 (eager:
  // no dependency). Rank 1's Wait: ready = max(2, 6) = 6, Leave = 6 + 5 = 11.
  Scenario s(2);
  s.rank(0)
      .Enter(0, "main")
      .Call(0, 3, "work")
      .Isend(3, 4, 1, 7, 8, 1)
      .Call(4, 6, "work")
      .Complete(6, 7, "MPI_Wait", [](RankScript& r) { r.IsendCompleteEvent(7, 1); })
      .Leave(20, "main");
  s.rank(1)
      .Enter(0, "main")
      .Irecv(0, 1, 2)
      .Call(1, 2, "work")
      .Complete(2, 8, "MPI_Wait", [](RankScript& r) { r.IrecvEvent(8, 0, 7, 8, 2); })
      .Leave(20, "main");
  ExpectIdentity(Replay(s));
  Replayed r = Replay(s, ComputeScaled("work=2@0"));
  // rank 0: main, work, /work, Isend, isend, /Isend, work, /work, Wait, complete, /Wait, /main
  EXPECT_EQ(r.Time(0, 3), 6u);
  EXPECT_EQ(r.Time(0, 8), 11u);
  EXPECT_EQ(r.Time(0, 10), 12u);
  // rank 1: main, Irecv, request, /Irecv, work, /work, Wait, irecv, /Wait, /main
  EXPECT_EQ(r.Time(1, 6), 2u);
  EXPECT_EQ(r.Time(1, 8), 11u);
  EXPECT_EQ(r.End(1), 23u);
}

TEST(ReplayRulesTest, WaitallWaitsForTheLastOfItsMessages) {
  // Rank 2 posts two receives and waits for both 1..9; rank 0 sends at 3, rank 1 at 5: ready at
  // 5, cost 4. Work x3 on rank 0 (0..3 becomes 0..9): ready = max(1, 9, 5) = 9, Leave 13.
  Scenario s(3);
  s.rank(0).Enter(0, "main").Call(0, 3, "work").Send(3, 4, 2, 0, 8).Leave(20, "main");
  s.rank(1).Enter(0, "main").Call(0, 5, "work").Send(5, 6, 2, 0, 8).Leave(20, "main");
  s.rank(2)
      .Enter(0, "main")
      .Irecv(0, 0, 1)
      .Irecv(0, 1, 2)
      .Complete(1, 9, "MPI_Waitall",
                [](RankScript& r) { r.IrecvEvent(9, 0, 0, 8, 1).IrecvEvent(9, 1, 0, 8, 2); })
      .Leave(20, "main");
  ExpectIdentity(Replay(s));
  Replayed r = Replay(s, ComputeScaled("work=3@0"));
  // rank 2: main, Irecv, req, /Irecv, Irecv, req, /Irecv, Waitall, irecv, irecv, /Waitall
  EXPECT_EQ(r.Time(2, 10), 13u);
}

// ---- Probes ------------------------------------------------------------------------------------

TEST(ReplayRulesTest, BlockingProbeWaitsForTheMessageOfTheNextReceive) {
  // Rank 1 probes 1..5 (the message was sent at 4; Score-P writes a probe as a plain call) and
  // receives 5..6. Work x2 on rank 0: the send starts at 8; the probe: ready 8, cost 5 - 4 = 1,
  // Leave 9; the receive 9..10 (ready at 9 already).
  Scenario s(2);
  s.rank(0).Enter(0, "main").Call(0, 4, "work").Send(4, 5, 1, 7, 8).Leave(20, "main");
  s.rank(1).Enter(0, "main").Call(1, 5, "MPI_Probe").Recv(5, 6, 0, 7, 8).Leave(20, "main");
  ExpectIdentity(Replay(s));
  Replayed r = Replay(s, ComputeScaled("work=2@0"));
  // rank 1: main, Probe, /Probe, Recv, recv, /Recv, /main
  EXPECT_EQ(r.Time(1, 2), 9u);
  EXPECT_EQ(r.Time(1, 5), 10u);
}

// ---- Collectives -------------------------------------------------------------------------------

// Three ranks work 0..1, 0..2, 0..4 and enter MPI_Allreduce then; all leave at 5.
Scenario StaggeredCollective(const std::string& call, OTF2_CollectiveOp op, uint32_t root) {
  Scenario s(3);
  const uint64_t arrive[3] = {1, 2, 4};
  for (int r = 0; r < 3; ++r) {
    s.rank(r)
        .Enter(0, "main")
        .Call(0, arrive[r], "work")
        .Collective(arrive[r], 5, call, op, 8, 8, root)
        .Leave(10, "main");
  }
  return s;
}

TEST(ReplayRulesTest, AllreduceWaitsForTheLastArrival) {
  // Ready at the last arrival 4, cost 1. Work x3 on rank 1 (arrives at 6): everyone leaves at
  // 6 + 1 = 7. Events: main, work, /work, Allreduce, begin, end, /Allreduce, /main.
  Scenario s =
      StaggeredCollective("MPI_Allreduce", OTF2_COLLECTIVE_OP_ALLREDUCE, OTF2_UNDEFINED_UINT32);
  ExpectIdentity(Replay(s));
  Replayed r = Replay(s, ComputeScaled("work=3@1"));
  for (uint32_t l = 0; l < 3; ++l) {
    EXPECT_EQ(r.Time(l, 6), 7u) << "rank " << l;
    EXPECT_EQ(r.End(l), 12u) << "rank " << l;
  }
  // Work x0.5 on rank 2 (arrives at 2): the last arrival is at 2 on ranks 1 and 2, Leave 3.
  Replayed faster = Replay(s, ComputeScaled("work=0.5@2"));
  for (uint32_t l = 0; l < 3; ++l) EXPECT_EQ(faster.Time(l, 6), 3u) << "rank " << l;
}

TEST(ReplayRulesTest, BroadcastWaitsForItsRootOnly) {
  // Root 0 arrives at 1. Work x3 on rank 2 (arrives at 12): ranks 0 and 1 still leave at 5
  // (rank 1: ready max(2, 1) = 2, cost 3); rank 2: ready 12, cost 5 - 4 = 1, Leave 13.
  Scenario s = StaggeredCollective("MPI_Bcast", OTF2_COLLECTIVE_OP_BCAST, 0);
  ExpectIdentity(Replay(s));
  Replayed r = Replay(s, ComputeScaled("work=3@2"));
  EXPECT_EQ(r.Time(0, 6), 5u);
  EXPECT_EQ(r.Time(1, 6), 5u);
  EXPECT_EQ(r.Time(2, 6), 13u);
  // Work x3 on the root (arrives at 3): rank 1 ready at 3, Leave 3 + 3 = 6.
  Replayed late_root = Replay(s, ComputeScaled("work=3@0"));
  EXPECT_EQ(late_root.Time(1, 6), 6u);
  EXPECT_EQ(late_root.Time(2, 6), 5u);
}

TEST(ReplayRulesTest, ReduceRootWaitsForAllOthersDoNot) {
  // Root 2 arrives last at 4. Work x3 on rank 0 (arrives 3): nothing changes for the root (ready
  // still 4); rank 0's Leave: ready 3, cost 5 - 1 = 4, Leave 7.
  Scenario s = StaggeredCollective("MPI_Reduce", OTF2_COLLECTIVE_OP_REDUCE, 2);
  ExpectIdentity(Replay(s));
  Replayed r = Replay(s, ComputeScaled("work=3@0"));
  EXPECT_EQ(r.Time(2, 6), 5u);
  EXPECT_EQ(r.Time(0, 6), 7u);
  // Work x3 on rank 1 (arrives at 6): the root leaves at 6 + 1 = 7.
  EXPECT_EQ(Replay(s, ComputeScaled("work=3@1")).Time(2, 6), 7u);
}

TEST(ReplayRulesTest, ScanWaitsForLowerRanks) {
  // Work x5 on rank 1 (arrives 10): rank 0 unchanged (5); rank 1 ready 10, cost 5 - 2 = 3, 13;
  // rank 2: ready max(4, 10) = 10, cost 1, 11.
  Scenario s = StaggeredCollective("MPI_Scan", OTF2_COLLECTIVE_OP_SCAN, OTF2_UNDEFINED_UINT32);
  ExpectIdentity(Replay(s));
  Replayed r = Replay(s, ComputeScaled("work=5@1"));
  EXPECT_EQ(r.Time(0, 6), 5u);
  EXPECT_EQ(r.Time(1, 6), 13u);
  EXPECT_EQ(r.Time(2, 6), 11u);
}

TEST(ReplayRulesTest, CollectiveLatencyFollowsTheAlgorithmFamily) {
  // Latency +1 on 3 members: an allreduce of 8 bytes (recursive doubling) has ceil(log2 3) = 2
  // rounds: ready = 4 + 2, Leave 7 on every rank.
  Perturbation p;
  p.network.latency = 2;
  p.network.base_latency = 1;
  Scenario s =
      StaggeredCollective("MPI_Allreduce", OTF2_COLLECTIVE_OP_ALLREDUCE, OTF2_UNDEFINED_UINT32);
  Replayed r = Replay(s, p);
  for (uint32_t l = 0; l < 3; ++l) EXPECT_EQ(r.Time(l, 6), 7u) << "rank " << l;
  // An alltoall is linear: p - 1 = 2 rounds as well; a gather's root too, its others none.
  Scenario g = StaggeredCollective("MPI_Gather", OTF2_COLLECTIVE_OP_GATHER, 0);
  Replayed rg = Replay(g, p);
  EXPECT_EQ(rg.Time(0, 6), 7u);  // root: ready 4 + 2, cost 1
  EXPECT_EQ(rg.Time(2, 6), 5u);
}

// ---- Noise -------------------------------------------------------------------------------------

TEST(ReplayRulesTest, NoiseIsAddedOncePerComputationPhaseOnChosenRanks) {
  // Constant noise 1 on rank 0 only: its phases before MPI_Send (work) and... rank 0 has one MPI
  // call, preceded by computation: the send starts at 5, leaves 6, main ends 11. Rank 1: ready
  // max(1, 5) = 5, Leave 7.
  Perturbation p;
  p.noise = Distribution::Constant(1);
  p.noise_ranks = *ParseRankSet("0");
  Replayed r = Replay(BlockingPair(), p);
  EXPECT_EQ(r.Time(0, 3), 5u);
  EXPECT_EQ(r.End(0), 11u);
  EXPECT_EQ(r.Time(1, 3), 7u);
}

// ---- What cannot be paired ---------------------------------------------------------------------

TEST(ReplayRulesTest, HeadToHeadRendezvousSendsAreResolvedEagerly) {
  // Both ranks send 8 bytes to each other at 1 (buffered: Leave 2) and receive 2..3. With an
  // eager limit of 4 both sends wait for a posting that comes after them: a cycle the traced
  // run resolved by buffering. One send completes eagerly; the replay finishes.
  Scenario s(2);
  for (int r = 0; r < 2; ++r) {
    s.rank(r).Enter(0, "main").Send(1, 2, 1 - r, 0, 8).Recv(2, 3, 1 - r, 0, 8).Leave(5, "main");
  }
  Perturbation p;
  p.network.eager_limit = 4;
  Replayed r = Replay(s, p);
  EXPECT_EQ(r.result.stats.eager_resolved, 1u);
  EXPECT_EQ(r.result.stats.cycles_broken, 0u);
  EXPECT_EQ(r.result.stats.events, r.trace.EventCount());
}

TEST(ReplayRulesTest, CancelledSendTakesNoReceive) {
  // Rank 0 cancels its MPI_Isend (1..2, request 1; cancelled in the MPI_Wait 3..4), works 4..6
  // and sends again 6..7 on the same channel. Rank 1's receive 2..8 takes the second send:
  // ready at 6, cost 2. Work x2 on rank 0: the send starts at 8, the receive leaves at 10 (had
  // it taken the cancelled send, it would be ready at 2 with cost 6 and leave at 8).
  Scenario s(2);
  s.rank(0)
      .Enter(0, "main")
      .Isend(1, 2, 1, 0, 8, 1)
      .Complete(3, 4, "MPI_Wait", [](RankScript& r) { r.RequestCancelledEvent(4, 1); })
      .Call(4, 6, "work")
      .Send(6, 7, 1, 0, 8)
      .Leave(20, "main");
  s.rank(1).Enter(0, "main").Recv(2, 8, 0, 0, 8).Leave(20, "main");
  ExpectIdentity(Replay(s));
  Replayed r = Replay(s, ComputeScaled("work=2@0"));
  // rank 1: main, Recv, recv, /Recv, /main
  EXPECT_EQ(r.Time(1, 3), 10u);
  EXPECT_EQ(r.result.stats.cancelled_requests, 1u);
  EXPECT_EQ(r.result.stats.unmatched_sends, 0u);
}

TEST(ReplayRulesTest, NonBlockingBarrierCompletesAfterTheLastStart) {
  // Three ranks work until 1, 2 and 7, start MPI_Ibarrier there (the request record at the
  // call's Enter) for 1 tick, and complete it in MPI_Wait: ranks 0 and 1 wait 3..8 (ready at
  // the last start, 7; cost 1), rank 2 works 8..9 and waits 9..10 (ready at 9, cost 1).
  // Work x2 on rank 2: it starts at 14 (Ibarrier 14..15, work 15..17, Wait 17..18: ready 17);
  // ranks 0 and 1 are ready at 14 and leave their Wait at 15.
  Scenario s(3);
  const uint64_t start[3] = {1, 2, 7};
  for (int rank = 0; rank < 3; ++rank) {
    RankScript& r = s.rank(rank);
    r.Enter(0, "main").Call(0, start[rank], "work");
    r.Enter(start[rank], "MPI_Ibarrier")
        .NbcRequestEvent(start[rank], 5)
        .Leave(start[rank] + 1, "MPI_Ibarrier");
    const uint64_t wait = rank == 2 ? 9 : 3, done = rank == 2 ? 10 : 8;
    if (rank == 2) r.Call(8, 9, "work");
    r.Complete(wait, done, "MPI_Wait", [done](RankScript& w) {
      w.NbcCompleteEvent(done, OTF2_COLLECTIVE_OP_BARRIER, 0, OTF2_UNDEFINED_UINT32, 0, 0, 5);
    });
    r.Leave(20, "main");
  }
  ExpectIdentity(Replay(s));
  Replayed r = Replay(s, ComputeScaled("work=2@2"));
  // ranks 0, 1: main, work, /work, Ibarrier, request, /Ibarrier, Wait, complete, /Wait, /main
  EXPECT_EQ(r.Time(0, 8), 15u);
  EXPECT_EQ(r.Time(1, 8), 15u);
  // rank 2: ... /Ibarrier(5), work, /work, Wait(8), complete, /Wait(10), /main
  EXPECT_EQ(r.Time(2, 10), 18u);
  EXPECT_EQ(r.result.stats.collectives, 3u);
}

// ---- RMA epochs (post-start-complete-wait) ---------------------------------------------------

// Rank 0 works 0..6, posts 6..7 (origins {1}) and waits 7..12; rank 1 starts an access epoch to
// {0} (MPI_Win_start start_enter..start_leave), puts 8..9 and completes 9..10. Both end at `end`.
Scenario PscwEpoch(uint64_t start_enter, uint64_t start_leave, uint64_t end) {
  Scenario s(2);
  const uint32_t win = s.AddWindow(0);
  const uint32_t origins = s.AddGroup({1}), targets = s.AddGroup({0});
  s.rank(0)
      .Enter(0, "main")
      .Call(0, 6, "work")
      .RmaGroupSync(6, 7, "MPI_Win_post", win, origins)
      .RmaGroupSync(7, 12, "MPI_Win_wait", win, origins)
      .Leave(end, "main");
  s.rank(1)
      .Enter(0, "main")
      .RmaGroupSync(start_enter, start_leave, "MPI_Win_start", win, targets)
      .RmaTransfer(8, 9, "MPI_Put", win, 0, 4, 1)
      .RmaGroupSync(9, 10, "MPI_Win_complete", win, targets,
                    [&](RankScript& r) { r.RmaOpCompleteEvent(10, win, 1); })
      .Leave(end, "main");
  return s;
}

TEST(ReplayRulesTest, PscwStartAndCompleteWaitForThePostAndWaitForTheComplete) {
  // The start 2..8 blocked until the post at 6: ready 6, cost 2; the complete was ready at its
  // Enter (9), cost 1; the wait ready at the complete's Enter (9), cost 3.
  // Work x2 on rank 0: the post enters at 12 (12..13), the start leaves at 12 + 2 = 14, the put
  // runs 14..15, the complete 15..16; the wait (entered 13) is ready at 15 and leaves at 18.
  Scenario s = PscwEpoch(2, 8, 20);
  ExpectIdentity(Replay(s));
  Replayed r = Replay(s, ComputeScaled("work=2@0"));
  // rank 1: main, Start, sync, /Start, Put, put, /Put, Complete, op, sync, /Complete, /main
  EXPECT_EQ(r.Time(1, 3), 14u);
  EXPECT_EQ(r.Time(1, 10), 16u);
  // rank 0: main, work, /work, Post, sync, /Post, Wait, sync, /Wait, /main
  EXPECT_EQ(r.Time(0, 8), 18u);
  EXPECT_EQ(r.result.stats.epoch_syncs, 2u);  // the post and the complete
  EXPECT_EQ(r.result.stats.unmatched_epoch_syncs + r.result.stats.cycles_broken, 0u);
}

TEST(ReplayRulesTest, PscwStartThatReturnedBeforeThePostDoesNotWaitForIt) {
  // Rank 1's start returns at 2, before the post (6); its complete 9..10 waited for nothing
  // (ready 9, cost 1). Work x3 on rank 0 (post at 18..19, wait 19..): the start still leaves at
  // 2 and the put runs 8..9, but the complete waits for the post: ready 18, Leave 19; the wait
  // is ready at 19 and leaves at 19 + (12 - 9) = 22.
  Scenario s = PscwEpoch(1, 2, 30);
  ExpectIdentity(Replay(s));
  Replayed r = Replay(s, ComputeScaled("work=3@0"));
  EXPECT_EQ(r.Time(1, 3), 2u);
  EXPECT_EQ(r.Time(1, 6), 9u);
  EXPECT_EQ(r.Time(1, 10), 19u);
  EXPECT_EQ(r.Time(0, 8), 22u);
}

TEST(ReplayRulesTest, ReceiveWithoutSendAndCollectiveWithoutAllMembersComplete) {
  Scenario s(3);
  s.rank(0).Enter(0, "main").Recv(1, 3, 1, 9, 8).Leave(5, "main");  // rank 1 never sends
  s.rank(1)
      .Enter(0, "main")
      .Collective(1, 2, "MPI_Barrier", OTF2_COLLECTIVE_OP_BARRIER, 0, 0)
      .Leave(5, "main");
  s.rank(2)
      .Enter(0, "main")
      .Collective(1, 2, "MPI_Barrier", OTF2_COLLECTIVE_OP_BARRIER, 0, 0)
      .Leave(5, "main");  // rank 0 never enters the barrier
  Replayed r = Replay(s);
  EXPECT_EQ(r.result.stats.unmatched_receives, 1u);
  EXPECT_EQ(r.result.stats.incomplete_collectives, 2u);
  EXPECT_EQ(r.result.stats.events, r.trace.EventCount());
  ExpectIdentity(r);
}

}  // namespace
}  // namespace cw::sim
