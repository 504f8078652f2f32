#include <gtest/gtest.h>

#include "match/matcher.h"
#include "otf2/trace_reader.h"
#include "testing/scenario.h"

namespace cw::match {
namespace {

trace::Trace Read(const testing::Scenario& s) {
  Result<trace::Trace> t =
      otf2::ReadTrace(s.WriteOrDie(testing::MakeTempDir("match")), otf2::ReadOptions{});
  EXPECT_TRUE(t) << t.error().message();
  return std::move(*t);
}

// The tag of the send that message `id` carries, and the time its receive completed.
uint32_t SendTag(const trace::Trace& t, const Message& m) {
  return t.location(m.sender).p2p(m.send_event).tag;
}

TEST(P2pMatcherTest, MessagesOnOneChannelDoNotOvertake) {
  // Rank 0 sends three messages with tag 5; rank 1 receives three with tag 5. The k-th send
  // matches the k-th receive; the bytes tell them apart.
  testing::Scenario s(2);
  s.rank(0)
      .Enter(0, "main")
      .Send(1, 2, 1, 5, 10)
      .Send(3, 4, 1, 5, 20)
      .Send(5, 6, 1, 5, 30)
      .Leave(9, "main");
  s.rank(1)
      .Enter(0, "main")
      .Recv(1, 3, 0, 5, 10)
      .Recv(3, 5, 0, 5, 20)
      .Recv(5, 7, 0, 5, 30)
      .Leave(9, "main");
  trace::Trace t = Read(s);
  SyncGraph g = MatchTrace(t, 2);
  ASSERT_EQ(g.messages.size(), 3u);
  for (uint32_t k = 0; k < 3; ++k) {
    const Message& m = g.messages[g.by_location[1].first_received + k];
    EXPECT_EQ(t.location(0).p2p(m.send_event).bytes, t.location(1).p2p(m.recv_event).bytes);
  }
  EXPECT_EQ(g.stats.unmatched_sends + g.stats.unmatched_receives, 0u);
}

TEST(P2pMatcherTest, ReceivesMatchInPostingOrderNotCompletionOrder) {
  // Rank 1 posts Irecv A (request 1) then Irecv B (request 2), both from rank 0 with tag 7, and a
  // Waitall completes B's record first. The first send must match A, the one posted first.
  testing::Scenario s(2);
  s.rank(0).Enter(0, "main").Send(1, 2, 1, 7, 111).Send(3, 4, 1, 7, 222).Leave(9, "main");
  s.rank(1)
      .Enter(0, "main")
      .Irecv(1, 2, /*request=*/1)
      .Irecv(2, 3, /*request=*/2)
      .Complete(
          3, 6, "MPI_Waitall",
          [](testing::RankScript& r) { r.IrecvEvent(6, 0, 7, 222, 2).IrecvEvent(6, 0, 7, 111, 1); })
      .Leave(9, "main");
  trace::Trace t = Read(s);
  SyncGraph g = MatchTrace(t, 2);
  ASSERT_EQ(g.messages.size(), 2u);
  for (const Message& m : g.messages) {
    EXPECT_EQ(t.location(0).p2p(m.send_event).bytes, t.location(1).p2p(m.recv_event).bytes);
    EXPECT_EQ(t.location(1).kind(m.recv_posting), trace::EventKind::kMpiIrecvRequest);
    EXPECT_EQ(t.location(1).RequestId(m.recv_posting), t.location(1).RequestId(m.recv_event));
  }
}

TEST(P2pMatcherTest, DifferentTagsAreDifferentChannels) {
  // Sent tag 1 then tag 2, received tag 2 first: no cross-matching.
  testing::Scenario s(2);
  s.rank(0).Enter(0, "main").Send(1, 2, 1, 1, 8).Send(3, 4, 1, 2, 8).Leave(9, "main");
  s.rank(1).Enter(0, "main").Recv(1, 5, 0, 2, 8).Recv(5, 6, 0, 1, 8).Leave(9, "main");
  trace::Trace t = Read(s);
  SyncGraph g = MatchTrace(t, 1);
  ASSERT_EQ(g.messages.size(), 2u);
  for (const Message& m : g.messages) {
    EXPECT_EQ(SendTag(t, m), t.location(1).p2p(m.recv_event).tag);
  }
}

TEST(P2pMatcherTest, RequestsLinkToTheirCompletions) {
  testing::Scenario s(2);
  s.rank(0)
      .Enter(0, "main")
      .Isend(1, 2, 1, 3, 8, /*request=*/42)
      .Complete(5, 6, "MPI_Wait", [](testing::RankScript& r) { r.IsendCompleteEvent(6, 42); })
      .Leave(9, "main");
  s.rank(1).Enter(0, "main").Recv(1, 4, 0, 3, 8).Leave(9, "main");
  trace::Trace t = Read(s);
  SyncGraph g = MatchTrace(t, 1);
  ASSERT_EQ(g.messages.size(), 1u);
  const Message& m = g.messages[0];
  EXPECT_EQ(t.location(0).kind(SendCompletion(t, m)), trace::EventKind::kMpiIsendComplete);
  EXPECT_EQ(t.location(1).kind(m.recv_posting), trace::EventKind::kMpiRecv);  // blocking
}

TEST(P2pMatcherTest, CancelledRequestsTakeNoPart) {
  // Rank 0 cancels its first Isend; the receive matches the second send.
  testing::Scenario s(2);
  s.rank(0)
      .Enter(0, "main")
      .Isend(1, 2, 1, 3, 100, 1)
      .Complete(2, 3, "MPI_Cancel", [](testing::RankScript& r) { r.RequestCancelledEvent(3, 1); })
      .Send(4, 5, 1, 3, 200)
      .Leave(9, "main");
  s.rank(1).Enter(0, "main").Recv(1, 6, 0, 3, 200).Leave(9, "main");
  trace::Trace t = Read(s);
  SyncGraph g = MatchTrace(t, 1);
  ASSERT_EQ(g.messages.size(), 1u);
  EXPECT_EQ(t.location(0).p2p(g.messages[0].send_event).bytes, 200u);
  EXPECT_EQ(g.stats.cancelled_requests, 1u);
  EXPECT_EQ(g.stats.unmatched_sends, 0u);
  EXPECT_EQ(g.diagnostics.Count(kCancelledRequest), 1u);
}

TEST(P2pMatcherTest, SendrecvIsASendAndAReceive) {
  // Ring of 3: every rank sends to the next and receives from the previous in one Sendrecv.
  testing::Scenario s(3);
  for (int r = 0; r < 3; ++r) {
    s.rank(r).Enter(0, "main").Sendrecv(1, 5, (r + 1) % 3, 0, (r + 2) % 3, 0, 16).Leave(9, "main");
  }
  trace::Trace t = Read(s);
  SyncGraph g = MatchTrace(t, 3);
  ASSERT_EQ(g.messages.size(), 3u);
  for (const Message& m : g.messages) EXPECT_EQ(m.receiver, (m.sender + 1) % 3);
}

TEST(P2pMatcherTest, UnmatchedMessagesAreCountedNotFatal) {
  testing::Scenario s(2);
  s.rank(0).Enter(0, "main").Send(1, 2, 1, 1, 8).Send(3, 4, 1, 1, 8).Leave(9, "main");
  s.rank(1).Enter(0, "main").Recv(1, 3, 0, 1, 8).Recv(4, 6, 0, 9, 8).Leave(9, "main");
  trace::Trace t = Read(s);
  SyncGraph g = MatchTrace(t, 2);
  EXPECT_EQ(g.messages.size(), 1u);
  EXPECT_EQ(g.stats.unmatched_sends, 1u);
  EXPECT_EQ(g.stats.unmatched_receives, 1u);
  EXPECT_EQ(g.diagnostics.Count(kUnmatchedSend), 1u);
  EXPECT_EQ(g.diagnostics.Count(kUnmatchedReceive), 1u);
}

// Rank 1 stopped recording (a signal) after its first receive: rank 0's second send and rank
// 2's receive from rank 1 have no partner because of it, a warning; rank 2's receive from rank 0,
// which finalized, is still the error of a trace that lacks a record.
TEST(P2pMatcherTest, MessagesAfterTheirPartnerStoppedRecordingAreAWarning) {
  testing::Scenario s(3);
  s.rank(0).Enter(0, "main").Send(1, 2, 1, 1, 8).Send(3, 4, 1, 1, 8).Leave(9, "main");
  s.rank(1).Enter(0, "main").Recv(1, 3, 0, 1, 8).Leave(4, "main");
  s.rank(2).Enter(0, "main").Recv(1, 8, 1, 1, 8).Recv(8, 9, 0, 2, 8).Leave(9, "main");
  s.set_rank_ending(0, "finalized");
  s.set_rank_ending(1, "signal 11");
  s.set_rank_ending(2, "finalized");
  trace::Trace t = Read(s);
  SyncGraph g = MatchTrace(t, 2);
  EXPECT_EQ(g.messages.size(), 1u);
  EXPECT_EQ(g.stats.unmatched_sends, 1u);
  EXPECT_EQ(g.stats.unmatched_receives, 2u);
  EXPECT_EQ(g.diagnostics.Count(kMessageAfterRankEnded), 2u);
  EXPECT_EQ(g.diagnostics.Count(kUnmatchedSend), 0u);
  EXPECT_EQ(g.diagnostics.Count(kUnmatchedReceive), 1u);
}

TEST(P2pMatcherTest, UnknownPeersAreCounted) {
  testing::Scenario s(2);
  s.rank(0).Enter(0, "main").Send(1, 2, /*to=*/5, 1, 8).Leave(9, "main");
  s.rank(1).Call(0, 9, "main");
  trace::Trace t = Read(s);
  SyncGraph g = MatchTrace(t, 2);
  EXPECT_EQ(g.messages.size(), 0u);
  EXPECT_EQ(g.diagnostics.Count(kUnknownPeer), 1u);
}

TEST(P2pMatcherTest, SubCommunicatorRanksAreTranslated) {
  testing::Scenario s(4);
  uint32_t pair = s.AddComm({3, 0});  // comm rank 0 is world rank 3, comm rank 1 is world rank 0
  s.rank(3).Enter(0, "main").Send(1, 2, 1, 0, 8, "MPI_Send", pair).Leave(9, "main");
  s.rank(0).Enter(0, "main").Recv(1, 3, 0, 0, 8, pair).Leave(9, "main");
  s.rank(1).Call(0, 9, "main");
  s.rank(2).Call(0, 9, "main");
  trace::Trace t = Read(s);
  SyncGraph g = MatchTrace(t, 2);
  ASSERT_EQ(g.messages.size(), 1u);
  EXPECT_EQ(g.messages[0].sender, 3u);
  EXPECT_EQ(g.messages[0].receiver, 0u);
}

}  // namespace
}  // namespace cw::match
