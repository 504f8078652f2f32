// Collective wait states with three ranks entering at different times. One tick is one second.
// Unless a test says otherwise, ranks 0, 1, 2 begin the operation at 2, 5, 9 and end it at 10,
// 11, 12, so: latest entrant = rank 2 (9), first to leave = rank 0 (10).
#include <gtest/gtest.h>

#include <string>
#include <tuple>

#include "tests/common/analysis_fixture.h"

namespace cw::test {
namespace {

using testing::Scenario;

struct Timing {
  uint64_t begin;
  uint64_t end;
};
constexpr Timing kDefault[3] = {{2, 10}, {5, 11}, {9, 12}};

struct Bytes {
  uint64_t sent;
  uint64_t received;
};

Analysis RunCollective(const char* call, OTF2_CollectiveOp op, const Bytes (&bytes)[3],
                       uint32_t root = OTF2_UNDEFINED_UINT32, const Timing (&t)[3] = kDefault) {
  Scenario s(3);
  for (int r = 0; r < 3; ++r) {
    s.rank(r)
        .Enter(0, "main")
        .Collective(t[r].begin, t[r].end, call, op, bytes[r].sent, bytes[r].received, root)
        .Leave(20, "main");
  }
  return AnalyzeScenario(s);
}

constexpr Bytes kAllMoveData[3] = {{8, 8}, {8, 8}, {8, 8}};

TEST(CollectiveTest, WaitAtBarrierAndBarrierCompletion) {
  // wait_r = max(0, min(latest=9, end_r) - begin_r): 9-2 = 7, 9-5 = 4, 0.
  // completion_r = max(0, end_r - max(first_end=10, min(9, end_r))): 0, 11-10 = 1, 12-10 = 2.
  Analysis a = RunCollective("MPI_Barrier", OTF2_COLLECTIVE_OP_BARRIER, {{0, 0}, {0, 0}, {0, 0}});
  EXPECT_EQ(a.Value("mpi_barrier_wait", "main/MPI_Barrier", 0), 7.0);
  EXPECT_EQ(a.Value("mpi_barrier_wait", "main/MPI_Barrier", 1), 4.0);
  EXPECT_EQ(a.Value("mpi_barrier_wait", "main/MPI_Barrier", 2), 0.0);
  EXPECT_EQ(a.Value("mpi_barrier_completion", "main/MPI_Barrier", 0), 0.0);
  EXPECT_EQ(a.Value("mpi_barrier_completion", "main/MPI_Barrier", 1), 1.0);
  EXPECT_EQ(a.Value("mpi_barrier_completion", "main/MPI_Barrier", 2), 2.0);
  // Both are part of the barrier's time: 8 + 6 + 3 = 17 s in mpi_sync_collective.
  EXPECT_EQ(a.Total("mpi_sync_collective"), 17.0);
  EXPECT_EQ(a.Total("mpi_wait_nxn"), 0.0);
  EXPECT_EQ(a.report.trace.clock_violations_collective, 0u);
}

TEST(CollectiveTest, WaitsFromTheEnterWhenTheTraceHasNoBeginRecord) {
  // Writers other than Score-P may leave out MPI_CollectiveBegin: the Enter of the call stands
  // in for it. Same timings as above, so the same waits: 9-2 = 7, 9-5 = 4, 0 (measured from the
  // Enters, not from the Leaves that an Enter's pair would give).
  Scenario s(3);
  for (int r = 0; r < 3; ++r) {
    s.rank(r)
        .Enter(0, "main")
        .Enter(kDefault[r].begin, "MPI_Barrier")
        .CollectiveEndEvent(kDefault[r].end, OTF2_COLLECTIVE_OP_BARRIER, 0, OTF2_UNDEFINED_UINT32,
                            0, 0)
        .Leave(kDefault[r].end, "MPI_Barrier")
        .Leave(20, "main");
  }
  Analysis a = AnalyzeScenario(s);
  EXPECT_EQ(a.Value("mpi_barrier_wait", "main/MPI_Barrier", 0), 7.0);
  EXPECT_EQ(a.Value("mpi_barrier_wait", "main/MPI_Barrier", 1), 4.0);
  EXPECT_EQ(a.Value("mpi_barrier_wait", "main/MPI_Barrier", 2), 0.0);
}

TEST(CollectiveTest, WaitAtNxNForEveryAllToAllKind) {
  // Same numbers as the barrier (full overlap: first exit 10 > last entry 9).
  for (auto [call, op] : {std::pair{"MPI_Allreduce", OTF2_COLLECTIVE_OP_ALLREDUCE},
                          std::pair{"MPI_Allgather", OTF2_COLLECTIVE_OP_ALLGATHER},
                          std::pair{"MPI_Allgatherv", OTF2_COLLECTIVE_OP_ALLGATHERV},
                          std::pair{"MPI_Alltoall", OTF2_COLLECTIVE_OP_ALLTOALL},
                          std::pair{"MPI_Reduce_scatter", OTF2_COLLECTIVE_OP_REDUCE_SCATTER}}) {
    SCOPED_TRACE(call);
    Analysis a = RunCollective(call, op, kAllMoveData);
    std::string cp = std::string("main/") + call;
    EXPECT_EQ(a.Value("mpi_wait_nxn", cp, 0), 7.0);
    EXPECT_EQ(a.Value("mpi_wait_nxn", cp, 1), 4.0);
    EXPECT_EQ(a.Value("mpi_wait_nxn", cp, 2), 0.0);
    EXPECT_EQ(a.Value("mpi_nxn_completion", cp, 1), 1.0);
    EXPECT_EQ(a.Value("mpi_nxn_completion", cp, 2), 2.0);
    EXPECT_EQ(a.Total("mpi_collective"), 17.0);
  }
}

TEST(CollectiveTest, MembersThatMoveNoDataDoNotWaitAtNxN) {
  // Rank 0 contributes and receives nothing: it is not a synchronisation point. Ranks 1 and 2
  // still see the full overlap (10 > 9): rank 1 waits 9 - 5 = 4.
  Analysis a =
      RunCollective("MPI_Allgatherv", OTF2_COLLECTIVE_OP_ALLGATHERV, {{0, 0}, {8, 8}, {8, 8}});
  EXPECT_EQ(a.LocationTotal("mpi_wait_nxn", 0), 0.0);
  EXPECT_EQ(a.LocationTotal("mpi_wait_nxn", 1), 4.0);
}

TEST(CollectiveTest, AlltoallvWithoutItsSendersGivesNoWaitStates) {
  // Zero-size contributions make its synchronisation unknowable from the sizes alone (Böhme
  // 2013): a trace that does not name the senders (Score-P's) gives no wait.
  Analysis a = RunCollective("MPI_Alltoallv", OTF2_COLLECTIVE_OP_ALLTOALLV, kAllMoveData);
  EXPECT_EQ(a.Total("mpi_wait_nxn"), 0.0);
  EXPECT_EQ(a.Total("mpi_wait_senders"), 0.0);
  EXPECT_EQ(a.Total("mpi_collective"), 17.0);  // its time is still collective time
}

// Four ranks in MPI_Alltoallv, as causeway's tracer records it: each CollectiveEnd names the
// processes that send the rank data (world ranks). Rank 0 enters at 10, the others at 2; each
// leaves at 12 (rank 0 at 13).
//   rank 1 receives from 0 and from itself: it waits for rank 0, min(10, 12) - 2 = 8;
//   rank 2 receives from 3 only, rank 3 from 2 only: both entered at 2, no wait;
//   rank 0 receives from 1: rank 1 entered before it, no wait.
// Under a barrier's rule every rank but 0 would wait 8; the N x N metric stays empty.
Scenario FourRanksInAlltoallv(OTF2_CollectiveOp op, const char* call) {
  Scenario s(4);
  const uint32_t from_1 = s.AddGroup({1});
  const uint32_t from_0_and_1 = s.AddGroup({0, 1});
  const uint32_t from_3 = s.AddGroup({3});
  const uint32_t from_2 = s.AddGroup({2});
  const uint32_t senders[4] = {from_1, from_0_and_1, from_3, from_2};
  for (int r = 0; r < 4; ++r) {
    const uint64_t begin = r == 0 ? 10 : 2, end = r == 0 ? 13 : 12;
    s.rank(r)
        .Enter(0, "main")
        .VCollective(begin, end, call, op, 8, 8, senders[r])
        .Leave(20, "main");
  }
  return s;
}

TEST(CollectiveTest, AlltoallvAndAlltoallwWaitOnlyForTheirSenders) {
  for (auto [call, op] : {std::pair{"MPI_Alltoallv", OTF2_COLLECTIVE_OP_ALLTOALLV},
                          std::pair{"MPI_Alltoallw", OTF2_COLLECTIVE_OP_ALLTOALLW}}) {
    SCOPED_TRACE(call);
    const std::string path = std::string("main/") + call;
    Analysis a = AnalyzeScenario(FourRanksInAlltoallv(op, call));
    EXPECT_EQ(a.Value("mpi_wait_senders", path, 0), 0.0);
    EXPECT_EQ(a.Value("mpi_wait_senders", path, 1), 8.0);
    EXPECT_EQ(a.Value("mpi_wait_senders", path, 2), 0.0);
    EXPECT_EQ(a.Value("mpi_wait_senders", path, 3), 0.0);
    EXPECT_EQ(a.Total("mpi_wait_nxn"), 0.0);
    // Part of the collective time: 3 + 3 * 10 = 33 s in all.
    EXPECT_EQ(a.Total("mpi_collective"), 33.0);
    // The delay analysis follows the wait to its sender: rank 0 computed in main for 10 s before
    // the call, rank 1 for 2 s, so the 8 s are rank 0's main's short-term delay cost.
    EXPECT_EQ(a.Value("delay_senders", "main", 0), 8.0);
    EXPECT_EQ(a.Total("delay_senders"), 8.0);
    EXPECT_EQ(a.Total("delay_senders_longterm"), 0.0);
  }
}

TEST(CollectiveTest, ScalascaSemanticsLeaveTheSendersWaitOut) {
  // Scalasca 2.6 analyses neither MPI_Alltoallv nor MPI_Alltoallw.
  Analysis a = AnalyzeScenario(FourRanksInAlltoallv(OTF2_COLLECTIVE_OP_ALLTOALLV, "MPI_Alltoallv"),
                               2, analysis::Semantics::kScalasca);
  EXPECT_EQ(a.Total("mpi_wait_senders"), 0.0);
  EXPECT_EQ(a.Total("mpi_wait_nxn"), 0.0);
}

// MPI_Allgatherv as causeway's tracer records it, at the default timings (ranks enter at 2, 5,
// 9 and leave at 10, 11, 12). Ranks 0 and 1 contribute 8 bytes each, rank 2, the latest,
// nothing: every rank receives 16 bytes, from ranks 0 and 1, the senders each record names.
Scenario AllgathervWithASilentLatecomer() {
  Scenario s(3);
  const uint32_t from_0_and_1 = s.AddGroup({0, 1});
  for (int r = 0; r < 3; ++r) {
    s.rank(r)
        .Enter(0, "main")
        .VCollective(kDefault[r].begin, kDefault[r].end, "MPI_Allgatherv",
                     OTF2_COLLECTIVE_OP_ALLGATHERV, r == 2 ? uint64_t{0} : uint64_t{8}, 16,
                     from_0_and_1)
        .Leave(20, "main");
  }
  return s;
}

TEST(CollectiveTest, AllgathervWaitsOnlyForItsSenders) {
  // Rank 0 waits for its other sender, rank 1: min(5, 10) - 2 = 3. Rank 1's other sender,
  // rank 0, entered before it: 0. Rank 2 entered after both: 0. Nobody waits for rank 2.
  Analysis a = AnalyzeScenario(AllgathervWithASilentLatecomer());
  EXPECT_EQ(a.Value("mpi_wait_senders", "main/MPI_Allgatherv", 0), 3.0);
  EXPECT_EQ(a.Value("mpi_wait_senders", "main/MPI_Allgatherv", 1), 0.0);
  EXPECT_EQ(a.Value("mpi_wait_senders", "main/MPI_Allgatherv", 2), 0.0);
  EXPECT_EQ(a.Total("mpi_wait_nxn"), 0.0);
  EXPECT_EQ(a.Total("mpi_nxn_completion"), 0.0);
  // Rank 1 computed in main 3 s longer before the call (5 against 2): the delay is its.
  EXPECT_EQ(a.Value("delay_senders", "main", 1), 3.0);
  EXPECT_EQ(a.Total("delay_senders"), 3.0);
  EXPECT_EQ(a.Total("delay_n2n"), 0.0);

  // Scalasca's semantics: Wait at N x N, everybody moves data and the call fully overlaps (the
  // first exit, 10, after the last entry, 9): 9 - 2 = 7, 9 - 5 = 4 and 0 for rank 2.
  Analysis scalasca =
      AnalyzeScenario(AllgathervWithASilentLatecomer(), 2, analysis::Semantics::kScalasca);
  EXPECT_EQ(scalasca.Total("mpi_wait_senders"), 0.0);
  EXPECT_EQ(scalasca.Value("mpi_wait_nxn", "main/MPI_Allgatherv", 0), 7.0);
  EXPECT_EQ(scalasca.Value("mpi_wait_nxn", "main/MPI_Allgatherv", 1), 4.0);
  EXPECT_EQ(scalasca.Total("mpi_wait_nxn"), 11.0);
}

TEST(CollectiveTest, LateBroadcastForEveryOneToAllKind) {
  // Root = rank 1, entering at 5. Rank 0 (entering at 2) waits min(5, 10) - 2 = 3; rank 2
  // entered after the root and does not wait; the root never waits.
  for (auto [call, op] : {std::pair{"MPI_Bcast", OTF2_COLLECTIVE_OP_BCAST},
                          std::pair{"MPI_Scatter", OTF2_COLLECTIVE_OP_SCATTER},
                          std::pair{"MPI_Scatterv", OTF2_COLLECTIVE_OP_SCATTERV}}) {
    SCOPED_TRACE(call);
    Analysis a = RunCollective(call, op, {{0, 8}, {16, 0}, {0, 8}}, /*root=*/1);
    std::string cp = std::string("main/") + call;
    EXPECT_EQ(a.Value("mpi_latebroadcast", cp, 0), 3.0);
    EXPECT_EQ(a.Total("mpi_latebroadcast"), 3.0);
  }
}

TEST(CollectiveTest, BroadcastFromARootThatSendsNothingIsNoWait) {
  Analysis a = RunCollective("MPI_Bcast", OTF2_COLLECTIVE_OP_BCAST, {{0, 0}, {0, 0}, {0, 0}}, 1);
  EXPECT_EQ(a.Total("mpi_latebroadcast"), 0.0);
}

TEST(CollectiveTest, EarlyReduceForEveryAllToOneKind) {
  // Root = rank 0, entering at 2; the last rank that sends, rank 2, enters at 9. Only the root
  // waits: min(9, 10) - 2 = 7.
  for (auto [call, op] : {std::pair{"MPI_Reduce", OTF2_COLLECTIVE_OP_REDUCE},
                          std::pair{"MPI_Gather", OTF2_COLLECTIVE_OP_GATHER},
                          std::pair{"MPI_Gatherv", OTF2_COLLECTIVE_OP_GATHERV}}) {
    SCOPED_TRACE(call);
    Analysis a = RunCollective(call, op, {{8, 24}, {8, 0}, {8, 0}}, /*root=*/0);
    std::string cp = std::string("main/") + call;
    EXPECT_EQ(a.Value("mpi_earlyreduce", cp, 0), 7.0);
    EXPECT_EQ(a.Total("mpi_earlyreduce"), 7.0);
  }
}

TEST(CollectiveTest, EarlyReduceIgnoresRanksThatSendNothing) {
  // Rank 2 (the latest entrant) contributes nothing: the root waits for rank 1 only, 5 - 2 = 3.
  Analysis a = RunCollective("MPI_Gatherv", OTF2_COLLECTIVE_OP_GATHERV, {{8, 16}, {8, 0}, {0, 0}},
                             /*root=*/0);
  EXPECT_EQ(a.Total("mpi_earlyreduce"), 3.0);
}

TEST(CollectiveTest, EarlyScanWaitsForLowerRanks) {
  // Ranks begin at 9, 2, 5 and end at 10, 11, 12. Rank n waits for the latest of ranks 0..n:
  // rank 0: 0; rank 1: min(9, 11) - 2 = 7; rank 2: min(9, 12) - 5 = 4.
  constexpr Timing kScan[3] = {{9, 10}, {2, 11}, {5, 12}};
  for (auto [call, op] : {std::pair{"MPI_Scan", OTF2_COLLECTIVE_OP_SCAN},
                          std::pair{"MPI_Exscan", OTF2_COLLECTIVE_OP_EXSCAN}}) {
    SCOPED_TRACE(call);
    Analysis a = RunCollective(call, op, kAllMoveData, OTF2_UNDEFINED_UINT32, kScan);
    std::string cp = std::string("main/") + call;
    EXPECT_EQ(a.Value("mpi_earlyscan", cp, 0), 0.0);
    EXPECT_EQ(a.Value("mpi_earlyscan", cp, 1), 7.0);
    EXPECT_EQ(a.Value("mpi_earlyscan", cp, 2), 4.0);
  }
}

TEST(CollectiveTest, LeavingBeforeTheLastEntryIsAClockViolation) {
  // Rank 0 leaves the barrier at 4, before rank 2 enters at 9: counted, and the wait is clamped
  // to the time rank 0 spent in the call: min(9, 4) - 2 = 2.
  constexpr Timing kSkewed[3] = {{2, 4}, {5, 11}, {9, 12}};
  Analysis a = RunCollective("MPI_Barrier", OTF2_COLLECTIVE_OP_BARRIER, {{0, 0}, {0, 0}, {0, 0}},
                             OTF2_UNDEFINED_UINT32, kSkewed);
  EXPECT_EQ(a.report.trace.clock_violations_collective, 1u);
  EXPECT_EQ(a.Value("mpi_barrier_wait", "main/MPI_Barrier", 0), 2.0);
}

TEST(CollectiveTest, IncompleteInstancesGiveNoWaitStates) {
  Scenario s(3);
  for (int r = 0; r < 2; ++r) {
    s.rank(r)
        .Enter(0, "main")
        .Collective(kDefault[r].begin, kDefault[r].end, "MPI_Barrier", OTF2_COLLECTIVE_OP_BARRIER,
                    0, 0)
        .Leave(20, "main");
  }
  s.rank(2).Call(0, 20, "main");
  Analysis a = AnalyzeScenario(s);
  EXPECT_EQ(a.Total("mpi_barrier_wait"), 0.0);
  EXPECT_EQ(a.report.matching.incomplete_collectives, 1u);
}

// One RMA collective on a window of MPI_COMM_WORLD per rank, at the given times.
Analysis RunRmaCollective(const char* call, OTF2_CollectiveOp op, const Timing (&t)[3]) {
  Scenario s(3);
  const uint32_t window = s.AddWindow(0);
  for (int r = 0; r < 3; ++r) {
    s.rank(r)
        .Enter(0, "main")
        .RmaCollective(t[r].begin, t[r].end, call, op, window)
        .Leave(20, "main");
  }
  return AnalyzeScenario(s);
}

TEST(RmaCollectiveTest, WaitAtFenceCreateAndFree) {
  // Entries 2, 5, 9, exits 10, 11, 12: every call overlaps every other (first exit 10 > last
  // entry 9), so wait_r = 9 - begin_r: 7, 4, 0; there is no completion metric.
  for (const auto& [call, op, metric] :
       {std::make_tuple("MPI_Win_fence", OTF2_COLLECTIVE_OP_BARRIER, "mpi_rma_wait_at_fence"),
        std::make_tuple("MPI_Win_create", OTF2_COLLECTIVE_OP_CREATE_HANDLE,
                        "mpi_rma_wait_at_create"),
        std::make_tuple("MPI_Win_allocate", OTF2_COLLECTIVE_OP_CREATE_HANDLE_AND_ALLOCATE,
                        "mpi_rma_wait_at_create"),
        std::make_tuple("MPI_Win_free", OTF2_COLLECTIVE_OP_DESTROY_HANDLE,
                        "mpi_rma_wait_at_free")}) {
    SCOPED_TRACE(call);
    Analysis a = RunRmaCollective(call, op, kDefault);
    const std::string path = std::string("main/") + call;
    EXPECT_EQ(a.Value(metric, path, 0), 7.0);
    EXPECT_EQ(a.Value(metric, path, 1), 4.0);
    EXPECT_EQ(a.Value(metric, path, 2), 0.0);
    EXPECT_EQ(a.Total(metric), 11.0);
    EXPECT_EQ(a.report.matching.collective_instances, 1u);
    // Not a barrier of a communicator. Followed by the root-cause analyses as one: two edges
    // to rank 2, the last to enter, and a group of all three, whose 11 s of waiting the delay
    // costs explain.
    EXPECT_EQ(a.Total("mpi_barrier_wait"), 0.0);
    ASSERT_EQ(a.result.sync_points->edges.size(), 2u);
    for (const analysis::WaitEdge& e : a.result.sync_points->edges) {
      EXPECT_EQ(e.pattern, analysis::SyncPattern::kRmaCollective);
      EXPECT_EQ(e.delayer, 2u);
    }
    EXPECT_EQ(a.result.sync_points->groups.size(), 1u);
    EXPECT_EQ(a.Total("delay_rma_collective_aggregate"), 11.0);
  }
}

TEST(RmaCollectiveTest, CallsThatDoNotAllOverlapDidNotSynchronise) {
  // Rank 0 leaves the fence at 4, before rank 2 enters at 9: as Scalasca assumes, such a fence
  // did not synchronise (an implementation may return early when no operation is pending), so
  // nobody waited and no clock violation is counted.
  constexpr Timing kEarlyExit[3] = {{2, 4}, {5, 11}, {9, 12}};
  Analysis a = RunRmaCollective("MPI_Win_fence", OTF2_COLLECTIVE_OP_BARRIER, kEarlyExit);
  EXPECT_EQ(a.Total("mpi_rma_wait_at_fence"), 0.0);
  EXPECT_EQ(a.report.trace.clock_violations_collective, 0u);
  // The fence's time is active-target synchronisation: 2 + 6 + 3 = 11 s.
  EXPECT_EQ(a.Total("mpi_rma_sync_active"), 11.0);
}

TEST(RmaCollectiveTest, AFenceOnAnUndefinedWindowIsReported) {
  Scenario s(2);
  for (int r = 0; r < 2; ++r) {
    s.rank(r)
        .Enter(0, "main")
        .RmaCollective(1, 2, "MPI_Win_fence", OTF2_COLLECTIVE_OP_BARRIER, 5)
        .Leave(3, "main");
  }
  Analysis a = AnalyzeScenario(s);
  EXPECT_EQ(a.report.matching.collective_instances, 0u);
  EXPECT_EQ(a.Total("mpi_rma_wait_at_fence"), 0.0);
  bool reported = false;
  for (const auto& d : a.report.diagnostics) {
    reported |= d.name == "match.collective_unknown_window";
  }
  EXPECT_TRUE(reported);
}

TEST(InitFinalizeTest, WaitAtFinalizeAndInitCompletion) {
  // MPI_Init: enters 0, 1, 2; leaves 5, 4, 6. First leave 4, last entry 2:
  //   completion_r = leave_r - max(4, min(2, leave_r)) = 1, 0, 2.
  // MPI_Finalize: enters 13, 17, 15; all leave 18. Last entry 17:
  //   wait_r = min(17, 18) - enter_r = 4, 0, 2.
  Scenario s(3);
  uint64_t init_enter[3] = {0, 1, 2}, init_leave[3] = {5, 4, 6}, fin_enter[3] = {13, 17, 15};
  for (int r = 0; r < 3; ++r) {
    s.rank(r)
        .Enter(0, "main")
        .Call(init_enter[r], init_leave[r], "MPI_Init")
        .Call(fin_enter[r], 18, "MPI_Finalize")
        .Leave(20, "main");
  }
  Analysis a = AnalyzeScenario(s);
  EXPECT_EQ(a.Value("mpi_init_completion", "main/MPI_Init", 0), 1.0);
  EXPECT_EQ(a.Value("mpi_init_completion", "main/MPI_Init", 1), 0.0);
  EXPECT_EQ(a.Value("mpi_init_completion", "main/MPI_Init", 2), 2.0);
  EXPECT_EQ(a.Value("mpi_finalize_wait", "main/MPI_Finalize", 0), 4.0);
  EXPECT_EQ(a.Value("mpi_finalize_wait", "main/MPI_Finalize", 1), 0.0);
  EXPECT_EQ(a.Value("mpi_finalize_wait", "main/MPI_Finalize", 2), 2.0);
  // Both are part of mpi_init_exit: Init 5 + 3 + 4 and Finalize 5 + 1 + 3 = 21 s.
  EXPECT_EQ(a.Total("mpi_init_exit"), 21.0);
}

}  // namespace
}  // namespace cw::test
