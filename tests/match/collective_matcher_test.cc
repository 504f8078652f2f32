#include <gtest/gtest.h>

#include "match/matcher.h"
#include "otf2/trace_reader.h"
#include "testing/scenario.h"

namespace cw::match {
namespace {

trace::Trace ReadCollectives(const testing::Scenario& s) {
  Result<trace::Trace> t =
      otf2::ReadTrace(s.WriteOrDie(testing::MakeTempDir("coll")), otf2::ReadOptions{});
  EXPECT_TRUE(t) << t.error().message();
  return std::move(*t);
}

TEST(CollectiveMatcherTest, InstancesFollowPerCommunicatorSequence) {
  // Two barriers on the world and one broadcast on {0, 2}, interleaved differently per rank.
  testing::Scenario s(3);
  uint32_t evens = s.AddComm({0, 2});
  s.rank(0)
      .Enter(0, "main")
      .Collective(1, 2, "MPI_Barrier", OTF2_COLLECTIVE_OP_BARRIER, 0, 0)
      .Collective(3, 4, "MPI_Bcast", OTF2_COLLECTIVE_OP_BCAST, 8, 0, 0, evens)
      .Collective(5, 6, "MPI_Barrier", OTF2_COLLECTIVE_OP_BARRIER, 0, 0)
      .Leave(9, "main");
  s.rank(1)
      .Enter(0, "main")
      .Collective(1, 2, "MPI_Barrier", OTF2_COLLECTIVE_OP_BARRIER, 0, 0)
      .Collective(5, 6, "MPI_Barrier", OTF2_COLLECTIVE_OP_BARRIER, 0, 0)
      .Leave(9, "main");
  s.rank(2)
      .Enter(0, "main")
      .Collective(1, 2, "MPI_Barrier", OTF2_COLLECTIVE_OP_BARRIER, 0, 0)
      .Collective(5, 6, "MPI_Barrier", OTF2_COLLECTIVE_OP_BARRIER, 0, 0)
      .Collective(7, 8, "MPI_Bcast", OTF2_COLLECTIVE_OP_BCAST, 0, 8, 0, evens)
      .Leave(9, "main");
  trace::Trace t = ReadCollectives(s);
  SyncGraph g = MatchTrace(t, 2);
  ASSERT_EQ(g.collectives.size(), 3u);
  EXPECT_EQ(g.stats.incomplete_collectives, 0u);
  // Communicator order: world (two barriers), then the sub-communicator.
  EXPECT_EQ(g.collectives[0].op, trace::CollectiveOp::kBarrier);
  EXPECT_EQ(g.collectives[0].member_count, 3u);
  EXPECT_EQ(g.collectives[1].op, trace::CollectiveOp::kBarrier);
  const CollectiveInstance& bcast = g.collectives[2];
  EXPECT_EQ(bcast.op, trace::CollectiveOp::kBcast);
  EXPECT_EQ(bcast.member_count, 2u);
  EXPECT_EQ(bcast.root, 0u);
  EXPECT_TRUE(bcast.complete);
  // The second barrier of rank 0 is its third collective event.
  const CollectiveMember& second = g.members[g.collectives[1].first_member];
  EXPECT_EQ(second.location, 0u);
  EXPECT_EQ(t.location(0).time(second.end_event), 6u);
  EXPECT_EQ(t.location(0).kind(second.begin_event), trace::EventKind::kMpiCollectiveBegin);
  EXPECT_EQ(g.by_location[1].collectives.size(), 2u);
}

TEST(CollectiveMatcherTest, MissingMembersMakeAnIncompleteInstance) {
  testing::Scenario s(3);
  for (int r = 0; r < 3; ++r) {
    s.rank(r).Enter(0, "main").Collective(1, 2, "MPI_Barrier", OTF2_COLLECTIVE_OP_BARRIER, 0, 0);
    if (r != 2) s.rank(r).Collective(3, 4, "MPI_Barrier", OTF2_COLLECTIVE_OP_BARRIER, 0, 0);
    s.rank(r).Leave(9, "main");
  }
  trace::Trace t = ReadCollectives(s);
  SyncGraph g = MatchTrace(t, 2);
  ASSERT_EQ(g.collectives.size(), 2u);
  EXPECT_TRUE(g.collectives[0].complete);
  EXPECT_FALSE(g.collectives[1].complete);
  EXPECT_EQ(g.collectives[1].member_count, 2u);
  EXPECT_EQ(g.stats.incomplete_collectives, 1u);
  EXPECT_EQ(g.diagnostics.Count(kIncompleteCollective), 1u);
}

// Ranks stop recording independently (each at its share of --max-size, or when it crashes): the
// collectives the others recorded after it stopped lack it. That is a warning where every missing
// member's rank is noted as ended early, and stays an error where one of them finalized.
TEST(CollectiveMatcherTest, InstancesAfterARankStoppedRecordingAreAWarning) {
  const auto match = [](const char* ending_of_rank_2) {
    testing::Scenario s(3);
    for (int r = 0; r < 3; ++r) {
      s.rank(r).Enter(0, "main").Collective(1, 2, "MPI_Barrier", OTF2_COLLECTIVE_OP_BARRIER, 0, 0);
      // Rank 2 stops before the second and third barriers; rank 1 before the third.
      if (r == 0 || r == 1)
        s.rank(r).Collective(3, 4, "MPI_Barrier", OTF2_COLLECTIVE_OP_BARRIER, 0, 0);
      if (r == 0) s.rank(r).Collective(5, 6, "MPI_Barrier", OTF2_COLLECTIVE_OP_BARRIER, 0, 0);
      s.rank(r).Leave(9, "main");
    }
    s.set_rank_ending(0, "finalized");
    s.set_rank_ending(1, "recording stopped at the size limit (100 bytes) after 0.000 s");
    s.set_rank_ending(2, ending_of_rank_2);
    trace::Trace t = ReadCollectives(s);
    return MatchTrace(t, 2);
  };
  const SyncGraph stopped = match("signal 11");
  ASSERT_EQ(stopped.collectives.size(), 3u);
  EXPECT_EQ(stopped.collectives[1].member_count, 2u);
  EXPECT_EQ(stopped.collectives[2].member_count, 1u);
  EXPECT_EQ(stopped.stats.incomplete_collectives, 2u);
  EXPECT_EQ(stopped.diagnostics.Count(kCollectiveAfterRankEnded), 2u);
  EXPECT_EQ(stopped.diagnostics.Count(kIncompleteCollective), 0u);
  // Rank 2 finalized without the second and third barriers: both instances lack it, an error.
  const SyncGraph finalized = match("finalized");
  EXPECT_EQ(finalized.stats.incomplete_collectives, 2u);
  EXPECT_EQ(finalized.diagnostics.Count(kCollectiveAfterRankEnded), 0u);
  EXPECT_EQ(finalized.diagnostics.Count(kIncompleteCollective), 2u);
}

TEST(CollectiveMatcherTest, MismatchedOperationsAreDiagnosed) {
  testing::Scenario s(2);
  s.rank(0)
      .Enter(0, "main")
      .Collective(1, 2, "MPI_Barrier", OTF2_COLLECTIVE_OP_BARRIER, 0, 0)
      .Leave(9, "main");
  s.rank(1)
      .Enter(0, "main")
      .Collective(1, 2, "MPI_Allreduce", OTF2_COLLECTIVE_OP_ALLREDUCE, 8, 8)
      .Leave(9, "main");
  trace::Trace t = ReadCollectives(s);
  SyncGraph g = MatchTrace(t, 1);
  EXPECT_EQ(g.diagnostics.Count(kCollectiveMismatch), 1u);
}

}  // namespace
}  // namespace cw::match
