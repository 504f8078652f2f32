// Delay costs and critical paths through one-sided synchronisation: MPI fences, post-start-
// complete-wait epochs and locks, OpenSHMEM barriers, lock hand-overs and waits for a value.
// One tick is one second; the traces have no MPI_Init, so the analysis window begins at 0 (the
// last process's first event) and intervals with no earlier synchronisation start there. The
// definitions, as in delay_scenarios_test.cc:
//   interval of a wait of p for q: from the previous synchronisation of the pair (starting when
//   the first of the two left it) to the Enter of the waiting call on p and of the delayer's
//   call on q; d(c) = time per call path in it, waits removed; δ(c) = max(d_q(c) - d_p(c), 0);
//   s = 1 / (δ̂ + ω̂) with ω̂ = q's waits in its interval; short-term cost of c = s δ(c) ω.
// The critical path runs back from the end of the process that ended last; at a wait it keeps
// the waiting call's non-waiting part and moves to the delayer at the Enter of its call.
#include <gtest/gtest.h>

#include "tests/common/analysis_fixture.h"
#include "tests/common/root_cause_invariants.h"

namespace cw::test {
namespace {

using testing::RankScript;
using testing::Scenario;

constexpr double kOneSidedEps = 1e-12;
constexpr uint32_t kNoTarget = OTF2_UNDEFINED_UINT32;

TEST(OneSidedRootCauseTest, WaitOnValueIsChargedToTheWritersExcessAndCrossedByThePath) {
  //   PE 0: foo [0,6]  shmem_int_p -> PE 1 [6,7]  bar [7,10]       (main [0,10])
  //   PE 1: foo [0,2]  shmem_int_wait_until [2,8]  baz [8,12]       (main [0,12])
  // Wait on Value: PE 0 issued the write at 6: 6 - 2 = 4.
  // Delay: d_1 = {foo 2}, d_0 = {foo 6} (to the put's Enter): δ = {foo 4}, ω̂ = 0, s = 1/4:
  // short-term cost of PE 0's foo = 1/4 * 4 * 4 = 4. The wait is direct and terminal.
  // Critical path (window [0,12], ending on PE 1): baz [8,12] 4, the wait's non-waiting part
  // [6,8] 2, then PE 0 before its put: foo [0,6] 6. 4 + 2 + 6 = 12.
  Scenario s(2);
  const uint32_t heap = s.AddShmemWindow({0, 1});
  s.rank(0)
      .Enter(0, "main")
      .Call(0, 6, "foo")
      .ShmemPut(6, 7, "shmem_int_p", heap, 1, 4, 1)
      .Call(7, 10, "bar")
      .Leave(10, "main");
  s.rank(1)
      .Enter(0, "main")
      .Call(0, 2, "foo")
      .ShmemWaitUntil(2, 8, heap)
      .Call(8, 12, "baz")
      .Leave(12, "main");
  Analysis a = AnalyzeScenario(s);
  ASSERT_EQ(a.Total("shmem_wait_on_value"), 4.0);
  EXPECT_NEAR(a.Value("delay_shmem_wait_on_value", "main/foo", 0), 4.0, kOneSidedEps);
  EXPECT_NEAR(a.Total("delay_shmem_wait_on_value_aggregate"), 4.0, kOneSidedEps);
  EXPECT_NEAR(a.Value("shmem_wait_direct", "main/shmem_int_wait_until", 1), 4.0, kOneSidedEps);
  EXPECT_NEAR(a.Value("shmem_wait_terminal", "main/shmem_int_wait_until", 1), 4.0, kOneSidedEps);
  EXPECT_EQ(a.result.critical_path->length, 12);
  EXPECT_EQ(PathLocations(a), (std::vector<uint32_t>{0, 1}));
  EXPECT_EQ(a.Value("critical_path", "main/foo", 0), 6.0);
  EXPECT_EQ(a.Value("critical_path", "main/shmem_int_wait_until", 1), 2.0);
  EXPECT_EQ(a.Value("critical_path", "main/baz", 1), 4.0);
  EXPECT_EQ(a.Value("critical_path", "main/bar", 0), 0.0);
  ExpectRootCauseInvariants(a);
}

TEST(OneSidedRootCauseTest, LockHandOverIsChargedToTheHoldersCriticalSection) {
  //   PE 0: main [0,1]  shmem_set_lock [1,2]  crit [2,8]  shmem_clear_lock [8,9]  (main [0,12])
  //   PE 1: foo [0,3]   shmem_set_lock [3,10] crit [10,12] shmem_clear_lock [12,13] (main [0,14])
  // Lock Contention: PE 1 waited from 3 until PE 0 entered shmem_clear_lock at 8: 5.
  // Delay: d_1 = {foo 3}; d_0 = {main 1, set_lock 1, crit 6} (to the clear_lock's Enter):
  // δ̂ = 8, ω̂ = 0, s = 1/8: main 5/8, shmem_set_lock 5/8, crit 30/8.
  // Critical path (window [0,14], ending on PE 1): main [13,14] 1, clear_lock [12,13] 1, crit
  // [10,12] 2, set_lock's non-waiting part [8,10] 2; PE 0 before its clear_lock: crit [2,8] 6,
  // set_lock [1,2] 1, main [0,1] 1. 1 + 1 + 2 + 2 + 6 + 1 + 1 = 14.
  Scenario s(2);
  const uint32_t heap = s.AddShmemWindow({0, 1});
  constexpr uint64_t kLock = 7;
  s.rank(0)
      .Enter(0, "main")
      .RmaLock(1, 2, "shmem_set_lock", heap, kNoTarget, kLock, true)
      .Call(2, 8, "crit")
      .RmaUnlock(8, 9, "shmem_clear_lock", heap, kNoTarget, kLock)
      .Leave(12, "main");
  s.rank(1)
      .Enter(0, "main")
      .Call(0, 3, "foo")
      .RmaLock(3, 10, "shmem_set_lock", heap, kNoTarget, kLock, true)
      .Call(10, 12, "crit")
      .RmaUnlock(12, 13, "shmem_clear_lock", heap, kNoTarget, kLock)
      .Leave(14, "main");
  Analysis a = AnalyzeScenario(s);
  ASSERT_EQ(a.Total("shmem_lock_contention"), 5.0);
  EXPECT_NEAR(a.Value("delay_shmem_lock_contention", "main", 0), 5.0 / 8, kOneSidedEps);
  EXPECT_NEAR(a.Value("delay_shmem_lock_contention", "main/shmem_set_lock", 0), 5.0 / 8,
              kOneSidedEps);
  EXPECT_NEAR(a.Value("delay_shmem_lock_contention", "main/crit", 0), 30.0 / 8, kOneSidedEps);
  EXPECT_NEAR(a.Total("delay_shmem_lock_contention_aggregate"), 5.0, kOneSidedEps);
  EXPECT_EQ(a.result.critical_path->length, 14);
  EXPECT_EQ(PathLocations(a), (std::vector<uint32_t>{0, 1}));
  EXPECT_EQ(a.Value("critical_path", "main/crit", 0), 6.0);
  EXPECT_EQ(a.Value("critical_path", "main/shmem_set_lock", 1), 2.0);
  EXPECT_EQ(a.Value("critical_path", "main/crit", 1), 2.0);
  EXPECT_EQ(a.Value("critical_path", "main/shmem_clear_lock", 0), 0.0);
  ExpectRootCauseInvariants(a);
}

TEST(OneSidedRootCauseTest, FencesAndOpenShmemBarriersAreChargedToTheLastEntrant) {
  //   rank 0: foo [0,5]  barrier [5,6]  baz [6,7]    (main [0,7])
  //   rank 1: foo [0,2]  barrier [2,6]  bar [6,10]   (main [0,10])
  // The barrier is MPI_Win_fence on an MPI window, then shmem_barrier_all on an OpenSHMEM
  // window: rank 1 waits 5 - 2 = 3. Delay: d_1 = {foo 2}, d_0 = {foo 5}: δ = {foo 3}, s = 1/3:
  // rank 0's foo 3. Critical path (window [0,10], ending on rank 1): bar [6,10] 4, the barrier's
  // non-waiting part [5,6] 1, rank 0's foo [0,5] 5: 10.
  for (const bool shmem : {false, true}) {
    SCOPED_TRACE(shmem ? "shmem_barrier_all" : "MPI_Win_fence");
    Scenario s(2);
    const uint32_t window = shmem ? s.AddShmemWindow({0, 1}) : s.AddWindow(0);
    const char* call = shmem ? "shmem_barrier_all" : "MPI_Win_fence";
    s.rank(0)
        .Enter(0, "main")
        .Call(0, 5, "foo")
        .RmaCollective(5, 6, call, OTF2_COLLECTIVE_OP_BARRIER, window)
        .Call(6, 7, "baz")
        .Leave(7, "main");
    s.rank(1)
        .Enter(0, "main")
        .Call(0, 2, "foo")
        .RmaCollective(2, 6, call, OTF2_COLLECTIVE_OP_BARRIER, window)
        .Call(6, 10, "bar")
        .Leave(10, "main");
    Analysis a = AnalyzeScenario(s);
    const std::string wait = shmem ? "shmem_barrier_wait" : "mpi_rma_wait_at_fence";
    const std::string delay = shmem ? "delay_shmem_barrier_wait" : "delay_rma_collective";
    ASSERT_EQ(a.Total(wait), 3.0);
    EXPECT_NEAR(a.Value(delay, "main/foo", 0), 3.0, kOneSidedEps);
    EXPECT_NEAR(a.Total(delay + "_aggregate"), 3.0, kOneSidedEps);
    EXPECT_NEAR(a.Total(shmem ? "shmem_wait_direct" : "mpi_wait_direct_rma"), 3.0, kOneSidedEps);
    EXPECT_EQ(a.result.critical_path->length, 10);
    EXPECT_EQ(a.Value("critical_path", "main/foo", 0), 5.0);
    EXPECT_EQ(a.Value("critical_path", std::string("main/") + call, 1), 1.0);
    EXPECT_EQ(a.Value("critical_path", "main/bar", 1), 4.0);
    ExpectRootCauseInvariants(a);
  }
}

TEST(OneSidedRootCauseTest, PostStartCompleteWaitEpochs) {
  //   rank 0: foo [0,6]  MPI_Win_post [6,7]  MPI_Win_wait [7,12]            (main [0,13])
  //   rank 1: foo [0,2]  MPI_Win_start [2,8]  MPI_Put [8,9]  MPI_Win_complete [9,10]
  //                                                                          (main [0,11])
  // Late Post: rank 1's start waited from 2 until rank 0 entered MPI_Win_post at 6: 4.
  // Delay: d_1 = {foo 2}, d_0 = {foo 6}: δ = {foo 4}, s = 1/4: rank 0's foo 4.
  // Early Wait: rank 0's wait waited from 7 until rank 1 entered MPI_Win_complete at 9: 2. The
  // pair last synchronised at the post and the start; the interval starts when the first left
  // its call, rank 0 at 7. d_0 = {} (its wait begins at 7); d_1 = {MPI_Win_start 1 ([7,8]),
  // MPI_Put 1}; ω̂ = 0 (rank 1's wait in the start is the synchronisation the interval starts
  // at): s = 1/2, costs MPI_Win_start 1 and MPI_Put 1 on rank 1.
  // Critical path (window [0,13], ending on rank 0): main [12,13] 1, the wait's non-waiting
  // part [9,12] 3; rank 1 before its complete: MPI_Put [8,9] 1, the start's non-waiting part
  // [6,8] 2; rank 0 before its post: foo [0,6] 6. 1 + 3 + 1 + 2 + 6 = 13.
  Scenario s(2);
  const uint32_t win = s.AddWindow(0);
  const uint32_t origins = s.AddGroup({1}), targets = s.AddGroup({0});
  s.rank(0)
      .Enter(0, "main")
      .Call(0, 6, "foo")
      .RmaGroupSync(6, 7, "MPI_Win_post", win, origins)
      .RmaGroupSync(7, 12, "MPI_Win_wait", win, origins)
      .Leave(13, "main");
  s.rank(1)
      .Enter(0, "main")
      .Call(0, 2, "foo")
      .RmaGroupSync(2, 8, "MPI_Win_start", win, targets)
      .RmaTransfer(8, 9, "MPI_Put", win, 0, 4, 1)
      .RmaGroupSync(9, 10, "MPI_Win_complete", win, targets,
                    [&](RankScript& r) { r.RmaOpCompleteEvent(10, win, 1); })
      .Leave(11, "main");
  Analysis a = AnalyzeScenario(s);
  ASSERT_EQ(a.Total("mpi_rma_sync_late_post"), 4.0);
  ASSERT_EQ(a.Total("mpi_rma_early_wait"), 2.0);
  EXPECT_NEAR(a.Value("delay_rma_latepost", "main/foo", 0), 4.0, kOneSidedEps);
  EXPECT_NEAR(a.Total("delay_rma_latepost_aggregate"), 4.0, kOneSidedEps);
  EXPECT_NEAR(a.Value("delay_rma_earlywait", "main/MPI_Win_start", 1), 1.0, kOneSidedEps);
  EXPECT_NEAR(a.Value("delay_rma_earlywait", "main/MPI_Put", 1), 1.0, kOneSidedEps);
  EXPECT_NEAR(a.Total("delay_rma_earlywait_aggregate"), 2.0, kOneSidedEps);
  EXPECT_EQ(a.result.critical_path->length, 13);
  EXPECT_EQ(PathLocations(a), (std::vector<uint32_t>{0, 1, 0}));
  EXPECT_EQ(a.Value("critical_path", "main/foo", 0), 6.0);
  EXPECT_EQ(a.Value("critical_path", "main/MPI_Win_start", 1), 2.0);
  EXPECT_EQ(a.Value("critical_path", "main/MPI_Put", 1), 1.0);
  EXPECT_EQ(a.Value("critical_path", "main/MPI_Win_wait", 0), 3.0);
  ExpectRootCauseInvariants(a);
}

TEST(OneSidedRootCauseTest, MpiLockContentionIsChargedToTheHolder) {
  //   rank 0: foo [0,1]  MPI_Win_lock [1,2]  MPI_Put [2,3]  bar [3,8]  MPI_Win_unlock [8,9]
  //   rank 1: foo [0,4]  MPI_Win_lock [4,10]  MPI_Win_unlock [10,11]   (main [0,12] on both)
  // both on rank 2's window memory (rank 2 only ends: main [0,1]). Lock Contention: rank 1
  // waited from 4 until rank 0 entered MPI_Win_unlock at 8: 4. Delay: d_1 = {foo 4}; d_0 =
  // {foo 1, MPI_Win_lock 1, MPI_Put 1, bar 5}: δ = {MPI_Win_lock 1, MPI_Put 1, bar 5}, δ̂ = 7,
  // s = 1/7: MPI_Win_lock 4/7, MPI_Put 4/7, bar 20/7.
  Scenario s(3);
  const uint32_t win = s.AddWindow(0);
  s.rank(0)
      .Enter(0, "main")
      .Call(0, 1, "foo")
      .RmaLock(1, 2, "MPI_Win_lock", win, 2, 1, true)
      .RmaTransfer(2, 3, "MPI_Put", win, 2, 4, 1)
      .Call(3, 8, "bar")
      .RmaUnlock(8, 9, "MPI_Win_unlock", win, 2, 1,
                 [&](RankScript& r) { r.RmaOpCompleteEvent(9, win, 1); })
      .Leave(12, "main");
  s.rank(1)
      .Enter(0, "main")
      .Call(0, 4, "foo")
      .RmaLock(4, 10, "MPI_Win_lock", win, 2, 1, true)
      .RmaUnlock(10, 11, "MPI_Win_unlock", win, 2, 1)
      .Leave(12, "main");
  s.rank(2).Enter(0, "main").Leave(1, "main");
  Analysis a = AnalyzeScenario(s);
  ASSERT_EQ(a.Total("mpi_rma_sync_lock_competition"), 4.0);
  EXPECT_NEAR(a.Value("delay_rma_lock", "main/MPI_Win_lock", 0), 4.0 / 7, kOneSidedEps);
  EXPECT_NEAR(a.Value("delay_rma_lock", "main/MPI_Put", 0), 4.0 / 7, kOneSidedEps);
  EXPECT_NEAR(a.Value("delay_rma_lock", "main/bar", 0), 20.0 / 7, kOneSidedEps);
  EXPECT_NEAR(a.Total("delay_rma_lock_aggregate"), 4.0, kOneSidedEps);
  ExpectRootCauseInvariants(a);
}

TEST(OneSidedRootCauseTest, ScalascaSemanticsFollowNoOneSidedWait) {
  // The fence of FencesAndOpenShmemBarriersAreChargedToTheLastEntrant under Scalasca's
  // semantics: the wait stays a wait state, but no delay cost explains it.
  Scenario s(2);
  const uint32_t window = s.AddWindow(0);
  s.rank(0)
      .Enter(0, "main")
      .Call(0, 5, "foo")
      .RmaCollective(5, 6, "MPI_Win_fence", OTF2_COLLECTIVE_OP_BARRIER, window)
      .Leave(7, "main");
  s.rank(1)
      .Enter(0, "main")
      .Call(0, 2, "foo")
      .RmaCollective(2, 6, "MPI_Win_fence", OTF2_COLLECTIVE_OP_BARRIER, window)
      .Leave(10, "main");
  Analysis a = AnalyzeScenario(s, 1, analysis::Semantics::kScalasca);
  EXPECT_EQ(a.Total("mpi_rma_wait_at_fence"), 3.0);
  EXPECT_EQ(a.Total("delay"), 0.0);
  EXPECT_TRUE(a.result.sync_points->edges.empty());
  EXPECT_TRUE(a.result.sync_points->groups.empty());
}

}  // namespace
}  // namespace cw::test
