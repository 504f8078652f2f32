// Wait states of one-sided epochs: Late Post, Early Wait, Late Complete (post-start-complete-
// wait), Lock Contention (lock/unlock) and Early Fence. One tick is one second; window 0 spans
// MPI_COMM_WORLD. Transfers are recorded at their Enter, group syncs and lock acquisitions at
// the Leave of their call, lock requests at the Enter, releases at the Leave.
#include <gtest/gtest.h>

#include <string>

#include "tests/common/analysis_fixture.h"

namespace cw::test {
namespace {

using testing::RankScript;
using testing::Scenario;

constexpr uint32_t kAllTargets = OTF2_UNDEFINED_UINT32;

// The most severe instance of `metric`, which must exist.
analysis::Instance TopInstance(const Analysis& a, const std::string& metric) {
  for (const analysis::Instance& i : a.result.waitstates.instances) {
    if (analysis::Metric(i.metric).name == metric) return i;
  }
  ADD_FAILURE() << "no instance of " << metric;
  return {};
}

// ---- Post-start-complete-wait ----------------------------------------------------------------

TEST(RmaActiveTargetTest, LatePostInABlockingStartThenEarlyWaitAndLateComplete) {
  // Rank 1 starts an access epoch to {0} at 2; rank 0 posts at 6, and MPI_Win_start returns at
  // 8: Late Post = post - Enter(start) = 6 - 2 = 4, in MPI_Win_start.
  // Rank 0 waits from 7; rank 1 entered MPI_Win_complete at 9: Early Wait = 9 - 7 = 2. The put
  // to rank 0 was issued at 8, so Late Complete = 9 - max(8, 7) = 1 of it.
  Scenario s(2);
  const uint32_t win = s.AddWindow(0);
  const uint32_t origins = s.AddGroup({1}), targets = s.AddGroup({0});
  s.rank(0)
      .Enter(0, "main")
      .RmaGroupSync(6, 7, "MPI_Win_post", win, origins)
      .RmaGroupSync(7, 12, "MPI_Win_wait", win, origins)
      .Leave(20, "main");
  s.rank(1)
      .Enter(0, "main")
      .RmaGroupSync(2, 8, "MPI_Win_start", win, targets)
      .RmaTransfer(8, 9, "MPI_Put", win, 0, 4, 1)
      .RmaGroupSync(9, 10, "MPI_Win_complete", win, targets,
                    [&](RankScript& r) { r.RmaOpCompleteEvent(10, win, 1); })
      .Leave(20, "main");
  Analysis a = AnalyzeScenario(s);
  EXPECT_EQ(a.Value("mpi_rma_sync_late_post", "main/MPI_Win_start", 1), 4.0);
  EXPECT_EQ(a.Total("mpi_rma_sync_late_post"), 4.0);
  EXPECT_EQ(a.Value("mpi_rma_early_wait", "main/MPI_Win_wait", 0), 2.0);
  EXPECT_EQ(a.Value("mpi_rma_late_complete", "main/MPI_Win_wait", 0), 1.0);
  EXPECT_EQ(a.Total("mpi_rma_early_wait"), 2.0);
  EXPECT_EQ(a.Total("mpi_rma_comm_late_post"), 0.0);
  EXPECT_EQ(TopInstance(a, "mpi_rma_sync_late_post").partner, 0u);
  EXPECT_EQ(TopInstance(a, "mpi_rma_early_wait").partner, 1u);
  // Followed by the root-cause analyses: rank 1's MPI_Win_start waited for rank 0's
  // MPI_Win_post (Late Post) and rank 0's MPI_Win_wait for rank 1's MPI_Win_complete (Early
  // Wait); the delay costs explain both.
  ASSERT_EQ(a.result.sync_points->edges.size(), 2u);
  EXPECT_EQ(a.Total("delay_rma_latepost_aggregate"), 4.0);
  EXPECT_EQ(a.Total("delay_rma_earlywait_aggregate"), 2.0);
}

TEST(RmaActiveTargetTest, LatePostInCompleteWaitsForTheLastTarget) {
  // Rank 1's access epoch goes to {0, 2}; they post at 4 and 7. MPI_Win_start returned at 2
  // and the puts at 3 and 4, so rank 1 waited for the later post (7, rank 2) in
  // MPI_Win_complete, entered at 4: Late Post = 7 - 4 = 3. The targets entered MPI_Win_wait
  // (5 and 8) after rank 1 entered MPI_Win_complete: no Early Wait.
  Scenario s(3);
  const uint32_t win = s.AddWindow(0);
  const uint32_t origins = s.AddGroup({1}), targets = s.AddGroup({0, 2});
  s.rank(0)
      .Enter(0, "main")
      .RmaGroupSync(4, 5, "MPI_Win_post", win, origins)
      .RmaGroupSync(5, 11, "MPI_Win_wait", win, origins)
      .Leave(20, "main");
  s.rank(1)
      .Enter(0, "main")
      .RmaGroupSync(1, 2, "MPI_Win_start", win, targets)
      .RmaTransfer(2, 3, "MPI_Put", win, 0, 4, 1)
      .RmaTransfer(3, 4, "MPI_Put", win, 2, 4, 2)
      .RmaGroupSync(4, 10, "MPI_Win_complete", win, targets)
      .Leave(20, "main");
  s.rank(2)
      .Enter(0, "main")
      .RmaGroupSync(7, 8, "MPI_Win_post", win, origins)
      .RmaGroupSync(8, 11, "MPI_Win_wait", win, origins)
      .Leave(20, "main");
  Analysis a = AnalyzeScenario(s);
  EXPECT_EQ(a.Value("mpi_rma_sync_late_post", "main/MPI_Win_complete", 1), 3.0);
  EXPECT_EQ(a.Total("mpi_rma_sync_late_post"), 3.0);
  EXPECT_EQ(TopInstance(a, "mpi_rma_sync_late_post").partner, 2u);
  EXPECT_EQ(a.Total("mpi_rma_early_wait"), 0.0);
}

TEST(RmaActiveTargetTest, LatePostInATransferAndLateCompleteAfterIt) {
  // MPI_Win_start returned at 2, before rank 0 posted at 5; the put to rank 0 blocked from 2 to
  // 9: Late Post (communication) = 5 - 2 = 3, at MPI_Put.
  // Rank 0 waits from 6; rank 1 entered MPI_Win_complete at 9: Early Wait = 9 - 6 = 3. The put
  // was issued at 2, before the wait: Late Complete = 9 - max(2, 6) = 3, all of it.
  Scenario s(2);
  const uint32_t win = s.AddWindow(0);
  const uint32_t origins = s.AddGroup({1}), targets = s.AddGroup({0});
  s.rank(0)
      .Enter(0, "main")
      .RmaGroupSync(5, 6, "MPI_Win_post", win, origins)
      .RmaGroupSync(6, 11, "MPI_Win_wait", win, origins)
      .Leave(20, "main");
  s.rank(1)
      .Enter(0, "main")
      .RmaGroupSync(1, 2, "MPI_Win_start", win, targets)
      .RmaTransfer(2, 9, "MPI_Put", win, 0, 4, 1)
      .RmaGroupSync(9, 10, "MPI_Win_complete", win, targets)
      .Leave(20, "main");
  Analysis a = AnalyzeScenario(s);
  EXPECT_EQ(a.Value("mpi_rma_comm_late_post", "main/MPI_Put", 1), 3.0);
  EXPECT_EQ(a.Total("mpi_rma_sync_late_post"), 0.0);
  EXPECT_EQ(a.Value("mpi_rma_early_wait", "main/MPI_Win_wait", 0), 3.0);
  EXPECT_EQ(a.Value("mpi_rma_late_complete", "main/MPI_Win_wait", 0), 3.0);
}

TEST(RmaActiveTargetTest, EarlyWaitForTheLastOfTwoOrigins) {
  // Rank 0 exposes its window to {1, 2} and waits from 3. Rank 1 enters MPI_Win_complete at 5,
  // rank 2 at 9 after a put to rank 0 issued at 6: Early Wait = 9 - 3 = 6 (partner rank 2),
  // Late Complete = 9 - max(6, 3) = 3.
  Scenario s(3);
  const uint32_t win = s.AddWindow(0);
  const uint32_t origins = s.AddGroup({1, 2}), targets = s.AddGroup({0});
  s.rank(0)
      .Enter(0, "main")
      .RmaGroupSync(1, 2, "MPI_Win_post", win, origins)
      .RmaGroupSync(3, 12, "MPI_Win_wait", win, origins)
      .Leave(20, "main");
  s.rank(1)
      .Enter(0, "main")
      .RmaGroupSync(2, 3, "MPI_Win_start", win, targets)
      .RmaTransfer(3, 4, "MPI_Put", win, 0, 4, 1)
      .RmaGroupSync(5, 6, "MPI_Win_complete", win, targets)
      .Leave(20, "main");
  s.rank(2)
      .Enter(0, "main")
      .RmaGroupSync(2, 3, "MPI_Win_start", win, targets)
      .RmaTransfer(6, 7, "MPI_Put", win, 0, 4, 1)
      .RmaGroupSync(9, 10, "MPI_Win_complete", win, targets)
      .Leave(20, "main");
  Analysis a = AnalyzeScenario(s);
  EXPECT_EQ(a.Value("mpi_rma_early_wait", "main/MPI_Win_wait", 0), 6.0);
  EXPECT_EQ(a.Value("mpi_rma_late_complete", "main/MPI_Win_wait", 0), 3.0);
  EXPECT_EQ(TopInstance(a, "mpi_rma_early_wait").partner, 2u);
  EXPECT_EQ(a.Total("mpi_rma_sync_late_post"), 0.0);
}

TEST(RmaActiveTargetTest, EpochsPairInOrderAndATestNeverWaits) {
  // Two epochs between rank 1 (origin) and rank 0 (target). Rank 0 posts at 1 and at 10; rank
  // 1's starts block from 0 to 2 and from 5 to 11: Late Post = (1 - 0) + (10 - 5) = 6. Paired
  // wrongly (both with the later post) the first start would show nothing.
  // Rank 0 closes its first epoch with a successful MPI_Win_test at 3, before rank 1 completed
  // (4): a test never waits. It closes the second with MPI_Win_wait from 12, after rank 1
  // entered MPI_Win_complete (11): no Early Wait either.
  Scenario s(2);
  const uint32_t win = s.AddWindow(0);
  const uint32_t origins = s.AddGroup({1}), targets = s.AddGroup({0});
  s.rank(0)
      .Enter(0, "main")
      .RmaGroupSync(1, 2, "MPI_Win_post", win, origins)
      .RmaGroupSync(3, 4, "MPI_Win_test", win, origins)
      .RmaGroupSync(10, 11, "MPI_Win_post", win, origins)
      .RmaGroupSync(12, 13, "MPI_Win_wait", win, origins)
      .Leave(20, "main");
  s.rank(1)
      .Enter(0, "main")
      .RmaGroupSync(0, 2, "MPI_Win_start", win, targets)
      .RmaGroupSync(4, 5, "MPI_Win_complete", win, targets)
      .RmaGroupSync(5, 11, "MPI_Win_start", win, targets)
      .RmaGroupSync(11, 12, "MPI_Win_complete", win, targets)
      .Leave(20, "main");
  Analysis a = AnalyzeScenario(s);
  EXPECT_EQ(a.Value("mpi_rma_sync_late_post", "main/MPI_Win_start", 1), 6.0);
  EXPECT_EQ(a.Total("mpi_rma_early_wait"), 0.0);
}

// ---- Lock contention -------------------------------------------------------------------------

TEST(RmaLockTest, AnEagerLockWaitsInMpiWinLock) {
  // Rank 0 holds an exclusive lock on rank 2 from 2 and releases it in MPI_Win_unlock, entered
  // at 8. Rank 1 asks for the same lock at 4 and gets it at 10: Lock Contention = 8 - 4 = 4, in
  // MPI_Win_lock (until the holder began to release the lock).
  Scenario s(3);
  const uint32_t win = s.AddWindow(0);
  s.rank(0)
      .Enter(0, "main")
      .RmaLock(1, 2, "MPI_Win_lock", win, 2, 1, true)
      .RmaTransfer(2, 3, "MPI_Put", win, 2, 4, 1)
      .RmaUnlock(8, 9, "MPI_Win_unlock", win, 2, 1,
                 [&](RankScript& r) { r.RmaOpCompleteEvent(9, win, 1); })
      .Leave(20, "main");
  s.rank(1)
      .Enter(0, "main")
      .RmaLock(4, 10, "MPI_Win_lock", win, 2, 1, true)
      .RmaTransfer(10, 11, "MPI_Put", win, 2, 4, 1)
      .RmaUnlock(11, 12, "MPI_Win_unlock", win, 2, 1)
      .Leave(20, "main");
  s.rank(2).Enter(0, "main").Leave(20, "main");
  Analysis a = AnalyzeScenario(s);
  EXPECT_EQ(a.Value("mpi_rma_sync_lock_competition", "main/MPI_Win_lock", 1), 4.0);
  EXPECT_EQ(a.Total("mpi_rma_sync_lock_competition"), 4.0);
  EXPECT_EQ(a.Total("mpi_rma_comm_lock_competition"), 0.0);
  EXPECT_EQ(TopInstance(a, "mpi_rma_sync_lock_competition").partner, 0u);
  // Followed by the root-cause analyses: one edge from rank 1's MPI_Win_lock to rank 0's
  // MPI_Win_unlock, whose 4 s of waiting the delay costs explain.
  ASSERT_EQ(a.result.sync_points->edges.size(), 1u);
  EXPECT_EQ(a.result.sync_points->edges[0].pattern, analysis::SyncPattern::kRmaLock);
  EXPECT_EQ(a.Total("delay_rma_lock_aggregate"), 4.0);
}

TEST(RmaLockTest, ALazyLockWaitsWhereTheReleaseHappened) {
  // Rank 0 releases its exclusive lock on rank 2 in MPI_Win_unlock, from 8 to 9. Rank 1's
  // MPI_Win_lock returns at once (the library acquires locks lazily). In the first scenario its
  // put, from 5 to 10, is the call running when the unlock begins: Lock Contention
  // (communication) = min(10, 8) - 5 = 3, at MPI_Put. In the second the put returns at 6 and
  // MPI_Win_unlock blocks from 7 to 12: min(12, 8) - 7 = 1, at MPI_Win_unlock.
  for (const bool in_put : {true, false}) {
    SCOPED_TRACE(in_put ? "put" : "unlock");
    Scenario s(3);
    const uint32_t win = s.AddWindow(0);
    s.rank(0)
        .Enter(0, "main")
        .RmaLock(1, 2, "MPI_Win_lock", win, 2, 1, true)
        .RmaUnlock(8, 9, "MPI_Win_unlock", win, 2, 1)
        .Leave(20, "main");
    s.rank(1)
        .Enter(0, "main")
        .RmaLock(4, 5, "MPI_Win_lock", win, 2, 1, true)
        .RmaTransfer(5, in_put ? 10 : 6, "MPI_Put", win, 2, 4, 1)
        .RmaUnlock(in_put ? 11 : 7, in_put ? 13 : 12, "MPI_Win_unlock", win, 2, 1,
                   [&](RankScript& r) { r.RmaOpCompleteEvent(in_put ? 12 : 11, win, 1); })
        .Leave(20, "main");
    s.rank(2).Enter(0, "main").Leave(20, "main");
    Analysis a = AnalyzeScenario(s);
    if (in_put) {
      EXPECT_EQ(a.Value("mpi_rma_comm_lock_competition", "main/MPI_Put", 1), 3.0);
      EXPECT_EQ(a.Total("mpi_rma_sync_lock_competition"), 0.0);
    } else {
      EXPECT_EQ(a.Value("mpi_rma_sync_lock_competition", "main/MPI_Win_unlock", 1), 1.0);
      EXPECT_EQ(a.Total("mpi_rma_comm_lock_competition"), 0.0);
    }
  }
}

TEST(RmaLockTest, TheNextHolderMayReturnBeforeTheUnlockDoes) {
  // A tracer stamps MPI_Win_unlock's return after the library has handed the lock on: rank 0's
  // unlock runs from 8 to 12, while rank 1's MPI_Win_lock (from 4) returns at 10 with the lock.
  // Rank 1 waited from 4 until rank 0 began to unlock: min(10, 8) - 4 = 4, in MPI_Win_lock, not
  // in the put that follows (which ran while the unlock was still being recorded).
  Scenario s(3);
  const uint32_t win = s.AddWindow(0);
  s.rank(0)
      .Enter(0, "main")
      .RmaLock(1, 2, "MPI_Win_lock", win, 2, 1, true)
      .RmaUnlock(8, 12, "MPI_Win_unlock", win, 2, 1)
      .Leave(20, "main");
  s.rank(1)
      .Enter(0, "main")
      .RmaLock(4, 10, "MPI_Win_lock", win, 2, 1, true)
      .RmaTransfer(10, 13, "MPI_Put", win, 2, 4, 1)
      .RmaUnlock(13, 14, "MPI_Win_unlock", win, 2, 1)
      .Leave(20, "main");
  s.rank(2).Enter(0, "main").Leave(20, "main");
  Analysis a = AnalyzeScenario(s);
  EXPECT_EQ(a.Value("mpi_rma_sync_lock_competition", "main/MPI_Win_lock", 1), 4.0);
  EXPECT_EQ(a.Total("mpi_rma_sync_lock_competition"), 4.0);
  EXPECT_EQ(a.Total("mpi_rma_comm_lock_competition"), 0.0);
}

TEST(RmaLockTest, AnEpochThatEndedBeforeTheUnlockDidNotWait) {
  // Rank 1's exclusive epoch on rank 2 (1 to 4) ends before rank 0's (5 to 9) even begins to
  // unlock: they did not contend, and neither waited.
  Scenario s(3);
  const uint32_t win = s.AddWindow(0);
  s.rank(0)
      .Enter(0, "main")
      .RmaLock(5, 6, "MPI_Win_lock", win, 2, 1, true)
      .RmaUnlock(8, 9, "MPI_Win_unlock", win, 2, 1)
      .Leave(20, "main");
  s.rank(1)
      .Enter(0, "main")
      .RmaLock(1, 2, "MPI_Win_lock", win, 2, 1, true)
      .RmaUnlock(3, 4, "MPI_Win_unlock", win, 2, 1)
      .Leave(20, "main");
  s.rank(2).Enter(0, "main").Leave(20, "main");
  Analysis a = AnalyzeScenario(s);
  EXPECT_EQ(a.Total("mpi_rma_sync_lock_competition"), 0.0);
  EXPECT_EQ(a.Total("mpi_rma_comm_lock_competition"), 0.0);
}

TEST(RmaLockTest, SharedLocksWaitOnlyForExclusiveOnes) {
  // Target rank 3. Rank 0 holds a lock_all (shared) until 9; rank 1 asks for a shared lock at 4
  // and gets it at 10 (slow, but not for the lock_all: shared locks do not conflict): no wait.
  // Rank 2 asks for an exclusive lock at 5 and gets it at 13: the latest conflicting release
  // before its own (14) is rank 1's, in MPI_Win_unlock from 10 to 11: Lock Contention =
  // 10 - 5 = 5, partner rank 1.
  Scenario s(4);
  const uint32_t win = s.AddWindow(0);
  s.rank(0)
      .Enter(0, "main")
      .RmaLock(1, 2, "MPI_Win_lock_all", win, kAllTargets, 1, false)
      .RmaUnlock(3, 9, "MPI_Win_unlock_all", win, kAllTargets, 1)
      .Leave(20, "main");
  s.rank(1)
      .Enter(0, "main")
      .RmaLock(4, 10, "MPI_Win_lock", win, 3, 1, false)
      .RmaUnlock(10, 11, "MPI_Win_unlock", win, 3, 1)
      .Leave(20, "main");
  s.rank(2)
      .Enter(0, "main")
      .RmaLock(5, 13, "MPI_Win_lock", win, 3, 1, true)
      .RmaUnlock(13, 14, "MPI_Win_unlock", win, 3, 1)
      .Leave(20, "main");
  s.rank(3).Enter(0, "main").Leave(20, "main");
  Analysis a = AnalyzeScenario(s);
  EXPECT_EQ(a.LocationTotal("mpi_rma_sync_lock_competition", 1), 0.0);
  EXPECT_EQ(a.Value("mpi_rma_sync_lock_competition", "main/MPI_Win_lock", 2), 5.0);
  EXPECT_EQ(a.Total("mpi_rma_sync_lock_competition"), 5.0);
  EXPECT_EQ(TopInstance(a, "mpi_rma_sync_lock_competition").partner, 1u);
}

TEST(RmaLockTest, ALockAllWaitsForAnExclusiveLockOnAnyTarget) {
  // Rank 0 holds an exclusive lock on rank 1 until it begins to unlock at 8; rank 2's lock_all
  // (shared, on ranks 0-2) blocks from 4 to 10: Lock Contention = 8 - 4 = 4, counted once
  // although it covers three targets.
  Scenario s(3);
  const uint32_t win = s.AddWindow(0);
  s.rank(0)
      .Enter(0, "main")
      .RmaLock(1, 2, "MPI_Win_lock", win, 1, 1, true)
      .RmaUnlock(8, 9, "MPI_Win_unlock", win, 1, 1)
      .Leave(20, "main");
  s.rank(1).Enter(0, "main").Leave(20, "main");
  s.rank(2)
      .Enter(0, "main")
      .RmaLock(4, 10, "MPI_Win_lock_all", win, kAllTargets, 1, false)
      .RmaUnlock(11, 12, "MPI_Win_unlock_all", win, kAllTargets, 1)
      .Leave(20, "main");
  Analysis a = AnalyzeScenario(s);
  EXPECT_EQ(a.Value("mpi_rma_sync_lock_competition", "main/MPI_Win_lock_all", 2), 4.0);
  EXPECT_EQ(a.Total("mpi_rma_sync_lock_competition"), 4.0);
}

// ---- Early Fence -----------------------------------------------------------------------------

TEST(RmaFenceTest, EarlyFenceEndsWithTheLastTransferToTheProcess) {
  // Both ranks open a fence epoch in [1, 2]. Rank 0 enters the closing fence at 3; rank 1 puts
  // into rank 0's window at 6 and enters the fence at 8; both leave at 10. Wait at Fence of rank
  // 0 = 8 - 3 = 5, of which Early Fence = 6 - 3 = 3 (until the last transfer to it was issued).
  // Rank 1 did not wait.
  Scenario s(2);
  const uint32_t win = s.AddWindow(0);
  s.rank(0)
      .Enter(0, "main")
      .RmaCollective(1, 2, "MPI_Win_fence", OTF2_COLLECTIVE_OP_BARRIER, win)
      .RmaCollective(3, 10, "MPI_Win_fence", OTF2_COLLECTIVE_OP_BARRIER, win)
      .Leave(20, "main");
  s.rank(1)
      .Enter(0, "main")
      .RmaCollective(1, 2, "MPI_Win_fence", OTF2_COLLECTIVE_OP_BARRIER, win)
      .RmaTransfer(6, 7, "MPI_Put", win, 0, 4, 1)
      .RmaCollective(8, 10, "MPI_Win_fence", OTF2_COLLECTIVE_OP_BARRIER, win)
      .Leave(20, "main");
  Analysis a = AnalyzeScenario(s);
  EXPECT_EQ(a.Value("mpi_rma_wait_at_fence", "main/MPI_Win_fence", 0), 5.0);
  EXPECT_EQ(a.Value("mpi_rma_early_fence", "main/MPI_Win_fence", 0), 3.0);
  EXPECT_EQ(a.Total("mpi_rma_early_fence"), 3.0);
  EXPECT_EQ(a.LocationTotal("mpi_rma_wait_at_fence", 1), 0.0);
  EXPECT_EQ(TopInstance(a, "mpi_rma_early_fence").partner, 1u);
}

TEST(RmaFenceTest, TransfersOfOtherEpochsAreNotPending) {
  // As above, but rank 1's put at 6 is inside a lock epoch on rank 0 (lock 5-6, unlock 7-8),
  // which completes it: it is not pending at the fence, so there is no Early Fence; the Wait at
  // Fence (10 - 3 = 7) stays.
  Scenario s(2);
  const uint32_t win = s.AddWindow(0);
  s.rank(0)
      .Enter(0, "main")
      .RmaCollective(1, 2, "MPI_Win_fence", OTF2_COLLECTIVE_OP_BARRIER, win)
      .RmaCollective(3, 12, "MPI_Win_fence", OTF2_COLLECTIVE_OP_BARRIER, win)
      .Leave(20, "main");
  s.rank(1)
      .Enter(0, "main")
      .RmaCollective(1, 2, "MPI_Win_fence", OTF2_COLLECTIVE_OP_BARRIER, win)
      .RmaLock(5, 6, "MPI_Win_lock", win, 0, 1, true)
      .RmaTransfer(6, 7, "MPI_Put", win, 0, 4, 1)
      .RmaUnlock(7, 8, "MPI_Win_unlock", win, 0, 1)
      .RmaCollective(10, 12, "MPI_Win_fence", OTF2_COLLECTIVE_OP_BARRIER, win)
      .Leave(20, "main");
  Analysis a = AnalyzeScenario(s);
  EXPECT_EQ(a.Value("mpi_rma_wait_at_fence", "main/MPI_Win_fence", 0), 7.0);
  EXPECT_EQ(a.Total("mpi_rma_early_fence"), 0.0);
}

}  // namespace
}  // namespace cw::test
