// Point-to-point matching across K analysis ranks (threads standing in for an MPI job): every
// location's sent and received messages, with every fact they carry, and its probe links must be
// those one process finds; stats and diagnostics summed over the ranks must be one process's.
#include <gtest/gtest.h>

#include <mutex>

#include "comm/local_group.h"
#include "distributed/read.h"
#include "match/matcher.h"
#include "testing/scenario.h"
#include "tests/common/paths.h"

namespace cw::distributed {
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
}

// What the ranks' graphs add up to, to compare with one process's.
struct Totals {
  match::MatchStats stats;
  Diagnostics diagnostics;
};

void Add(const match::SyncGraph& g, Totals& t) {
  t.stats.messages += g.stats.messages;
  t.stats.unmatched_sends += g.stats.unmatched_sends;
  t.stats.unmatched_receives += g.stats.unmatched_receives;
  t.stats.cancelled_requests += g.stats.cancelled_requests;
  t.stats.probes_linked += g.stats.probes_linked;
  t.stats.probes_inferred += g.stats.probes_inferred;
  t.stats.probes_repeated += g.stats.probes_repeated;
  t.stats.probes_unlinked += g.stats.probes_unlinked;
  t.stats.probes_unresolved += g.stats.probes_unresolved;
  t.diagnostics.Merge(g.diagnostics);
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
  comm::LocalGroup::Run(ranks, [&](comm::Communicator& comm) {
    Result<trace::Trace> mine = ReadOwnedLocations(anchor, options, partition, comm);
    ASSERT_TRUE(mine) << where;
    const match::SyncGraph graph = match::MatchOwnedLocations(*mine, partition, comm, 2);
    std::lock_guard<std::mutex> lock(mutex);
    Add(graph, totals);
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
  for (const Diagnostics::Entry& e : single.diagnostics.Sorted()) {
    EXPECT_EQ(totals.diagnostics.Count(*e.kind), e.count) << where << ": " << e.kind->name;
  }
  EXPECT_EQ(totals.diagnostics.Sorted().size(), single.diagnostics.Sorted().size()) << where;
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
  Result<trace::Trace> single = otf2::ReadTrace(anchor, {});
  ASSERT_TRUE(single);
  const match::SyncGraph graph = match::MatchTrace(*single, 1);
  EXPECT_EQ(graph.stats.messages, 3u);
  EXPECT_EQ(graph.stats.unmatched_sends, 1u);
  EXPECT_EQ(graph.stats.unmatched_receives, 1u);
  EXPECT_EQ(graph.stats.cancelled_requests, 1u);
  for (uint32_t ranks = 2; ranks <= 4; ++ranks) CheckDistributedMatch(anchor, ranks);
}

}  // namespace
}  // namespace cw::distributed
