// Traces written with the OTF2 writer come back event for event, whatever the thread count.
#include <gtest/gtest.h>

#include "otf2/trace_reader.h"
#include "otf2_writer/archive_writer.h"
#include "testing/scenario.h"

namespace cw::otf2 {
namespace {

using trace::EventKind;

testing::Scenario PingPong() {
  testing::Scenario s(2, 1000);
  s.rank(0)
      .Enter(0, "main")
      .Call(1, 5, "MPI_Init")
      .Send(10, 12, 1, 3, 64)
      .Isend(20, 21, 1, 4, 128, /*request=*/77)
      .Complete(30, 35, "MPI_Wait", [](testing::RankScript& r) { r.IsendCompleteEvent(35, 77); })
      .Collective(40, 50, "MPI_Allreduce", OTF2_COLLECTIVE_OP_ALLREDUCE, 8, 8)
      .Leave(60, "main");
  s.rank(1)
      .Enter(0, "main")
      .Call(1, 5, "MPI_Init")
      .Recv(8, 13, 0, 3, 64)
      .Irecv(14, 15, 5)
      .Complete(16, 25, "MPI_Waitall",
                [](testing::RankScript& r) { r.IrecvEvent(25, 0, 4, 128, 5); })
      .Collective(45, 50, "MPI_Allreduce", OTF2_COLLECTIVE_OP_ALLREDUCE, 8, 8)
      .Leave(60, "main");
  return s;
}

TEST(ReaderRoundTripTest, EveryRecordComesBack) {
  std::string anchor = PingPong().WriteOrDie(testing::MakeTempDir("roundtrip"));
  Result<trace::Trace> t = ReadTrace(anchor, ReadOptions{});
  ASSERT_TRUE(t) << t.error().message();
  ASSERT_EQ(t->location_count(), 2u);
  EXPECT_EQ(t->defs.clock.resolution, 1000u);
  EXPECT_TRUE(t->diagnostics.empty());

  const trace::LocationEvents& r0 = t->location(0);
  std::vector<EventKind> kinds0(r0.kinds().begin(), r0.kinds().end());
  std::vector<EventKind> expected0 = {EventKind::kEnter,
                                      EventKind::kEnter,
                                      EventKind::kLeave,
                                      EventKind::kEnter,
                                      EventKind::kMpiSend,
                                      EventKind::kLeave,
                                      EventKind::kEnter,
                                      EventKind::kMpiIsend,
                                      EventKind::kLeave,
                                      EventKind::kEnter,
                                      EventKind::kMpiIsendComplete,
                                      EventKind::kLeave,
                                      EventKind::kEnter,
                                      EventKind::kMpiCollectiveBegin,
                                      EventKind::kMpiCollectiveEnd,
                                      EventKind::kLeave,
                                      EventKind::kLeave};
  EXPECT_EQ(kinds0, expected0);
  EXPECT_EQ(r0.time(4), 10u);
  EXPECT_EQ(r0.p2p(4).peer, 1u);
  EXPECT_EQ(r0.p2p(4).tag, 3u);
  EXPECT_EQ(r0.p2p(4).bytes, 64u);
  EXPECT_EQ(r0.RequestId(7), 77u);
  EXPECT_EQ(r0.RequestId(10), 77u);
  EXPECT_EQ(r0.RequestId(4), trace::kNoRequest);  // a blocking send has none
  EXPECT_EQ(r0.collective(14).op, trace::CollectiveOp::kAllreduce);
  EXPECT_EQ(r0.collective(14).sent, 8u);
  EXPECT_EQ(t->CallpathName(r0.callpath(4)), "main/MPI_Send");

  const trace::LocationEvents& r1 = t->location(1);
  EXPECT_EQ(r1.kind(7), EventKind::kMpiIrecvRequest);
  EXPECT_EQ(r1.RequestId(7), 5u);
  EXPECT_EQ(r1.kind(10), EventKind::kMpiIrecv);
  EXPECT_EQ(r1.RequestId(10), 5u);
  EXPECT_EQ(t->RecordedEventCount(), 34u);

  // Region classification comes from the definitions, as for Score-P traces.
  uint32_t waitall = t->CallpathRegion(r1.callpath(10));
  EXPECT_TRUE(t->defs.regions[waitall].mpi.has(trace::kMpiMultiWait));
  EXPECT_EQ(t->defs.RankOfLocation(1), 1u);
  EXPECT_EQ(t->defs.comms[0].LocationOfRank(1, 0), 1u);
}

TEST(ReaderRoundTripTest, ThreadCountDoesNotChangeTheTrace) {
  std::string anchor = PingPong().WriteOrDie(testing::MakeTempDir("threads"));
  ReadOptions one, four;
  one.threads = 1;
  four.threads = 4;
  Result<trace::Trace> a = ReadTrace(anchor, one);
  Result<trace::Trace> b = ReadTrace(anchor, four);
  ASSERT_TRUE(a && b);
  ASSERT_EQ(a->call_tree.size(), b->call_tree.size());
  for (uint32_t cp = 0; cp < a->call_tree.size(); ++cp) {
    EXPECT_EQ(a->CallpathName(cp), b->CallpathName(cp));
  }
  for (uint32_t loc = 0; loc < a->location_count(); ++loc) {
    const trace::LocationEvents& x = a->location(loc);
    const trace::LocationEvents& y = b->location(loc);
    ASSERT_EQ(x.size(), y.size());
    for (uint32_t i = 0; i < x.size(); ++i) {
      EXPECT_EQ(x.time(i), y.time(i));
      EXPECT_EQ(x.kind(i), y.kind(i));
      EXPECT_EQ(x.ref(i), y.ref(i));
      EXPECT_EQ(x.pair(i), y.pair(i));
    }
  }
}

TEST(ReaderRoundTripTest, SubCommunicatorRanksMapToLocations) {
  testing::Scenario s(4);
  uint32_t odd = s.AddComm({1, 3});
  s.rank(1).Enter(0, "main").Send(1, 2, /*to comm rank*/ 1, 0, 4, "MPI_Send", odd).Leave(9, "main");
  s.rank(3).Enter(0, "main").Recv(1, 3, 0, 0, 4, odd).Leave(9, "main");
  s.rank(0).Call(0, 9, "main");
  s.rank(2).Call(0, 9, "main");
  Result<trace::Trace> t = ReadTrace(s.WriteOrDie(testing::MakeTempDir("subcomm")), ReadOptions{});
  ASSERT_TRUE(t) << t.error().message();
  const trace::Comm& comm = t->defs.comms[odd];
  EXPECT_EQ(comm.size(), 2u);
  EXPECT_EQ(comm.LocationOfRank(0, 1), 1u);
  EXPECT_EQ(comm.LocationOfRank(1, 1), 3u);
  EXPECT_EQ(comm.LocationOfRank(2, 1), trace::kNone);
}

// An inter-communicator between A = world ranks {0, 2} and B = {1, 3}: a member's ranks name
// the other group's processes, and the communicator's members are both groups.
TEST(ReaderRoundTripTest, InterCommunicatorRanksNameTheOtherGroup) {
  const std::string dir = testing::MakeTempDir("intercomm");
  auto created = otf2_writer::ArchiveWriter::Create(dir);
  ASSERT_TRUE(created) << created.error().message();
  otf2_writer::ArchiveWriter& a = **created;
  const uint32_t node = a.DefineSystemTreeNode("node", "node", OTF2_UNDEFINED_SYSTEM_TREE_NODE);
  std::vector<uint64_t> locations;
  for (int r = 0; r < 4; ++r) {
    locations.push_back(a.DefineLocation(
        "Master thread", a.DefineLocationGroup("MPI Rank " + std::to_string(r), node)));
  }
  const uint32_t world = a.DefineMpiWorld(locations);
  const uint32_t inter = a.DefineMpiInterComm("inter", {0, 2}, {1, 3}, world);
  const uint32_t main = a.DefineRegion("main", OTF2_REGION_ROLE_FUNCTION, OTF2_PARADIGM_USER, "");
  for (uint64_t loc : locations) {
    a.Events(loc).Enter(1, main);
    a.Events(loc).Leave(2, main);
  }
  ASSERT_TRUE(a.Close(1000).has_value());
  Result<trace::Trace> t = ReadTrace(a.anchor_path(), ReadOptions{});
  ASSERT_TRUE(t) << t.error().message();
  const trace::Comm& c = t->defs.comms[inter];
  ASSERT_TRUE(c.is_inter());
  EXPECT_EQ(c.size(), 4u);
  EXPECT_EQ(c.LocationOfRank(0, 0), 1u);  // from A, rank 0 is B's first
  EXPECT_EQ(c.LocationOfRank(1, 2), 3u);
  EXPECT_EQ(c.LocationOfRank(0, 3), 0u);  // from B, rank 0 is A's first
  EXPECT_EQ(c.LocationOfRank(1, 1), 2u);
  EXPECT_EQ(c.LocationOfRank(2, 0), trace::kNone);  // B has 2 processes
  EXPECT_TRUE(t->diagnostics.empty());
}

std::vector<uint32_t> AllLocations(const trace::Definitions& defs) {
  std::vector<uint32_t> all(defs.locations.size());
  for (uint32_t loc = 0; loc < all.size(); ++loc) all[loc] = loc;
  return all;
}

TEST(ReaderRoundTripTest, BalanceSpreadsEventCounts) {
  trace::Definitions defs;
  for (uint64_t events : {100u, 10u, 60u, 50u, 40u}) {
    trace::Location loc;
    loc.event_count = events;
    defs.locations.push_back(loc);
  }
  auto parts = BalanceLocations(defs, AllLocations(defs), 2);
  ASSERT_EQ(parts.size(), 2u);
  uint64_t load[2] = {0, 0};
  for (size_t p = 0; p < 2; ++p) {
    for (uint32_t loc : parts[p]) load[p] += defs.locations[loc].event_count;
  }
  EXPECT_EQ(load[0] + load[1], 260u);
  EXPECT_LE(std::max(load[0], load[1]), 140u);
  EXPECT_EQ(BalanceLocations(defs, AllLocations(defs), 16).size(),
            5u);  // never more parts than locations
}

}  // namespace
}  // namespace cw::otf2
