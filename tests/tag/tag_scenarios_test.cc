// Sikora et al. 2016's scenarios as hand-built traces: every count, edge and class derived by hand
// from the timestamps written here. 1 tick = 1 s unless a scenario says otherwise.
#include <gtest/gtest.h>

#include <cmath>

#include "tag/graph/sections.h"
#include "tag/graph/tendencies.h"
#include "tag/model/loops.h"
#include "tests/tag/tag_fixture.h"

namespace cw::test {
namespace {

using cw::testing::Scenario;
using tag::EdgeKind;
using tag::MessageVia;

void ExpectConserved(const TagRun& run) {
  for (const tag::ProcessGraph& g : run.graphs.processes) {
    EXPECT_EQ(FlowConservationProblems(g), "");
  }
}

TEST(TagScenarioTest, OneProcessTwoBarrierCallSites) {
  // main 0..20: MPI_Init 0..1, f 2..8 { MPI_Barrier 3..4 }, g 9..15 { MPI_Barrier 10..12 },
  // MPI_Finalize 16..17.
  Scenario s(1);
  s.rank(0)
      .Enter(0, "main")
      .Call(0, 1, "MPI_Init")
      .Enter(2, "f")
      .Collective(3, 4, "MPI_Barrier", OTF2_COLLECTIVE_OP_BARRIER, 0, 0)
      .Leave(8, "f")
      .Enter(9, "g")
      .Collective(10, 12, "MPI_Barrier", OTF2_COLLECTIVE_OP_BARRIER, 0, 0)
      .Leave(15, "g")
      .Call(16, 17, "MPI_Finalize")
      .Leave(20, "main");
  TagRun run = BuildScenarioTags(s);
  ASSERT_EQ(run.graphs.processes.size(), 1u);
  const tag::ProcessGraph& g = run.Rank(0);
  // start, MPI_Init, two barriers (one per call path), MPI_Finalize, end.
  ASSERT_EQ(g.nodes.size(), 6u);
  EXPECT_EQ(run.NodeOf(0, "main/f/MPI_Barrier").time.count, 1u);
  EXPECT_EQ(run.NodeOf(0, "main/f/MPI_Barrier").time.total, 1.0);
  EXPECT_EQ(run.NodeOf(0, "main/g/MPI_Barrier").time.total, 2.0);
  EXPECT_EQ(run.NodeOf(0, "main/f/MPI_Barrier").kind, tag::NodeKind::kMpi);
  EXPECT_EQ(run.NodeOf(0, "start").kind, tag::NodeKind::kStart);
  // Five flow edges, the computation between the calls: 0, 3-1, 10-4, 16-12, 20-17.
  ASSERT_EQ(g.edges.size(), 5u);
  EXPECT_EQ(run.Local(0, EdgeKind::kFlow, "start", "main/MPI_Init")->time.total, 0.0);
  EXPECT_EQ(run.Local(0, EdgeKind::kFlow, "main/MPI_Init", "main/f/MPI_Barrier")->time.total, 2.0);
  EXPECT_EQ(run.Local(0, EdgeKind::kFlow, "main/f/MPI_Barrier", "main/g/MPI_Barrier")->time.total,
            6.0);
  EXPECT_EQ(run.Local(0, EdgeKind::kFlow, "main/g/MPI_Barrier", "main/MPI_Finalize")->time.total,
            4.0);
  EXPECT_EQ(run.Local(0, EdgeKind::kFlow, "main/MPI_Finalize", "end")->time.total, 3.0);
  for (const tag::Edge& e : g.edges) EXPECT_FALSE(e.back);
  EXPECT_TRUE(tag::FindLoops(g).empty());
  EXPECT_EQ(g.TotalTicks(), 20.0);  // the process's whole time, 0..20
  ExpectConserved(run);
  EXPECT_TRUE(run.ptag.empty());
  EXPECT_EQ(run.ClassRanks(), (std::vector<std::vector<uint32_t>>{{0}}));
}

TEST(TagScenarioTest, OneSendThroughTwoFunctionsIsTwoNodes) {
  // Rank 0 sends from f twice (2..3, 6..7; 8 and 16 bytes) and from g once (10..11, 1024
  // bytes); rank 1 receives all three in main (1..4, 5..8, 9..12).
  Scenario s(2);
  s.rank(0)
      .Enter(0, "main")
      .Enter(1, "f")
      .Send(2, 3, 1, 0, 8)
      .Leave(4, "f")
      .Enter(5, "f")
      .Send(6, 7, 1, 0, 16)
      .Leave(8, "f")
      .Enter(9, "g")
      .Send(10, 11, 1, 0, 1024)
      .Leave(12, "g")
      .Leave(20, "main");
  s.rank(1)
      .Enter(0, "main")
      .Recv(1, 4, 0, 0, 8)
      .Recv(5, 8, 0, 0, 16)
      .Recv(9, 12, 0, 0, 1024)
      .Leave(20, "main");
  TagRun run = BuildScenarioTags(s);
  EXPECT_EQ(run.NodeOf(0, "main/f/MPI_Send").time.count, 2u);
  EXPECT_EQ(run.NodeOf(0, "main/g/MPI_Send").time.count, 1u);
  EXPECT_EQ(run.Rank(0).nodes.size(), 4u);  // start, the two sends, end
  // Consecutive sends from f: a self-edge, the loop's back edge.
  const tag::Edge* self = run.Local(0, EdgeKind::kFlow, "main/f/MPI_Send", "main/f/MPI_Send");
  ASSERT_NE(self, nullptr);
  EXPECT_EQ(self->time.count, 1u);
  EXPECT_EQ(self->time.total, 3.0);  // 6 - 3
  EXPECT_TRUE(self->back);

  auto out_f = run.Messages(0, EdgeKind::kMessageOut, "main/f/MPI_Send");
  ASSERT_EQ(out_f.size(), 1u);
  EXPECT_EQ(out_f[0]->peer, 1u);
  EXPECT_EQ(out_f[0]->time.count, 2u);
  EXPECT_EQ(out_f[0]->bytes, 24u);
  // 8 bytes fall in bucket 4 ([8, 16)), 16 bytes in bucket 5 ([16, 32)).
  EXPECT_EQ(out_f[0]->size_histogram[4], 1u);
  EXPECT_EQ(out_f[0]->size_histogram[5], 1u);

  // Rank 1's one receive node has one incoming edge per sending node.
  EXPECT_EQ(run.NodeOf(1, "main/MPI_Recv").time.count, 3u);
  auto in = run.Messages(1, EdgeKind::kMessageIn, "main/MPI_Recv");
  ASSERT_EQ(in.size(), 2u);
  EXPECT_EQ(run.SenderPath(*in[0]), "main/f/MPI_Send");
  EXPECT_EQ(in[0]->time.count, 2u);
  EXPECT_EQ(in[0]->bytes, 24u);
  EXPECT_EQ(in[0]->delta_t.total, 2.0);  // each send entered 1 s after its receive: 2-1, 6-5
  EXPECT_EQ(run.SenderPath(*in[1]), "main/g/MPI_Send");
  EXPECT_EQ(in[1]->size_histogram[11], 1u);  // 1024 bytes: [1024, 2048)
  EXPECT_EQ(run.ptag.size(), 2u);
  ExpectConserved(run);
}

// Ping-pong, `n` iterations from t0 = 2 + 10 i: rank 0 sends t0..t0+1 and receives
// t0+5..t0+6; rank 1 receives t0..t0+2 and sends t0+4..t0+5. MPI_Init 0..1, MPI_Finalize
// 52..53 of 55 for n = 5.
Scenario PingPong(int n) {
  Scenario s(2);
  for (int r = 0; r < 2; ++r) s.rank(r).Enter(0, "main").Call(0, 1, "MPI_Init");
  for (int i = 0; i < n; ++i) {
    uint64_t t0 = 2 + 10 * static_cast<uint64_t>(i);
    s.rank(0).Send(t0, t0 + 1, 1, 0, 64).Recv(t0 + 5, t0 + 6, 1, 0, 64);
    s.rank(1).Recv(t0, t0 + 2, 0, 0, 64).Send(t0 + 4, t0 + 5, 0, 0, 64);
  }
  uint64_t end = 2 + 10 * static_cast<uint64_t>(n);
  for (int r = 0; r < 2; ++r) s.rank(r).Call(end, end + 1, "MPI_Finalize").Leave(end + 3, "main");
  return s;
}

TEST(TagScenarioTest, PingPongInALoop) {
  TagRun run = BuildScenarioTags(PingPong(5));
  const tag::Edge* send_recv = run.Local(0, EdgeKind::kFlow, "main/MPI_Send", "main/MPI_Recv");
  ASSERT_NE(send_recv, nullptr);
  EXPECT_EQ(send_recv->time.count, 5u);
  EXPECT_EQ(send_recv->time.total, 20.0);  // 4 s between leaving the send and the receive
  EXPECT_FALSE(send_recv->back);
  const tag::Edge* back = run.Local(0, EdgeKind::kFlow, "main/MPI_Recv", "main/MPI_Send");
  ASSERT_NE(back, nullptr);
  EXPECT_EQ(back->time.count, 4u);  // N - 1
  EXPECT_TRUE(back->back);
  std::vector<tag::Loop> loops = tag::FindLoops(run.Rank(0));
  ASSERT_EQ(loops.size(), 1u);
  EXPECT_EQ(run.Rank(0).nodes[loops[0].head].callpath, "main/MPI_Send");
  EXPECT_EQ(loops[0].iterations, 5u);
  EXPECT_EQ(loops[0].instances, 1u);
  // The loop's time: 5 sends and 5 receives of 1 s, 5 x 4 s before each receive, 4 x 4 s
  // before each next send.
  EXPECT_EQ(loops[0].ticks, 5.0 + 5.0 + 20.0 + 16.0);

  // Exactly two inter-process edges, one per direction.
  ASSERT_EQ(run.ptag.size(), 2u);
  for (const tag::PtagEdge& e : run.ptag) EXPECT_EQ(e.count, 5u);
  // Rank 1 receives what rank 0 sent when its receive began (delta 0); rank 0's receive began
  // 1 s after rank 1's send (delta -1 each: a late receiver, not a late sender).
  EXPECT_EQ(run.Messages(1, EdgeKind::kMessageIn, "main/MPI_Recv")[0]->delta_t.total, 0.0);
  const tag::Edge* in0 = run.Messages(0, EdgeKind::kMessageIn, "main/MPI_Recv")[0];
  EXPECT_EQ(in0->delta_t.total, -5.0);
  EXPECT_EQ(in0->delta_t.max, -1.0);
  // One sends first, the other receives first: two classes, whatever the ranks.
  EXPECT_EQ(run.ClassRanks(), (std::vector<std::vector<uint32_t>>{{0}, {1}}));
  ExpectConserved(run);
}

TEST(TagScenarioTest, ACycleClosedOnceIsNoLoop) {
  // Two round trips: the back edge from the receive to the send is taken once. So is the edge
  // back to a call path called again in a later phase; neither is a loop. Three round trips
  // take it twice: a loop of 3 iterations.
  TagRun twice = BuildScenarioTags(PingPong(2));
  const tag::Edge* back = twice.Local(0, EdgeKind::kFlow, "main/MPI_Recv", "main/MPI_Send");
  ASSERT_NE(back, nullptr);
  EXPECT_TRUE(back->back);
  EXPECT_EQ(back->time.count, 1u);
  EXPECT_TRUE(tag::FindLoops(twice.Rank(0)).empty());
  TagRun thrice = BuildScenarioTags(PingPong(3));
  std::vector<tag::Loop> loops = tag::FindLoops(thrice.Rank(0));
  ASSERT_EQ(loops.size(), 1u);
  EXPECT_EQ(loops[0].iterations, 3u);
}

TEST(TagScenarioTest, HaloExchangeWithNonBlockingSends) {
  const int n = 3;
  TagRun run = BuildScenarioTags(HaloExchange(n));
  for (uint32_t r = 0; r < 4; ++r) {
    const tag::Edge* back = run.Local(r, EdgeKind::kFlow, "main/MPI_Waitall", "main/MPI_Isend");
    ASSERT_NE(back, nullptr) << r;
    EXPECT_EQ(back->time.count, static_cast<uint64_t>(n - 1));
    EXPECT_TRUE(back->back);
    // The Waitall completes the requests of both sends on inner ranks, one on the borders; the
    // gap is from leaving the Isend call to entering MPI_Waitall.
    const tag::Edge* completion =
        run.Local(r, EdgeKind::kCompletion, "main/MPI_Waitall", "main/MPI_Isend");
    ASSERT_NE(completion, nullptr) << r;
    const bool inner = r == 1 || r == 2;
    EXPECT_EQ(completion->time.count, static_cast<uint64_t>(inner ? 2 * n : n)) << r;
    // Inner: (t0+7) - (t0+1) and (t0+7) - (t0+2) per iteration; rank 0: 6; rank 3: 5.
    double per_iteration = inner ? 6.0 + 5.0 : (r == 0 ? 6.0 : 5.0);
    EXPECT_EQ(completion->time.total, n * per_iteration) << r;
  }
  // Inner ranks send twice in a row from one call path (a self-edge) and receive twice.
  EXPECT_EQ(run.Local(1, EdgeKind::kFlow, "main/MPI_Isend", "main/MPI_Isend")->time.count, 3u);
  EXPECT_EQ(run.Local(1, EdgeKind::kFlow, "main/MPI_Recv", "main/MPI_Recv")->time.count, 3u);
  EXPECT_EQ(run.Messages(1, EdgeKind::kMessageOut, "main/MPI_Isend").size(), 2u);
  EXPECT_EQ(run.Messages(1, EdgeKind::kMessageIn, "main/MPI_Recv").size(), 2u);
  // Six inter-process edges: 0->1, 1->0, 1->2, 2->1, 2->3, 3->2.
  ASSERT_EQ(run.ptag.size(), 6u);
  for (const tag::PtagEdge& e : run.ptag) {
    EXPECT_EQ(e.count, static_cast<uint64_t>(n));
    EXPECT_EQ(e.bytes, static_cast<uint64_t>(n) * 800);
    EXPECT_EQ(std::abs(static_cast<int>(e.from_rank) - static_cast<int>(e.to_rank)), 1);
  }
  EXPECT_EQ(run.ClassRanks(), (std::vector<std::vector<uint32_t>>{{0}, {1, 2}, {3}}));
  ExpectConserved(run);
}

// Master/worker: each of `rounds` rounds from t0 = 2 + 10 k, workers 1..3 send 8 bytes to
// rank 0 at t0..t0+1 (plus `slow` s of extra work before the first send on worker 3); the
// master receives with MPI_ANY_SOURCE (the trace records the real sources) from worker j+1 at
// t0+j..t0+j+1.
Scenario MasterWorker(int rounds, uint64_t slow = 0) {
  Scenario s(4);
  for (int r = 0; r < 4; ++r) s.rank(r).Enter(0, "main").Call(0, 1, "MPI_Init");
  for (int k = 0; k < rounds; ++k) {
    uint64_t t0 = 2 + 10 * static_cast<uint64_t>(k) + slow;
    for (int w = 1; w < 4; ++w) {
      uint64_t at = w == 3 || k > 0 ? t0 : t0 - slow;
      s.rank(w).Send(at, at + 1, 0, 5, 8);
      s.rank(0).Recv(t0 + static_cast<uint64_t>(w) - 1, t0 + static_cast<uint64_t>(w), w, 5, 8);
    }
  }
  uint64_t end = 2 + 10 * static_cast<uint64_t>(rounds) + slow;
  for (int r = 0; r < 4; ++r) s.rank(r).Call(end, end + 1, "MPI_Finalize").Leave(end + 3, "main");
  return s;
}

TEST(TagScenarioTest, MasterWorkerWithWildcardReceives) {
  TagRun run = BuildScenarioTags(MasterWorker(3));
  // The master's one receive node: one incoming edge per worker, 3 messages each; nine
  // receives in a row are a self-edge taken 8 times.
  auto in = run.Messages(0, EdgeKind::kMessageIn, "main/MPI_Recv");
  ASSERT_EQ(in.size(), 3u);
  for (uint32_t w = 0; w < 3; ++w) {
    EXPECT_EQ(in[w]->peer, w + 1);
    EXPECT_EQ(in[w]->time.count, 3u);
    EXPECT_EQ(run.SenderPath(*in[w]), "main/MPI_Send");
  }
  EXPECT_EQ(run.Local(0, EdgeKind::kFlow, "main/MPI_Recv", "main/MPI_Recv")->time.count, 8u);
  EXPECT_EQ(run.Local(1, EdgeKind::kFlow, "main/MPI_Send", "main/MPI_Send")->time.count, 2u);
  EXPECT_EQ(run.ptag.size(), 3u);
  // The workers talk to the same absolute rank, 0, at relative ranks -1, -2, -3: one class.
  EXPECT_EQ(run.ClassRanks(), (std::vector<std::vector<uint32_t>>{{0}, {1, 2, 3}}));
  ExpectConserved(run);
}

TEST(TagScenarioTest, TimeToleranceSeparatesASlowWorker) {
  // Worker 3 computes 20 s longer before its first send; workers 1 and 2 finish their sends
  // early and wait 20 s longer before their second. The distance between workers 1 and 3 is
  // over two flow edges, Init->Send (2-1 = 1 vs 22-1 = 21) and the Send->Send self-edge
  // ((32-3) + (42-33) = 38 vs 9 + 9 = 18): sqrt(20^2 + 20^2) = 28.28 s; each worker's total
  // is the whole 55 s run.
  TagRun strict = BuildScenarioTags(MasterWorker(3, 20), {}, 0.02);
  tag::TimeDistance distance;
  // Graphs are in location order: worker 1 is index 1, worker 3 index 3. Three sends are fewer
  // visits than the scatter allowance counts (kNoiseMinVisits): the tolerance alone decides.
  EXPECT_EQ(tag::Compare(strict.graphs.processes, 1, 3, {.tolerance = 0.02}, &distance),
            tag::Difference::kTimes);
  EXPECT_NEAR(distance.ticks, std::sqrt(800.0), 1e-9);
  EXPECT_NEAR(distance.share_allowance, 0.02 * 55, 1e-9);
  EXPECT_EQ(distance.noise_allowance, 0.0);
  EXPECT_EQ(strict.Rank(3).TotalTicks(), 55.0);
  EXPECT_EQ(strict.ClassRanks(), (std::vector<std::vector<uint32_t>>{{0}, {1, 2}, {3}}));
  // 28.28 / 55 = 51.4%: a tolerance of 52% joins them, 51% does not.
  EXPECT_EQ(BuildScenarioTags(MasterWorker(3, 20), {}, 0.52).ClassRanks(),
            (std::vector<std::vector<uint32_t>>{{0}, {1, 2, 3}}));
  EXPECT_EQ(BuildScenarioTags(MasterWorker(3, 20), {}, 0.51).ClassRanks().size(), 3u);
}

TEST(TagScenarioTest, IrecvAndWaitallGetTheirSendersAtCompletion) {
  // Rank 0 sends 100 bytes from a (5..6, tag 1) and 200 bytes from b (9..10, tag 2). Rank 1
  // posts two MPI_Irecv (1..2 request 1, 3..4 request 2) and completes both in MPI_Waitall
  // 12..14.
  Scenario s(2);
  s.rank(0)
      .Enter(0, "main")
      .Enter(4, "a")
      .Send(5, 6, 1, 1, 100)
      .Leave(7, "a")
      .Enter(8, "b")
      .Send(9, 10, 1, 2, 200)
      .Leave(11, "b")
      .Leave(20, "main");
  s.rank(1)
      .Enter(0, "main")
      .Irecv(1, 2, 1)
      .Irecv(3, 4, 2)
      .Complete(12, 14, "MPI_Waitall",
                [](cw::testing::RankScript& r) {
                  r.IrecvEvent(14, 0, 1, 100, 1).IrecvEvent(14, 0, 2, 200, 2);
                })
      .Leave(20, "main");
  TagRun run = BuildScenarioTags(s);
  EXPECT_EQ(run.NodeOf(1, "main/MPI_Irecv").time.count, 2u);
  const tag::Edge* completion =
      run.Local(1, EdgeKind::kCompletion, "main/MPI_Waitall", "main/MPI_Irecv");
  ASSERT_NE(completion, nullptr);
  EXPECT_EQ(completion->time.count, 2u);
  EXPECT_EQ(completion->time.min, 8.0);   // 12 - 4
  EXPECT_EQ(completion->time.max, 10.0);  // 12 - 2
  // The incoming edges are on the node that posted the receive, not on MPI_Waitall.
  EXPECT_TRUE(run.Messages(1, EdgeKind::kMessageIn, "main/MPI_Waitall").empty());
  auto in = run.Messages(1, EdgeKind::kMessageIn, "main/MPI_Irecv");
  ASSERT_EQ(in.size(), 2u);
  EXPECT_EQ(run.SenderPath(*in[0]), "main/a/MPI_Send");
  EXPECT_EQ(in[0]->bytes, 100u);
  EXPECT_EQ(in[0]->delta_t.total, 5.0 - 12.0);  // the sender entered 7 s before the Waitall
  EXPECT_EQ(in[0]->time.total, 2.0);            // the Waitall that completed it, 12..14
  EXPECT_EQ(run.SenderPath(*in[1]), "main/b/MPI_Send");
  EXPECT_EQ(in[1]->bytes, 200u);
  EXPECT_EQ(in[1]->delta_t.total, 9.0 - 12.0);
  ExpectConserved(run);
}

TEST(TagScenarioTest, CollectivesLinkRootsAndListMembers) {
  // 3 ranks. MPI_Bcast from root 1 (entries 2, 3, 4; leave 6; 8 bytes to each non-root);
  // MPI_Reduce to root 2 (8..9; each sends 8); MPI_Allreduce (10..11; each sends 8, receives
  // 8); MPI_Barrier (12..13).
  Scenario s(3);
  for (int r = 0; r < 3; ++r) {
    uint64_t bcast_entry = 2 + static_cast<uint64_t>(r);
    s.rank(r)
        .Enter(0, "main")
        .Collective(bcast_entry, 6, "MPI_Bcast", OTF2_COLLECTIVE_OP_BCAST, r == 1 ? 16 : 0,
                    r == 1 ? 0 : 8, 1)
        .Collective(8, 9, "MPI_Reduce", OTF2_COLLECTIVE_OP_REDUCE, 8, r == 2 ? 24 : 0, 2)
        .Collective(10, 11, "MPI_Allreduce", OTF2_COLLECTIVE_OP_ALLREDUCE, 8, 8)
        .Collective(12, 13, "MPI_Barrier", OTF2_COLLECTIVE_OP_BARRIER, 0, 0)
        .Leave(20, "main");
  }
  TagRun run = BuildScenarioTags(s);
  // Bcast: each non-root links to the root's node; the root stores nothing.
  for (uint32_t r : {0u, 2u}) {
    auto link = run.Messages(r, EdgeKind::kMessageIn, "main/MPI_Bcast");
    ASSERT_EQ(link.size(), 1u) << r;
    EXPECT_EQ(link[0]->via, MessageVia::kRootLink);
    EXPECT_EQ(link[0]->peer, 1u);
    EXPECT_EQ(link[0]->bytes, 8u);
    EXPECT_EQ(run.SenderPath(*link[0]), "main/MPI_Bcast");
    EXPECT_EQ(link[0]->delta_t.total, 3.0 - (2.0 + r));  // the root entered at 3
  }
  EXPECT_TRUE(run.Messages(1, EdgeKind::kMessageIn, "main/MPI_Bcast").empty());
  // Reduce: the root lists the other members with what each sent.
  auto list = run.Messages(2, EdgeKind::kMessageIn, "main/MPI_Reduce");
  ASSERT_EQ(list.size(), 2u);
  EXPECT_EQ(list[0]->peer, 0u);
  EXPECT_EQ(list[1]->peer, 1u);
  EXPECT_EQ(list[0]->via, MessageVia::kRootList);
  EXPECT_EQ(list[0]->bytes, 8u);
  EXPECT_TRUE(run.Messages(0, EdgeKind::kMessageIn, "main/MPI_Reduce").empty());
  // Rootless operations gather to communicator rank 0.
  EXPECT_EQ(run.Messages(0, EdgeKind::kMessageIn, "main/MPI_Allreduce").size(), 2u);
  EXPECT_EQ(run.Messages(0, EdgeKind::kMessageIn, "main/MPI_Barrier").size(), 2u);
  EXPECT_TRUE(run.Messages(1, EdgeKind::kMessageIn, "main/MPI_Barrier").empty());
  // 2 links + 2 + 2 + 2 list entries.
  EXPECT_EQ(run.ptag.size(), 8u);
  ExpectConserved(run);
}

TEST(TagScenarioTest, EdgeStatisticsAndSizeBuckets) {
  // 1 tick = 1 ms. Rank 0 sends three messages, the calls lasting 10, 20 and 30 ms (0..10,
  // 20..40, 50..80), of 0, 1000 and 1024 bytes; rank 1 receives them (0..15, 20..45, 50..85).
  Scenario s(2, 1000);
  s.rank(0)
      .Enter(0, "main")
      .Send(0, 10, 1, 0, 0)
      .Send(20, 40, 1, 0, 1000)
      .Send(50, 80, 1, 0, 1024)
      .Leave(100, "main");
  s.rank(1)
      .Enter(0, "main")
      .Recv(0, 15, 0, 0, 0)
      .Recv(20, 45, 0, 0, 1000)
      .Recv(50, 85, 0, 0, 1024)
      .Leave(100, "main");
  TagRun run = BuildScenarioTags(s);
  const tag::ProcessGraph& g = run.Rank(0);
  const tag::Stats& send = run.NodeOf(0, "main/MPI_Send").time;
  EXPECT_EQ(send.count, 3u);
  EXPECT_EQ(g.Seconds(send.total), 0.060);
  EXPECT_EQ(g.Seconds(send.min), 0.010);
  EXPECT_EQ(g.Seconds(send.max), 0.030);
  // Population standard deviation: sqrt(((10-20)^2 + 0 + (30-20)^2) / 3) = sqrt(200/3) ms
  // = 8.165 ms (the sample one, sqrt(200/2) = 10 ms, would be wrong).
  EXPECT_NEAR(g.Seconds(send.stddev()), std::sqrt(200.0 / 3) / 1000, 1e-12);
  const tag::Edge* out = run.Messages(0, EdgeKind::kMessageOut, "main/MPI_Send")[0];
  EXPECT_EQ(out->time, send);  // each message edge occurrence is one send call
  EXPECT_EQ(out->bytes, 2024u);
  // 0 bytes: bucket 0; 1000: [512, 1024), bucket 10; 1024: [1024, 2048), bucket 11.
  for (int b = 0; b < tag::kSizeBuckets; ++b) {
    EXPECT_EQ(out->size_histogram[static_cast<size_t>(b)], b == 0 || b == 10 || b == 11 ? 1u : 0u)
        << b;
  }
  ExpectConserved(run);
}

// A marked loop (include/causeway's loop API as a trace records it): rank 0 enters loop
// "pingpong" at 2 and leaves it at 33; 3 iterations from t0 = 3 + 10 k, each beginning with
// its marker at t0, sending t0+1..t0+2 to rank 1 and receiving t0+4..t0+5 from it. Rank 1
// mirrors it without markers.
TEST(TagScenarioTest, MarkedLoopHasMarkersIterationsAndOneCausalPath) {
  Scenario s(2);
  for (int r = 0; r < 2; ++r) s.rank(r).Enter(0, "main").Call(0, 1, "MPI_Init");
  s.rank(0).Enter(2, "loop:pingpong");
  for (uint64_t k = 0; k < 3; ++k) {
    const uint64_t t0 = 3 + 10 * k;
    s.rank(0).Enter(t0, "pingpong iteration").Leave(t0, "pingpong iteration");
    s.rank(0).Send(t0 + 1, t0 + 2, 1, 0, 8).Recv(t0 + 4, t0 + 5, 1, 0, 8);
    s.rank(1).Recv(t0 + 1, t0 + 3, 0, 0, 8).Send(t0 + 3, t0 + 4, 0, 0, 8);
  }
  s.rank(0).Leave(33, "loop:pingpong");
  for (int r = 0; r < 2; ++r) s.rank(r).Call(34, 35, "MPI_Finalize").Leave(36, "main");
  TagRun run = BuildScenarioTags(s);
  const tag::ProcessGraph& g = run.Rank(0);
  // The loop's markers are nodes named by the loop, with the call path of where it runs; the
  // calls inside keep main/... (a loop is not a function on the stack).
  const tag::Node& entry = run.NodeOf(0, "main/pingpong");
  EXPECT_EQ(entry.kind, tag::NodeKind::kLoopEntry);
  EXPECT_EQ(entry.time.count, 1u);
  EXPECT_EQ(entry.iterations, 3u);
  EXPECT_EQ(run.Local(0, EdgeKind::kFlow, "main/pingpong", "main/MPI_Send")->time.total, 2.0);
  // Send -> Recv three times, the back edge Recv -> Send twice.
  EXPECT_EQ(run.Local(0, EdgeKind::kFlow, "main/MPI_Send", "main/MPI_Recv")->time.count, 3u);
  EXPECT_EQ(run.Local(0, EdgeKind::kFlow, "main/MPI_Recv", "main/MPI_Send")->time.count, 2u);
  // One causal path, taken by all 3 iterations: the send to 1, the receive from 1. Each
  // iteration lasts from its marker to the next (10 s), the last to the loop's end (33 - 23).
  ASSERT_EQ(g.paths.size(), 1u);
  const tag::CausalPath& path = g.paths[0];
  EXPECT_EQ(path.loop, run.Node(0, "main/pingpong"));
  EXPECT_EQ(path.steps, (std::vector<tag::PathStep>{{run.Node(0, "main/MPI_Send"), 1},
                                                    {run.Node(0, "main/MPI_Recv"), 1}}));
  EXPECT_EQ(path.time.count, 3u);
  EXPECT_EQ(path.time.total, 30.0);
  EXPECT_EQ(path.time.min, 10.0);
  EXPECT_TRUE(run.Rank(1).paths.empty());  // rank 1 marks no loop
  // The sections: before the loop (start, MPI_Init, the marker), the loop, after it.
  const std::vector<tag::Section> sections = tag::FindSections(g);
  ASSERT_EQ(sections.size(), 3u);
  EXPECT_EQ(sections[1].kind, tag::SectionKind::kLoop);
  EXPECT_EQ(sections[1].label, "loop pingpong at main/MPI_Send");
  EXPECT_EQ(sections[1].iterations, 3u);  // the marker's count
  ExpectConserved(run);
}

// Sikora et al. 2016's loop 19: the same activities in every iteration, but the paths differ by the
// sender: the master receives from workers 1 and 2 in order (1, 2), (2, 1), (1, 2).
TEST(TagScenarioTest, CausalPathsDifferBySender) {
  Scenario s(3);
  for (int r = 0; r < 3; ++r) s.rank(r).Enter(0, "main").Call(0, 1, "MPI_Init");
  s.rank(0).Enter(2, "loop:collect");
  const int order[3][2] = {{1, 2}, {2, 1}, {1, 2}};
  for (uint64_t k = 0; k < 3; ++k) {
    const uint64_t t0 = 3 + 10 * k;
    s.rank(0).Enter(t0, "collect iteration").Leave(t0, "collect iteration");
    for (uint64_t j = 0; j < 2; ++j) {
      const int w = order[k][j];
      s.rank(0).Recv(t0 + 1 + 2 * j, t0 + 2 + 2 * j, w, 0, 8);
      s.rank(w).Send(t0 + 1 + 2 * j, t0 + 2 + 2 * j, 0, 0, 8);
    }
  }
  s.rank(0).Leave(33, "loop:collect");
  for (int r = 0; r < 3; ++r) s.rank(r).Call(34, 35, "MPI_Finalize").Leave(36, "main");
  TagRun run = BuildScenarioTags(s);
  const std::vector<tag::CausalPath>& paths = run.Rank(0).paths;
  ASSERT_EQ(paths.size(), 2u);
  const uint32_t recv = run.Node(0, "main/MPI_Recv");
  EXPECT_EQ(paths[0].steps, (std::vector<tag::PathStep>{{recv, 1}, {recv, 2}}));
  EXPECT_EQ(paths[0].time.count, 2u);
  EXPECT_EQ(paths[1].steps, (std::vector<tag::PathStep>{{recv, 2}, {recv, 1}}));
  EXPECT_EQ(paths[1].time.count, 1u);
}

TEST(TagScenarioTest, RecursionIsFoldedBeyondTheDepthLimit) {
  // solve calls itself four deep and sends at the bottom; with the limit 2 the calls below the
  // second solve count as calls at that depth.
  Scenario s(2);
  s.rank(0).Enter(0, "main");
  for (int d = 0; d < 4; ++d) s.rank(0).Enter(1 + static_cast<uint64_t>(d), "solve");
  s.rank(0).Send(5, 6, 1, 0, 8);
  for (int d = 3; d >= 0; --d) s.rank(0).Leave(7 + static_cast<uint64_t>(3 - d), "solve");
  s.rank(0).Leave(20, "main");
  s.rank(1).Enter(0, "main").Recv(1, 7, 0, 0, 8).Leave(20, "main");
  tag::GraphBuildOptions options;
  options.recursion_depth = 2;
  TagRun run = BuildScenarioTags(s, options);
  EXPECT_EQ(run.NodeOf(0, "main/solve/solve/MPI_Send").time.count, 1u);
  // main/solve/solve/solve and main/solve/solve/solve/solve fold; so does the send below them.
  EXPECT_EQ(run.graphs.folded_callpaths, 3u);
  options.recursion_depth = 0;
  EXPECT_EQ(
      BuildScenarioTags(s, options).NodeOf(0, "main/solve/solve/solve/solve/MPI_Send").time.count,
      1u);
}

TEST(TagScenarioTest, UserRegionsBecomeNodesAndHoldTheirCalls) {
  // kernel 2..6 holds an MPI_Send 3..4; with --region 'kern*' the kernel is the activity.
  Scenario s(2);
  s.rank(0)
      .Enter(0, "main")
      .Enter(2, "kernel")
      .Send(3, 4, 1, 0, 8)
      .Leave(6, "kernel")
      .Leave(10, "main");
  s.rank(1).Enter(0, "main").Recv(1, 5, 0, 0, 8).Leave(10, "main");
  tag::GraphBuildOptions options;
  options.regions = {"kern*"};
  TagRun run = BuildScenarioTags(s, options);
  const tag::Node& kernel = run.NodeOf(0, "main/kernel");
  EXPECT_EQ(kernel.kind, tag::NodeKind::kRegion);
  EXPECT_EQ(kernel.time.total, 4.0);
  EXPECT_EQ(run.Rank(0).nodes.size(), 3u);  // start, kernel, end: the send is inside
  EXPECT_EQ(run.Messages(0, EdgeKind::kMessageOut, "main/kernel").size(), 1u);
  EXPECT_EQ(run.SenderPath(*run.Messages(1, EdgeKind::kMessageIn, "main/MPI_Recv")[0]),
            "main/kernel");
}

TEST(TagTendencyTest, ManyLateSendersOneReceiver) {
  // Each of 3 rounds from t0 = 2 + 10 k: the master receives from worker 1 in t0..t0+3,
  // worker 2 in t0+3..t0+5, worker 3 in t0+5..t0+7; worker w sends at t0 + 2w..+1. Each
  // receive began before its send: waits of min(delta, duration) = 2, 1 and 1 s per round.
  Scenario s(4);
  for (int r = 0; r < 4; ++r) s.rank(r).Enter(0, "main");
  for (int k = 0; k < 3; ++k) {
    uint64_t t0 = 2 + 10 * static_cast<uint64_t>(k);
    s.rank(0).Recv(t0, t0 + 3, 1, 0, 8).Recv(t0 + 3, t0 + 5, 2, 0, 8).Recv(t0 + 5, t0 + 7, 3, 0, 8);
    for (int w = 1; w < 4; ++w) {
      uint64_t at = t0 + 2 * static_cast<uint64_t>(w);
      s.rank(w).Send(at, at + 1, 0, 0, 8);
    }
  }
  for (int r = 0; r < 4; ++r) s.rank(r).Leave(40, "main");
  TagRun run = BuildScenarioTags(s);
  tag::GraphFindings f = tag::FindTendencies(run.graphs.processes, run.clusters);
  ASSERT_EQ(f.tendencies.size(), 1u);
  const tag::Tendency& t = f.tendencies[0];
  EXPECT_EQ(t.kind, tag::TendencyKind::kLateSender);
  EXPECT_EQ(run.Rank(0).nodes[t.node].callpath, "main/MPI_Recv");
  EXPECT_EQ(t.peers, (std::vector<uint32_t>{1, 2, 3}));
  EXPECT_TRUE(t.many_senders);
  EXPECT_EQ(t.messages, 9u);
  EXPECT_EQ(t.late, 9u);
  EXPECT_EQ(t.ticks, 3 * (2.0 + 1.0 + 1.0));
}

TEST(TagTendencyTest, PingPongReceiverIsLate) {
  // Rank 0 enters each receive 1 s after rank 1 entered its send: a late receiver, 5 x 1 s.
  // Rank 1's receives begin with the sends (delta 0): neither.
  TagRun run = BuildScenarioTags(PingPong(5));
  tag::GraphFindings f = tag::FindTendencies(run.graphs.processes, run.clusters);
  ASSERT_EQ(f.tendencies.size(), 1u);
  EXPECT_EQ(f.tendencies[0].kind, tag::TendencyKind::kLateReceiver);
  EXPECT_EQ(run.graphs.processes[f.tendencies[0].process].rank, 0u);
  EXPECT_EQ(f.tendencies[0].peers, (std::vector<uint32_t>{1}));
  EXPECT_EQ(f.tendencies[0].ticks, 5.0);
}

TEST(TagTendencyTest, ImbalanceWithinAndBetweenClasses) {
  // MasterWorker(3, 20) (derived above): worker 3 computes 21 s before its first send where
  // workers 1 and 2 compute 1 s, and 18 s between its sends where they compute 38 s.
  {
    // With a 52% tolerance the workers are one class: Init->Send 1, 1, 21 (mean 23/3, slowest
    // rank 3) and Send->Send 38, 38, 18 (mean 94/3, slowest rank 1); their sends all take 3 s.
    TagRun run = BuildScenarioTags(MasterWorker(3, 20), {}, 0.52);
    tag::GraphFindings f = tag::FindTendencies(run.graphs.processes, run.clusters);
    ASSERT_EQ(f.class_spreads.size(), 2u);
    EXPECT_EQ(f.class_spreads[0].callpath, "main/MPI_Init -> main/MPI_Send");
    EXPECT_EQ(f.class_spreads[0].slowest_rank, 3u);
    EXPECT_NEAR(f.class_spreads[0].mean_ticks, 23.0 / 3, 1e-12);
    EXPECT_EQ(f.class_spreads[0].max_ticks, 21.0);
    EXPECT_EQ(f.class_spreads[1].callpath, "main/MPI_Send -> main/MPI_Send");
    EXPECT_EQ(f.class_spreads[1].slowest_rank, 1u);
    EXPECT_EQ(f.class_spreads[1].min_ticks, 18.0);
  }
  {
    // With 2% they are classes {1, 2} and {3}: the same two computations differ between them
    // by 20 s each (1 vs 21, 38 vs 18), in that order (ties keep the activities' order).
    TagRun run = BuildScenarioTags(MasterWorker(3, 20), {}, 0.02);
    tag::GraphFindings f = tag::FindTendencies(run.graphs.processes, run.clusters);
    EXPECT_TRUE(f.class_spreads.empty());
    ASSERT_EQ(f.between_classes.size(), 2u);
    EXPECT_EQ(f.between_classes[0].front().callpath, "main/MPI_Init -> main/MPI_Send");
    ASSERT_EQ(f.between_classes[0].size(), 2u);
    EXPECT_EQ(f.between_classes[0][0].mean_ticks, 1.0);
    EXPECT_EQ(f.between_classes[0][1].mean_ticks, 21.0);
    EXPECT_EQ(f.between_classes[1].front().callpath, "main/MPI_Send -> main/MPI_Send");
  }
}

TEST(TagStatsTest, MergeEqualsAddingEverything) {
  tag::Stats all, a, b;
  for (double x : {10.0, 20.0, 30.0, 45.0}) all.Add(x);
  a.Add(10);
  for (double x : {20.0, 30.0, 45.0}) b.Add(x);
  a.Merge(b);
  EXPECT_EQ(a.count, all.count);
  EXPECT_EQ(a.total, all.total);
  EXPECT_EQ(a.min, 10.0);
  EXPECT_EQ(a.max, 45.0);
  EXPECT_NEAR(a.stddev(), all.stddev(), 1e-12);
}

}  // namespace
}  // namespace cw::test
