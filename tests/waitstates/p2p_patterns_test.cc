// Point-to-point wait states on hand-built traces. One tick is one second, so every expected
// value is a plain number of seconds; each test derives it from the definitions in
// docs/metrics.md (Scalasca 2.6's, Böhme 2013 §2.4).
#include <gtest/gtest.h>

#include "tests/common/analysis_fixture.h"

namespace cw::test {
namespace {

using testing::RankScript;
using testing::Scenario;

TEST(LateSenderTest, BlockingReceiveWaitsForLateSend) {
  // Rank 1 enters MPI_Recv at 4; rank 0 enters MPI_Send at 10 (send record at 10); the
  // receive completes at 12. Late Sender = min(Enter(send)=10, Leave(recv)=12) - Enter(recv)=4
  // = 6, on rank 1 at main/MPI_Recv.
  Scenario s(2);
  s.rank(0).Enter(0, "main").Send(10, 11, 1, 0, 8).Leave(20, "main");
  s.rank(1).Enter(0, "main").Recv(4, 12, 0, 0, 8).Leave(20, "main");
  Analysis a = AnalyzeScenario(s);
  EXPECT_EQ(a.Value("mpi_latesender", "main/MPI_Recv", 1), 6.0);
  EXPECT_EQ(a.Total("mpi_latesender"), 6.0);
  EXPECT_EQ(a.Value("mpi_cls_count", "main/MPI_Recv", 1), 1.0);
  EXPECT_EQ(a.Total("mpi_latereceiver"), 0.0);
  ASSERT_FALSE(a.report.instances.empty());
  const report::Instance& worst = a.report.instances[0];
  EXPECT_EQ(worst.metric, analysis::MetricId::kMpiLateSender);
  EXPECT_EQ(worst.location, 1u);
  EXPECT_EQ(worst.time, 4.0);
  EXPECT_EQ(worst.value, 6.0);
  EXPECT_EQ(worst.partner, 0u);
  EXPECT_EQ(a.report.trace.clock_violations_p2p, 0u);
}

TEST(LateSenderTest, EarlySendIsNoWait) {
  // The send starts (2) before the receive is entered (4): no waiting.
  Scenario s(2);
  s.rank(0).Enter(0, "main").Send(2, 3, 1, 0, 8).Leave(20, "main");
  s.rank(1).Enter(0, "main").Recv(4, 5, 0, 0, 8).Leave(20, "main");
  Analysis a = AnalyzeScenario(s);
  EXPECT_EQ(a.Total("mpi_latesender"), 0.0);
  EXPECT_EQ(a.Total("mpi_cls_count"), 0.0);
}

TEST(LateSenderTest, NonBlockingReceiveWaitsInWait) {
  // Rank 1 posts Irecv [1,2] and waits in MPI_Wait from 3; the Isend starts at 10 and the Wait
  // completes at 12. The wait is measured from the Wait's Enter, not the Irecv's:
  // min(10, 12) - 3 = 7 at main/MPI_Wait.
  Scenario s(2);
  s.rank(0)
      .Enter(0, "main")
      .Isend(10, 11, 1, 0, 8, 1)
      .Complete(11, 13, "MPI_Wait", [](RankScript& r) { r.IsendCompleteEvent(13, 1); })
      .Leave(20, "main");
  s.rank(1)
      .Enter(0, "main")
      .Irecv(1, 2, 9)
      .Complete(3, 12, "MPI_Wait", [](RankScript& r) { r.IrecvEvent(12, 0, 0, 8, 9); })
      .Leave(20, "main");
  Analysis a = AnalyzeScenario(s);
  EXPECT_EQ(a.Value("mpi_latesender", "main/MPI_Wait", 1), 7.0);
  EXPECT_EQ(a.Total("mpi_latesender"), 7.0);
}

TEST(LateSenderTest, TestNeverWaits) {
  // The same message completed by MPI_Test (which returns at once by definition) is no wait.
  Scenario s(2);
  s.rank(0).Enter(0, "main").Send(10, 11, 1, 0, 8).Leave(20, "main");
  s.rank(1)
      .Enter(0, "main")
      .Irecv(1, 2, 9)
      .Complete(3, 12, "MPI_Test", [](RankScript& r) { r.IrecvEvent(12, 0, 0, 8, 9); })
      .Leave(20, "main");
  Analysis a = AnalyzeScenario(s);
  EXPECT_EQ(a.Total("mpi_latesender"), 0.0);
  EXPECT_EQ(a.Value("comms_recv", "main/MPI_Test", 1), 1.0);  // still a received message
}

TEST(LateSenderTest, WaitallCountsOnlyTheLatestSender) {
  // Rank 2 waits in MPI_Waitall from 2 for messages from rank 0 (sent at 5) and rank 1 (sent at
  // 9); the Waitall ends at 10. Candidates: 5-2 = 3 and 9-2 = 7. Only the latest sender counts,
  // once: 7 at main/MPI_Waitall, one instance.
  Scenario s(3);
  s.rank(0).Enter(0, "main").Send(5, 6, 2, 0, 8).Leave(20, "main");
  s.rank(1).Enter(0, "main").Send(9, 10, 2, 0, 8).Leave(20, "main");
  s.rank(2)
      .Enter(0, "main")
      .Irecv(0, 1, 1)
      .Irecv(1, 2, 2)
      .Complete(2, 10, "MPI_Waitall",
                [](RankScript& r) { r.IrecvEvent(10, 0, 0, 8, 1).IrecvEvent(10, 1, 0, 8, 2); })
      .Leave(20, "main");
  Analysis a = AnalyzeScenario(s);
  EXPECT_EQ(a.Value("mpi_latesender", "main/MPI_Waitall", 2), 7.0);
  EXPECT_EQ(a.Total("mpi_latesender"), 7.0);
  EXPECT_EQ(a.Value("mpi_cls_count", "main/MPI_Waitall", 2), 1.0);
  EXPECT_EQ(a.report.instances[0].partner, 1u);
}

TEST(LateSenderTest, SendAfterTheReceiveEndedIsClampedAndCounted) {
  // Rank 0's send call starts at 15, after rank 1's receive ended at 12: the clocks disagree.
  // The violation is counted (send record 15 > receive record 12) and the wait is clamped to
  // the receive's own duration: min(15, 12) - 4 = 8.
  Scenario s(2);
  s.rank(0).Enter(0, "main").Send(15, 16, 1, 0, 8).Leave(20, "main");
  s.rank(1).Enter(0, "main").Recv(4, 12, 0, 0, 8).Leave(20, "main");
  Analysis a = AnalyzeScenario(s);
  EXPECT_EQ(a.report.trace.clock_violations_p2p, 1u);
  EXPECT_EQ(a.Value("mpi_latesender", "main/MPI_Recv", 1), 8.0);
}

TEST(LateSenderTest, SendrecvWaitsForItsReceiveHalf) {
  // Two ranks exchange with MPI_Sendrecv; rank 1 enters at 2, rank 0 at 6 (its send starts
  // then); rank 1 leaves at 7. Rank 1 waits min(6, 7) - 2 = 4; rank 0 does not wait.
  Scenario s(2);
  s.rank(0).Enter(0, "main").Sendrecv(6, 8, 1, 0, 1, 0, 8).Leave(20, "main");
  s.rank(1).Enter(0, "main").Sendrecv(2, 7, 0, 0, 0, 0, 8).Leave(20, "main");
  Analysis a = AnalyzeScenario(s);
  EXPECT_EQ(a.Value("mpi_latesender", "main/MPI_Sendrecv", 1), 4.0);
  EXPECT_EQ(a.LocationTotal("mpi_latesender", 0), 0.0);
  EXPECT_EQ(a.Total("mpi_latereceiver"), 0.0);  // Sendrecv never waits for a late receiver
}

TEST(WrongOrderTest, DifferentSources) {
  // Rank 2 first receives from rank 0 (in region "first"), which sends late, at 10: Late
  // Sender 10 - 1 = 9. Then it receives from rank 1 (in "second"), whose message was sent
  // earlier, at 3: the first wait came from receiving in the wrong order. The 9 s stay in
  // mpi_latesender and are also counted as wrong order from different sources, at the call path
  // of the first receive.
  Scenario s(3);
  s.rank(0).Enter(0, "main").Send(10, 11, 2, 0, 8).Leave(20, "main");
  s.rank(1).Enter(0, "main").Send(3, 4, 2, 0, 8).Leave(20, "main");
  s.rank(2)
      .Enter(0, "main")
      .Enter(1, "first")
      .Recv(1, 11, 0, 0, 8)
      .Leave(11, "first")
      .Enter(11, "second")
      .Recv(11, 12, 1, 0, 8)
      .Leave(12, "second")
      .Leave(20, "main");
  Analysis a = AnalyzeScenario(s);
  EXPECT_EQ(a.Value("mpi_latesender", "main/first/MPI_Recv", 2), 9.0);
  EXPECT_EQ(a.Value("mpi_latesender_wo", "main/first/MPI_Recv", 2), 9.0);
  EXPECT_EQ(a.Value("mpi_lswo_different", "main/first/MPI_Recv", 2), 9.0);
  EXPECT_EQ(a.Total("mpi_lswo_same"), 0.0);
  EXPECT_EQ(a.Total("mpi_latesender"), 9.0);
  EXPECT_EQ(a.Value("mpi_clswo_count", "main/first/MPI_Recv", 2), 1.0);
}

TEST(WrongOrderTest, SameSource) {
  // Rank 0 sends tag 2 at 3 and tag 1 at 10; rank 1 receives tag 1 first (waits 10 - 1 = 9),
  // then tag 2, which was sent earlier: wrong order from the same source, 9 s.
  Scenario s(2);
  s.rank(0).Enter(0, "main").Send(3, 4, 1, 2, 8).Send(10, 11, 1, 1, 8).Leave(20, "main");
  s.rank(1).Enter(0, "main").Recv(1, 11, 0, 1, 8).Recv(11, 12, 0, 2, 8).Leave(20, "main");
  Analysis a = AnalyzeScenario(s);
  EXPECT_EQ(a.Total("mpi_latesender"), 9.0);
  EXPECT_EQ(a.Total("mpi_lswo_same"), 9.0);
  EXPECT_EQ(a.Total("mpi_lswo_different"), 0.0);
  EXPECT_EQ(a.Total("mpi_latesender_wo"), 9.0);
}

TEST(LateReceiverTest, SynchronousSendWaitsForTheReceive) {
  // Rank 0 enters MPI_Ssend at 2; rank 1 posts its receive (enters MPI_Recv) at 8; both leave at
  // 10. Late Receiver = Enter(recv)=8 - Enter(send)=2 = 6 at main/MPI_Ssend on rank 0, because
  // the send call was still running when the receive was posted (10 > 8). The receiver does not
  // wait: min(2, 10) - 8 < 0.
  Scenario s(2);
  s.rank(0).Enter(0, "main").Send(2, 10, 1, 0, 1 << 20, "MPI_Ssend").Leave(20, "main");
  s.rank(1).Enter(0, "main").Recv(8, 10, 0, 0, 1 << 20).Leave(20, "main");
  Analysis a = AnalyzeScenario(s);
  EXPECT_EQ(a.Value("mpi_latereceiver", "main/MPI_Ssend", 0), 6.0);
  EXPECT_EQ(a.Value("mpi_clr_count", "main/MPI_Ssend", 0), 1.0);
  EXPECT_EQ(a.Total("mpi_latesender"), 0.0);
  EXPECT_EQ(a.report.instances[0].partner, 1u);
}

TEST(LateReceiverTest, SendThatEndsBeforeTheReceiveIsPostedDoesNotWait) {
  // An eager MPI_Send [2, 3] ends before the receive is posted at 8: no Late Receiver.
  Scenario s(2);
  s.rank(0).Enter(0, "main").Send(2, 3, 1, 0, 8).Leave(20, "main");
  s.rank(1).Enter(0, "main").Recv(8, 9, 0, 0, 8).Leave(20, "main");
  Analysis a = AnalyzeScenario(s);
  EXPECT_EQ(a.Total("mpi_latereceiver"), 0.0);
}

TEST(LateReceiverTest, BufferedSendNeverWaitsForTheReceiver) {
  Scenario s(2);
  s.rank(0).Enter(0, "main").Send(2, 10, 1, 0, 8, "MPI_Bsend").Leave(20, "main");
  s.rank(1).Enter(0, "main").Recv(8, 10, 0, 0, 8).Leave(20, "main");
  Analysis a = AnalyzeScenario(s);
  EXPECT_EQ(a.Total("mpi_latereceiver"), 0.0);
}

TEST(LateReceiverTest, IsendCompletedByWait) {
  // Rank 0: Isend [1, 2], MPI_Wait [2, 10] completes it. Rank 1 posts Irecv at 7. Late Receiver
  // = 7 - 2 = 5 at main/MPI_Wait on rank 0.
  Scenario s(2);
  s.rank(0)
      .Enter(0, "main")
      .Isend(1, 2, 1, 0, 8, 4)
      .Complete(2, 10, "MPI_Wait", [](RankScript& r) { r.IsendCompleteEvent(10, 4); })
      .Leave(20, "main");
  s.rank(1)
      .Enter(0, "main")
      .Irecv(7, 8, 3)
      .Complete(8, 9, "MPI_Wait", [](RankScript& r) { r.IrecvEvent(9, 0, 0, 8, 3); })
      .Leave(20, "main");
  Analysis a = AnalyzeScenario(s);
  EXPECT_EQ(a.Value("mpi_latereceiver", "main/MPI_Wait", 0), 5.0);
  EXPECT_EQ(a.Total("mpi_latereceiver"), 5.0);
}

TEST(LateReceiverTest, WaitallCountsOnceWithTheLatestReceiver) {
  // Rank 0 waits in MPI_Waitall [2, 12] for two Isends; ranks 1 and 2 post their receives at 6
  // and 9. Candidates 6 - 2 = 4 and 9 - 2 = 7: the Waitall counts 7, once.
  Scenario s(3);
  s.rank(0)
      .Enter(0, "main")
      .Isend(0, 1, 1, 0, 8, 1)
      .Isend(1, 2, 2, 0, 8, 2)
      .Complete(2, 12, "MPI_Waitall",
                [](RankScript& r) { r.IsendCompleteEvent(12, 1).IsendCompleteEvent(12, 2); })
      .Leave(20, "main");
  s.rank(1).Enter(0, "main").Recv(6, 7, 0, 0, 8).Leave(20, "main");
  s.rank(2).Enter(0, "main").Recv(9, 10, 0, 0, 8).Leave(20, "main");
  Analysis a = AnalyzeScenario(s);
  EXPECT_EQ(a.Value("mpi_latereceiver", "main/MPI_Waitall", 0), 7.0);
  EXPECT_EQ(a.Value("mpi_clr_count", "main/MPI_Waitall", 0), 1.0);
}

TEST(LateReceiverTest, WaitallThatWaitedForALateSenderIsNoLateReceiver) {
  // One Waitall completes a late Irecv (Late Sender) and a send to a late receiver: Scalasca's
  // rule gives the call to Late Sender only.
  Scenario s(2);
  s.rank(0)
      .Enter(0, "main")
      .Irecv(0, 1, 1)
      .Isend(1, 2, 1, 0, 8, 2)
      .Complete(2, 12, "MPI_Waitall",
                [](RankScript& r) { r.IrecvEvent(12, 1, 0, 8, 1).IsendCompleteEvent(12, 2); })
      .Leave(20, "main");
  s.rank(1).Enter(0, "main").Recv(6, 7, 0, 0, 8).Send(8, 9, 0, 0, 8).Leave(20, "main");
  Analysis a = AnalyzeScenario(s);
  EXPECT_EQ(a.Value("mpi_latesender", "main/MPI_Waitall", 0), 6.0);  // min(8, 12) - 2
  EXPECT_EQ(a.Total("mpi_latereceiver"), 0.0);
}

}  // namespace
}  // namespace cw::test
