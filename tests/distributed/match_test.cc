// Point-to-point matching across K analysis ranks (threads standing in for an MPI job): every
// location's sent and received messages, with every fact they carry, and its probe links must be
// those one process finds; stats and diagnostics summed over the ranks must be one process's.
#include <gtest/gtest.h>

#include <map>
#include <mutex>

#include "comm/local_group.h"
#include "job_read/owned_locations.h"
#include "match/matcher.h"
#include "testing/scenario.h"
#include "tests/common/paths.h"
#include "tests/distributed/job_scenarios.h"

namespace cw::job_read {
namespace {

void ExpectSameMessage(const match::Message& a, const match::Message& b, const std::string& where) {
  EXPECT_EQ(a.send_entered, b.send_entered) << where;
  EXPECT_EQ(a.send_time, b.send_time) << where;
  EXPECT_EQ(a.recv_posted_entered, b.recv_posted_entered) << where;
  EXPECT_EQ(a.bytes, b.bytes) << where;
  EXPECT_EQ(a.sender, b.sender) << where;
  EXPECT_EQ(a.send_event, b.send_event) << where;
  EXPECT_EQ(a.receiver, b.receiver) << where;
  EXPECT_EQ(a.recv_event, b.recv_event) << where;
  EXPECT_EQ(a.recv_posting, b.recv_posting) << where;
}

// Per member index: its instance.
std::vector<uint32_t> InstanceOfMember(const match::SyncGraph& g) {
  std::vector<uint32_t> of(g.members.size(), trace::kNone);
  for (uint32_t i = 0; i < g.collectives.size(); ++i) {
    for (uint32_t k = 0; k < g.collectives[i].member_count; ++k)
      of[g.collectives[i].first_member + k] = i;
  }
  return of;
}

void ExpectSameMember(const match::CollectiveMember& a, const match::CollectiveMember& b,
                      const std::string& where) {
  EXPECT_EQ(a.location, b.location) << where;
  EXPECT_EQ(a.begin_event, b.begin_event) << where;
  EXPECT_EQ(a.end_event, b.end_event) << where;
  EXPECT_EQ(a.rank, b.rank) << where;
  EXPECT_EQ(a.entered, b.entered) << where;
  EXPECT_EQ(a.end_time, b.end_time) << where;
  EXPECT_EQ(a.sent, b.sent) << where;
  EXPECT_EQ(a.received, b.received) << where;
}

// The instances of one location's collective calls: on a rank, each lists the rank's own
// members of it (all members for one-sided instances), as one process's instance does.
void ExpectSameCollectives(const match::SyncGraph& mine, const match::SyncGraph& single,
                           uint32_t loc, const std::vector<bool>& owned, const std::string& where) {
  const std::vector<uint32_t>& a = mine.by_location[loc].collectives;
  const std::vector<uint32_t>& b = single.by_location[loc].collectives;
  ASSERT_EQ(a.size(), b.size()) << where;
  const std::vector<uint32_t> instance_a = InstanceOfMember(mine);
  const std::vector<uint32_t> instance_b = InstanceOfMember(single);
  for (size_t k = 0; k < a.size(); ++k) {
    ExpectSameMember(mine.members[a[k]], single.members[b[k]], where);
    const match::CollectiveInstance& ia = mine.collectives[instance_a[a[k]]];
    const match::CollectiveInstance& ib = single.collectives[instance_b[b[k]]];
    EXPECT_EQ(ia.comm, ib.comm) << where;
    EXPECT_EQ(ia.window, ib.window) << where;
    EXPECT_EQ(ia.op, ib.op) << where;
    EXPECT_EQ(ia.root, ib.root) << where;
    EXPECT_EQ(ia.complete, ib.complete) << where;
    std::vector<const match::CollectiveMember*> expected;
    for (uint32_t m = 0; m < ib.member_count; ++m) {
      const match::CollectiveMember& member = single.members[ib.first_member + m];
      if (ib.window != trace::kNone || owned[member.location]) expected.push_back(&member);
    }
    ASSERT_EQ(ia.member_count, expected.size()) << where;
    for (uint32_t m = 0; m < ia.member_count; ++m) {
      ExpectSameMember(mine.members[ia.first_member + m], *expected[m], where + " co-member");
    }
  }
  // Instances appear in one process's order: the rank's list is a subsequence of it.
  std::map<std::pair<uint32_t, uint32_t>, uint32_t> single_instance;  // (location, end) -> i
  for (uint32_t m = 0; m < single.members.size(); ++m) {
    single_instance[{single.members[m].location, single.members[m].end_event}] = instance_b[m];
  }
  uint32_t previous = 0;
  for (const match::CollectiveInstance& ia : mine.collectives) {
    const match::CollectiveMember& head = mine.members[ia.first_member];
    const uint32_t at = single_instance.at({head.location, head.end_event});
    EXPECT_GE(at, previous) << where << ": instances out of order";
    previous = at;
  }
}

// Every instance is built whole by exactly one rank, with one process's members.
void ExpectBuiltOnce(const std::vector<match::BuiltCollectives>& built,
                     const match::SyncGraph& single, const std::string& where) {
  std::map<std::pair<uint32_t, uint32_t>, uint32_t> single_instance;  // head -> instance
  for (uint32_t i = 0; i < single.collectives.size(); ++i) {
    const match::CollectiveMember& head = single.members[single.collectives[i].first_member];
    single_instance[{head.location, head.end_event}] = i;
  }
  std::vector<uint32_t> times(single.collectives.size(), 0);
  for (const match::BuiltCollectives& b : built) {
    for (const match::CollectiveInstance& ia : b.collectives) {
      const match::CollectiveMember& head = b.members[ia.first_member];
      const uint32_t i = single_instance.at({head.location, head.end_event});
      ++times[i];
      const match::CollectiveInstance& ib = single.collectives[i];
      ASSERT_EQ(ia.member_count, ib.member_count) << where;
      for (uint32_t m = 0; m < ia.member_count; ++m) {
        ExpectSameMember(b.members[ia.first_member + m], single.members[ib.first_member + m],
                         where + " built member");
      }
    }
  }
  for (uint32_t i = 0; i < times.size(); ++i) {
    EXPECT_EQ(times[i], 1u) << where << ": instance " << i << " built " << times[i] << " times";
  }
}

// What the ranks' graphs add up to, to compare with one process's.
struct Totals {
  match::MatchStats stats;
  Diagnostics diagnostics;
};

void Add(const match::SyncGraph& g, Totals& t) {
  t.stats += g.stats;
  t.diagnostics.Merge(g.diagnostics);
}

// One process's graph of `anchor`, for the expected counts of a hand-built trace.
match::SyncGraph SingleProcessGraph(const std::string& anchor) {
  Result<trace::Trace> single = otf2::ReadTrace(anchor, {});
  EXPECT_TRUE(single) << anchor;
  return single ? match::MatchTrace(*single, 1) : match::SyncGraph{};
}

void CheckDistributedMatch(const std::string& anchor, uint32_t ranks) {
  otf2::ReadOptions options;
  options.allow_partial = true;
  Result<trace::Trace> single_trace = otf2::ReadTrace(anchor, options);
  ASSERT_TRUE(single_trace) << anchor;
  const match::SyncGraph single = match::MatchTrace(*single_trace, 2);
  const trace::Partition partition = trace::PartitionLocations(single_trace->defs, ranks);
  const std::string where = anchor + " on " + std::to_string(ranks) + " ranks";
  std::mutex mutex;
  Totals totals;
  std::vector<match::BuiltCollectives> built(ranks);
  comm::LocalGroup::Run(ranks, [&](comm::Communicator& comm) {
    Result<trace::Trace> mine = ReadOwnedLocations(anchor, options, partition, comm);
    ASSERT_TRUE(mine) << where;
    const match::SyncGraph graph = match::MatchOwnedLocations(*mine, partition, comm, 2);
    std::lock_guard<std::mutex> lock(mutex);
    Add(graph, totals);
    built[comm.rank()] = graph.built;
    std::vector<bool> owned(partition.owner.size(), false);
    for (uint32_t loc : partition.owned[comm.rank()]) owned[loc] = true;
    for (uint32_t loc : partition.owned[comm.rank()]) {
      const std::string at = where + ", location " + std::to_string(loc);
      const match::LocationSync& a = graph.by_location[loc];
      const match::LocationSync& b = single.by_location[loc];
      ASSERT_EQ(a.received_count, b.received_count) << at;
      for (uint32_t k = 0; k < a.received_count; ++k) {
        ExpectSameMessage(graph.messages[a.first_received + k],
                          single.messages[b.first_received + k], at + " received");
      }
      ASSERT_EQ(a.sent.size(), b.sent.size()) << at;
      for (size_t k = 0; k < a.sent.size(); ++k) {
        ExpectSameMessage(graph.messages[a.sent[k]], single.messages[b.sent[k]], at + " sent");
      }
      ExpectSameCollectives(graph, single, loc, owned, at + " collectives");
      ASSERT_EQ(a.probe_count, b.probe_count) << at;
      for (uint32_t k = 0; k < a.probe_count; ++k) {
        const match::ProbeLink& pa = graph.probes[a.first_probe + k];
        const match::ProbeLink& pb = single.probes[b.first_probe + k];
        EXPECT_EQ(pa.probe, pb.probe) << at;
        EXPECT_EQ(pa.inferred, pb.inferred) << at;
        ExpectSameMessage(graph.messages[pa.message], single.messages[pb.message], at + " probe");
      }
    }
  });
  EXPECT_EQ(totals.stats.messages, single.stats.messages) << where;
  EXPECT_EQ(totals.stats.unmatched_sends, single.stats.unmatched_sends) << where;
  EXPECT_EQ(totals.stats.unmatched_receives, single.stats.unmatched_receives) << where;
  EXPECT_EQ(totals.stats.cancelled_requests, single.stats.cancelled_requests) << where;
  EXPECT_EQ(totals.stats.probes_linked, single.stats.probes_linked) << where;
  EXPECT_EQ(totals.stats.probes_inferred, single.stats.probes_inferred) << where;
  EXPECT_EQ(totals.stats.probes_unlinked, single.stats.probes_unlinked) << where;
  EXPECT_EQ(totals.stats.collective_instances, single.stats.collective_instances) << where;
  EXPECT_EQ(totals.stats.incomplete_collectives, single.stats.incomplete_collectives) << where;
  for (const Diagnostics::Entry& e : single.diagnostics.Sorted()) {
    EXPECT_EQ(totals.diagnostics.Count(*e.kind), e.count) << where << ": " << e.kind->name;
  }
  EXPECT_EQ(totals.diagnostics.Sorted().size(), single.diagnostics.Sorted().size()) << where;
  ExpectBuiltOnce(built, single, where);
}

TEST(DistributedMatchTest, EveryRealTraceMatchesAsOneProcessOnTwoToFourRanks) {
  for (const std::string& name : test::RealTraceNames()) {
    for (uint32_t ranks = 2; ranks <= 4; ++ranks)
      CheckDistributedMatch(test::RealTrace(name), ranks);
  }
}

TEST(DistributedMatchTest, UnmatchedAndCancelledMessagesCountTheSame) {
  // Rank 0 sends twice to rank 1, which receives once (one unmatched send); rank 2 waits for a
  // message from rank 3 that never comes (one unmatched receive); rank 3 cancels an Isend to
  // rank 2; rank 1 sends to rank 3 with two tags received in the opposite order (both match:
  // channels are per tag). Probes are covered by the real traces and the traced programs.
  testing::Scenario s(4);
  s.rank(0).Enter(0, "main").Send(1, 2, 1, 5, 8).Send(3, 4, 1, 5, 8).Leave(20, "main");
  s.rank(1)
      .Enter(0, "main")
      .Recv(1, 5, 0, 5, 8)
      .Send(6, 7, 3, 1, 4)
      .Send(8, 9, 3, 2, 4)
      .Leave(20, "main");
  s.rank(2).Enter(0, "main").Recv(1, 15, 3, 9, 8).Leave(20, "main");
  s.rank(3)
      .Enter(0, "main")
      .Isend(1, 2, 2, 7, 8, 77)
      .RequestCancelledEvent(3, 77)
      .Recv(10, 11, 1, 2, 4)
      .Recv(12, 13, 1, 1, 4)
      .Leave(20, "main");
  std::string anchor = s.WriteOrDie(testing::MakeTempDir("distributed-unmatched"));
  // One process: messages 0->1, 1->3 (tag 1), 1->3 (tag 2); the second 0->1 send and rank 2's
  // receive are unmatched; rank 3's Isend was cancelled.
  const match::SyncGraph graph = SingleProcessGraph(anchor);
  EXPECT_EQ(graph.stats.messages, 3u);
  EXPECT_EQ(graph.stats.unmatched_sends, 1u);
  EXPECT_EQ(graph.stats.unmatched_receives, 1u);
  EXPECT_EQ(graph.stats.cancelled_requests, 1u);
  for (uint32_t ranks = 2; ranks <= 4; ++ranks) CheckDistributedMatch(anchor, ranks);
  // Rank 3 noted as stopped early: rank 2's receive lacks its send because of it, a warning in
  // every analysis rank's share too (CheckDistributedMatch compares every diagnostic's count).
  s.set_rank_ending(3, "signal 9");
  anchor = s.WriteOrDie(testing::MakeTempDir("distributed-unmatched-ended"));
  const match::SyncGraph ended = SingleProcessGraph(anchor);
  EXPECT_EQ(ended.diagnostics.Count(match::kMessageAfterRankEnded), 1u);
  EXPECT_EQ(ended.diagnostics.Count(match::kUnmatchedSend), 1u);
  EXPECT_EQ(ended.diagnostics.Count(match::kUnmatchedReceive), 0u);
  for (uint32_t ranks = 2; ranks <= 4; ++ranks) CheckDistributedMatch(anchor, ranks);
}

TEST(DistributedMatchTest, CollectivesWithAMissingMemberCountTheSame) {
  // Four ranks: a barrier, an allreduce that rank 3 never calls, a bcast from rank 2, a reduce to
  // rank 1. Instance k is every member's k-th call, so rank 3's calls slide one instance ahead.
  // Then two fences on a window, which rank 0 calls only once.
  const std::string anchor =
      test::WriteMissingCollectiveTrace(testing::MakeTempDir("distributed-collectives"));
  // One process: k=0 the barrier of all four; k=1 the allreduce of ranks 0-2 with rank 3's bcast
  // and k=2 their bcast with rank 3's reduce (complete, but the operations differ: two
  // mismatches); k=3 the reduce of ranks 0-2 alone (incomplete). The window: a complete fence,
  // and one without rank 0 (incomplete).
  const match::SyncGraph graph = SingleProcessGraph(anchor);
  EXPECT_EQ(graph.stats.collective_instances, 6u);
  EXPECT_EQ(graph.stats.incomplete_collectives, 2u);
  EXPECT_EQ(graph.diagnostics.Count(match::kCollectiveMismatch), 2u);
  EXPECT_EQ(graph.diagnostics.Count(match::kIncompleteCollective), 2u);
  for (uint32_t ranks = 2; ranks <= 4; ++ranks) CheckDistributedMatch(anchor, ranks);
  // Ranks 3 and 0 noted as stopped early: the reduce without rank 3 and the fence without rank 0
  // are warnings, wherever their instances are built.
  const std::string ended = test::WriteMissingCollectiveTrace(
      testing::MakeTempDir("distributed-collectives-ended"), {{0, "abort"}, {3, "signal 6"}});
  const match::SyncGraph ended_graph = SingleProcessGraph(ended);
  EXPECT_EQ(ended_graph.diagnostics.Count(match::kCollectiveAfterRankEnded), 2u);
  EXPECT_EQ(ended_graph.diagnostics.Count(match::kIncompleteCollective), 0u);
  for (uint32_t ranks = 2; ranks <= 4; ++ranks) CheckDistributedMatch(ended, ranks);
}

}  // namespace
}  // namespace cw::job_read
