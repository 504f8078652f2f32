// Waiting in the non-blocking collectives (MPI_Ialltoallv, Iallreduce, Ibarrier, ...): a member
// starts the operation in one call (its NonBlockingCollectiveRequest record) and completes it in
// a later one (MPI_Wait, with the NonBlockingCollectiveComplete record). It waits in the
// completing call, from that call's Enter b_w to the latest start s_k of the members whose data
// it needs: max(0, min(latest s_k, e_w) - b_w), in mpi_wait_senders. One tick is one second.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tests/common/analysis_fixture.h"

namespace cw::test {
namespace {

using testing::RankScript;
using testing::Scenario;

constexpr uint32_t kNoRoot = OTF2_UNDEFINED_UINT32;
constexpr uint32_t kNoSenders = ~0u;

// What one member does: starts at `start` (the starting call takes one second), computes, and
// completes in MPI_Wait from `wait` to `end`.
struct Member {
  uint64_t start;
  uint64_t wait;
  uint64_t end;
  uint64_t sent;
  uint64_t received;
  uint32_t senders = kNoSenders;  // a group from Scenario::AddGroup, or none (Score-P)
};

RankScript& Start(RankScript& r, const char* call, const Member& m, uint64_t request) {
  r.Enter(m.start, call);
  if (m.senders == kNoSenders) {
    r.NbcRequestEvent(m.start, request);
  } else {
    r.NbcRequestEvent(m.start, request, m.senders);
  }
  return r.Leave(m.start + 1, call);
}

RankScript& Complete(RankScript& r, OTF2_CollectiveOp op, const Member& m, uint64_t request,
                     uint32_t root) {
  return r.Complete(m.wait, m.end, "MPI_Wait", [&](RankScript& w) {
    w.NbcCompleteEvent(m.end, op, 0, root, m.sent, m.received, request);
  });
}

// Every rank starts one operation and completes it in MPI_Wait.
Scenario OneOperation(const char* call, OTF2_CollectiveOp op, const std::vector<Member>& members,
                      uint32_t root = kNoRoot) {
  Scenario s(static_cast<int>(members.size()));
  for (size_t r = 0; r < members.size(); ++r) {
    RankScript& rank = s.rank(static_cast<int>(r));
    rank.Enter(0, "main");
    Start(rank, call, members[r], 7);
    Complete(rank, op, members[r], 7, root).Leave(20, "main");
  }
  return s;
}

// Four ranks; each names the senders its receive counts give (world ranks):
//   rank 0 starts at 10, waits in MPI_Wait from 12 to 14; its sender rank 1 started at 2: 0;
//   rank 1 starts at 2, waits from 3 to 13 for its senders 0 and 1: min(10, 13) - 3 = 7;
//   rank 2 starts at 6, waits from 7 to 12 for rank 3, which started at 2: 0;
//   rank 3 starts at 2, waits from 3 to 12 for rank 2: min(6, 12) - 3 = 3.
// The blocking rule would measure rank 1's wait from its start (2) and give 8.
Scenario FourRanks(const char* call, OTF2_CollectiveOp op, bool name_senders = true) {
  Scenario s(4);
  const uint32_t from_1 = s.AddGroup({1}), from_0_and_1 = s.AddGroup({0, 1});
  const uint32_t from_3 = s.AddGroup({3}), from_2 = s.AddGroup({2});
  std::vector<Member> m = {{10, 12, 14, 8, 8, from_1},
                           {2, 3, 13, 8, 8, from_0_and_1},
                           {6, 7, 12, 8, 8, from_3},
                           {2, 3, 12, 8, 8, from_2}};
  if (!name_senders) {
    for (Member& member : m) member.senders = kNoSenders;
  }
  for (int r = 0; r < 4; ++r) {
    RankScript& rank = s.rank(r);
    rank.Enter(0, "main");
    Start(rank, call, m[static_cast<size_t>(r)], 7);
    Complete(rank, op, m[static_cast<size_t>(r)], 7, kNoRoot).Leave(20, "main");
  }
  return s;
}

TEST(NonBlockingCollectiveTest, TheCompletingCallWaitsForTheSendersToStart) {
  for (auto [call, op] : {std::pair{"MPI_Ialltoallv", OTF2_COLLECTIVE_OP_ALLTOALLV},
                          std::pair{"MPI_Ialltoallw", OTF2_COLLECTIVE_OP_ALLTOALLW},
                          std::pair{"MPI_Iallgatherv", OTF2_COLLECTIVE_OP_ALLGATHERV}}) {
    SCOPED_TRACE(call);
    Analysis a = AnalyzeScenario(FourRanks(call, op));
    EXPECT_EQ(a.Value("mpi_wait_senders", "main/MPI_Wait", 0), 0.0);
    EXPECT_EQ(a.Value("mpi_wait_senders", "main/MPI_Wait", 1), 7.0);
    EXPECT_EQ(a.Value("mpi_wait_senders", "main/MPI_Wait", 2), 0.0);
    EXPECT_EQ(a.Value("mpi_wait_senders", "main/MPI_Wait", 3), 3.0);
    EXPECT_EQ(a.Total("mpi_wait_senders"), 10.0);
    EXPECT_EQ(a.Total("mpi_wait_nxn"), 0.0);
    EXPECT_EQ(a.report.trace.clock_violations_collective, 0u);
    // The delay analysis follows each wait to the call where its sender started: rank 0
    // computed in main for 10 s before it, rank 1 for 2 s (then 1 s in its starting call), so
    // rank 1's 7 s are rank 0's main's; rank 2 computed 6 s against rank 3's 2: rank 3's 3 s
    // are rank 2's main's.
    EXPECT_EQ(a.Value("delay_senders", "main", 0), 7.0);
    EXPECT_EQ(a.Value("delay_senders", "main", 2), 3.0);
    EXPECT_EQ(a.Total("delay_senders"), 10.0);
  }
}

TEST(NonBlockingCollectiveTest, NoWaitWithoutTheSendersOrUnderScalascasSemantics) {
  // Score-P's traces do not name the senders: zero counts leave the synchronisation unknown.
  Analysis unnamed =
      AnalyzeScenario(FourRanks("MPI_Ialltoallv", OTF2_COLLECTIVE_OP_ALLTOALLV, false));
  EXPECT_EQ(unnamed.Total("mpi_wait_senders"), 0.0);
  // Scalasca 2.6 analyses no non-blocking collective.
  Analysis scalasca = AnalyzeScenario(FourRanks("MPI_Ialltoallv", OTF2_COLLECTIVE_OP_ALLTOALLV), 2,
                                      analysis::Semantics::kScalasca);
  EXPECT_EQ(scalasca.Total("mpi_wait_senders"), 0.0);
  EXPECT_EQ(scalasca.Total("mpi_wait_nxn"), 0.0);
}

TEST(NonBlockingCollectiveTest, TheRootOfIgathervWaitsForTheMembersThatSend) {
  // Root 0 starts at 2 and waits in MPI_Wait from 3 to 12; rank 1 starts at 5, rank 2 at 9.
  // With both sending, the root waits for rank 2: min(9, 12) - 3 = 6. When rank 2 sends
  // nothing, for rank 1: min(5, 12) - 3 = 2. The others receive nothing and never wait.
  for (uint64_t last_sends : {8u, 0u}) {
    SCOPED_TRACE(last_sends);
    Analysis a = AnalyzeScenario(OneOperation(
        "MPI_Igatherv", OTF2_COLLECTIVE_OP_GATHERV,
        {{2, 3, 12, 8, 8 + last_sends}, {5, 6, 11, 8, 0}, {9, 10, 12, last_sends, 0}}, 0));
    EXPECT_EQ(a.Value("mpi_wait_senders", "main/MPI_Wait", 0), last_sends > 0 ? 6.0 : 2.0);
    EXPECT_EQ(a.Total("mpi_wait_senders"), last_sends > 0 ? 6.0 : 2.0);
    EXPECT_EQ(a.Total("mpi_earlyreduce"), 0.0);
  }
}

TEST(NonBlockingCollectiveTest, TheMembersOfIscattervWaitForTheRoot) {
  // Root 1 starts at 5. Rank 0 starts at 2 and waits in MPI_Wait from 3 to 10 for it:
  // min(5, 10) - 3 = 2; rank 2 entered its MPI_Wait at 10, after the root started: 0. A rank 0
  // that receives nothing waits for nobody.
  for (uint64_t first_receives : {8u, 0u}) {
    SCOPED_TRACE(first_receives);
    Analysis a = AnalyzeScenario(OneOperation(
        "MPI_Iscatterv", OTF2_COLLECTIVE_OP_SCATTERV,
        {{2, 3, 10, 0, first_receives}, {5, 6, 11, 8 + first_receives, 0}, {9, 10, 12, 0, 8}}, 1));
    EXPECT_EQ(a.Value("mpi_wait_senders", "main/MPI_Wait", 0), first_receives > 0 ? 2.0 : 0.0);
    EXPECT_EQ(a.Total("mpi_wait_senders"), first_receives > 0 ? 2.0 : 0.0);
    EXPECT_EQ(a.Total("mpi_latebroadcast"), 0.0);
  }
}

TEST(NonBlockingCollectiveTest, EveryKindWaitsForTheMembersItNeedsData) {
  // Three ranks start at 2, 5 and 9 and enter their MPI_Wait one second later (3, 6, 10); all
  // complete at 12. Each moves 8 bytes each way unless the kind says otherwise.
  //   MPI_Ibarrier, MPI_Iallreduce: each waits for the latest other start: rank 0 for rank 2,
  //     min(9, 12) - 3 = 6; rank 1, 9 - 6 = 3; rank 2 for nobody later (5 < 10): 9.
  //   MPI_Ibcast from root 1: rank 0 waits for the root, 5 - 3 = 2; rank 2 started its wait
  //     after the root started: 2.
  //   MPI_Ireduce to root 0: the root waits for the latest sender, rank 2: 9 - 3 = 6.
  //   MPI_Iscan with the starts reversed (9, 5, 2; waits from 10, 6, 3): each rank waits for the
  //     latest lower rank: rank 1 for rank 0, 9 - 6 = 3; rank 2 for rank 0, 9 - 3 = 6: 9.
  struct Case {
    const char* call;
    OTF2_CollectiveOp op;
    uint32_t root;
    bool reversed;
    std::vector<double> waits;
  };
  const std::vector<Case> cases = {
      {"MPI_Ibarrier", OTF2_COLLECTIVE_OP_BARRIER, kNoRoot, false, {6, 3, 0}},
      {"MPI_Iallreduce", OTF2_COLLECTIVE_OP_ALLREDUCE, kNoRoot, false, {6, 3, 0}},
      {"MPI_Ibcast", OTF2_COLLECTIVE_OP_BCAST, 1, false, {2, 0, 0}},
      {"MPI_Ireduce", OTF2_COLLECTIVE_OP_REDUCE, 0, false, {6, 0, 0}},
      {"MPI_Iscan", OTF2_COLLECTIVE_OP_SCAN, kNoRoot, true, {0, 3, 6}}};
  for (const Case& c : cases) {
    SCOPED_TRACE(c.call);
    std::vector<Member> members;
    for (uint64_t r = 0; r < 3; ++r) {
      const uint64_t start =
          c.reversed ? std::vector<uint64_t>{9, 5, 2}[r] : std::vector<uint64_t>{2, 5, 9}[r];
      Member m{start, start + 1, 12, 8, 8};
      if (c.op == OTF2_COLLECTIVE_OP_BARRIER) m.sent = m.received = 0;
      if (c.op == OTF2_COLLECTIVE_OP_BCAST) {
        m.sent = r == c.root ? 16 : 0;
        m.received = r == c.root ? 0 : 8;
      }
      if (c.op == OTF2_COLLECTIVE_OP_REDUCE) m.received = r == c.root ? 8 : 0;
      members.push_back(m);
    }
    Analysis a = AnalyzeScenario(OneOperation(c.call, c.op, members, c.root));
    for (uint32_t r = 0; r < 3; ++r) {
      EXPECT_EQ(a.Value("mpi_wait_senders", "main/MPI_Wait", r), c.waits[r]) << "rank " << r;
    }
    // The blocking operations' metrics keep Scalasca's definitions: nothing of it there.
    for (const char* metric : {"mpi_barrier_wait", "mpi_wait_nxn", "mpi_latebroadcast",
                               "mpi_earlyreduce", "mpi_earlyscan"}) {
      EXPECT_EQ(a.Total(metric), 0.0) << metric;
    }
  }
}

TEST(NonBlockingCollectiveTest, OperationsMatchInTheOrderTheyStartedNotCompleted) {
  // Two MPI_Ialltoallv on each of two ranks, A (request 1) and B (request 2), each rank the
  // other's sender. Rank 0 starts A at 1 and B at 2, then completes B in MPI_Wait from 4 to 10
  // and A from 10 to 11; rank 1 starts A at 5 and B at 8 and completes A (9 to 10), then B (10
  // to 11). Matched by start, rank 0's wait for B waits for rank 1's B: min(8, 10) - 4 = 4, and
  // nobody else waits. (Matched by completion, it would have waited for rank 1's A: 1.)
  Scenario s(2);
  const uint32_t from_0 = s.AddGroup({0}), from_1 = s.AddGroup({1});
  const OTF2_CollectiveOp op = OTF2_COLLECTIVE_OP_ALLTOALLV;
  auto member = [&](uint64_t start, uint64_t wait, uint64_t end, uint32_t senders) {
    return Member{start, wait, end, 8, 8, senders};
  };
  RankScript& r0 = s.rank(0).Enter(0, "main");
  Start(r0, "MPI_Ialltoallv", member(1, 10, 11, from_1), 1);
  Start(r0, "MPI_Ialltoallv", member(2, 4, 10, from_1), 2);
  Complete(r0, op, member(2, 4, 10, from_1), 2, kNoRoot);
  Complete(r0, op, member(1, 10, 11, from_1), 1, kNoRoot).Leave(20, "main");
  RankScript& r1 = s.rank(1).Enter(0, "main");
  Start(r1, "MPI_Ialltoallv", member(5, 9, 10, from_0), 1);
  Start(r1, "MPI_Ialltoallv", member(8, 10, 11, from_0), 2);
  Complete(r1, op, member(5, 9, 10, from_0), 1, kNoRoot);
  Complete(r1, op, member(8, 10, 11, from_0), 2, kNoRoot).Leave(20, "main");
  Analysis a = AnalyzeScenario(s);
  EXPECT_EQ(a.Value("mpi_wait_senders", "main/MPI_Wait", 0), 4.0);
  EXPECT_EQ(a.Total("mpi_wait_senders"), 4.0);
  EXPECT_EQ(a.report.trace.clock_violations_collective, 0u);
}

TEST(NonBlockingCollectiveTest, ACallThatCompletesSeveralWaitsOnceAndATestNever) {
  // Two MPI_Ialltoallv on each of two ranks, each rank the other's sender. Rank 0 starts A at 1
  // and B at 2 and completes both in one MPI_Waitall from 3 to 12; rank 1 starts A at 6 and B at
  // 9 and completes both from 10 to 12. Rank 0 waited in its MPI_Waitall for rank 1's A
  // (min(6, 12) - 3 = 3) and B (min(9, 12) - 3 = 6) at once: as for Late Senders in a
  // Waitall, the latest sender counts, 6 (not 9: the call lasted 9 s and computed nothing).
  // Then a third, C, which rank 0 starts at 13 and completes in an MPI_Test from 15 to 17, and
  // rank 1 starts at 16: a test never waits (as for Late Senders), though min(16, 17) - 15 = 1.
  Scenario s(2);
  const uint32_t from_0 = s.AddGroup({0}), from_1 = s.AddGroup({1});
  const OTF2_CollectiveOp op = OTF2_COLLECTIVE_OP_ALLTOALLV;
  for (int r = 0; r < 2; ++r) {
    const uint32_t senders = r == 0 ? from_1 : from_0;
    const uint64_t a = r == 0 ? 1 : 6, b = r == 0 ? 2 : 9, c = r == 0 ? 13 : 16;
    const uint64_t wait = r == 0 ? 3 : 10;
    RankScript& rank = s.rank(r).Enter(0, "main");
    Start(rank, "MPI_Ialltoallv", Member{a, 0, 0, 8, 8, senders}, 1);
    Start(rank, "MPI_Ialltoallv", Member{b, 0, 0, 8, 8, senders}, 2);
    rank.Complete(wait, 12, "MPI_Waitall", [&](RankScript& w) {
      w.NbcCompleteEvent(12, op, 0, kNoRoot, 8, 8, 1).NbcCompleteEvent(12, op, 0, kNoRoot, 8, 8, 2);
    });
    Start(rank, "MPI_Ialltoallv", Member{c, 0, 0, 8, 8, senders}, 3);
    rank.Complete(
        r == 0 ? 15 : 17, r == 0 ? 17 : 18, r == 0 ? "MPI_Test" : "MPI_Wait",
        [&](RankScript& w) { w.NbcCompleteEvent(r == 0 ? 17 : 18, op, 0, kNoRoot, 8, 8, 3); });
    rank.Leave(20, "main");
  }
  Analysis a = AnalyzeScenario(s);
  EXPECT_EQ(a.Value("mpi_wait_senders", "main/MPI_Waitall", 0), 6.0);
  EXPECT_EQ(a.Value("mpi_wait_senders", "main/MPI_Test", 0), 0.0);
  EXPECT_EQ(a.Total("mpi_wait_senders"), 6.0);
  // The one wait's edge leads to rank 1's start of B at 9: before it rank 1 spent 8 s in main
  // (and 1 s starting A), rank 0 before its MPI_Waitall 1 s in main (and 2 s starting A and B),
  // so the 6 s are rank 1's main's, followed once, not for each operation.
  EXPECT_EQ(a.Value("delay_senders", "main", 1), 6.0);
  EXPECT_EQ(a.Total("delay_senders"), 6.0);
}

TEST(NonBlockingCollectiveTest, AnOperationNeverCompletedOnOneRankIsIncomplete) {
  // Rank 2 starts its MPI_Ialltoallv and ends without completing it: the instance lacks it, is
  // reported incomplete, and nobody's wait is measured against a member the trace cannot time.
  Scenario s(3);
  const uint32_t from_all = s.AddGroup({0, 1, 2});
  for (int r = 0; r < 3; ++r) {
    RankScript& rank = s.rank(r).Enter(0, "main");
    const Member m{static_cast<uint64_t>(2 + 3 * r), 10, 12, 8, 24, from_all};
    Start(rank, "MPI_Ialltoallv", m, 7);
    if (r != 2) Complete(rank, OTF2_COLLECTIVE_OP_ALLTOALLV, m, 7, kNoRoot);
    rank.Leave(20, "main");
  }
  Analysis a = AnalyzeScenario(s);
  EXPECT_EQ(a.Total("mpi_wait_senders"), 0.0);
  EXPECT_EQ(a.graph.stats.incomplete_collectives, 1u);
}

}  // namespace
}  // namespace cw::test
