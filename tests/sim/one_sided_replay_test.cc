// Exact timing rules of the what-if replay for one-sided synchronisation on hand-built traces
// (one tick is one second). OpenSHMEM: its routines are calls, its barriers RMA collectives, a
// blocking transfer takes the network change, and lock hand-overs and waits for a value wait for
// the partner the measured run paired them with. MPI passive target: the call of an epoch that
// waited for a conflicting lock waits for the holder's MPI_Win_unlock to begin. As in
// replay_rules_test.cc: a call's Leave = max(Enter', each dependency' + delta) + its measured cost,
// the cost being what it took after its dependencies.
#include <gtest/gtest.h>

#include "testing/scenario.h"
#include "tests/common/analysis_fixture.h"
#include "tests/sim/replay_fixture.h"

namespace cw::sim {
namespace {

using test::Analysis;
using test::AnalyzeScenario;
using testing::Scenario;

constexpr uint32_t kNoTarget = OTF2_UNDEFINED_UINT32;  // an OpenSHMEM lock, MPI_Win_lock_all

// PE 0 works 0..4 and puts PE 1's flag in shmem_int_p 4..`put_end` (5 unless said); PE 1 waits
// in shmem_int_wait_until 1..6. Events: PE 0 = main, work, /work, shmem_int_p, put, complete,
// /shmem_int_p, /main; PE 1 = main, wait_until, wait change, /wait_until, /main. The wait was
// ready at 4 (the put's Enter) and cost 6 - 4 = 2 after it.
Scenario FlagPut(uint64_t put_end = 5) {
  Scenario s(2);
  const uint32_t heap = s.AddShmemWindow({0, 1});
  s.rank(0)
      .Enter(0, "main")
      .Call(0, 4, "work")
      .ShmemPut(4, put_end, "shmem_int_p", heap, 1, 4, 1)
      .Leave(10, "main");
  s.rank(1).Enter(0, "main").ShmemWaitUntil(1, 6, heap).Leave(10, "main");
  return s;
}

TEST(OneSidedReplayTest, WaitForAValueWaitsForTheWriteThatEndedIt) {
  ExpectIdentity(Replay(FlagPut()));
  // work x2 on PE 0: work ends at 8, the put runs 8..9 (its cost 1), main ends 9 + 5 = 14.
  // PE 1: ready = max(1, 8) = 8, Leave = 8 + 2 = 10, main ends 10 + 4 = 14.
  Replayed r = Replay(FlagPut(), ComputeScaled("work=2@0"));
  EXPECT_EQ(r.Time(0, 6), 9u);
  EXPECT_EQ(r.Time(1, 3), 10u);
  EXPECT_EQ(r.End(1), 14u);
  EXPECT_EQ(r.result.stats.value_waits, 1u);
  EXPECT_EQ(r.result.stats.unmatched_epoch_syncs + r.result.stats.cycles_broken, 0u);
}

TEST(OneSidedReplayTest, AWaitEndedByAPutStillInFlightWaitsForIt) {
  // As FlagPut, but the put's call returns only at 7, after the wait ended at 6 (the target saw
  // the value first): the wait is paired with it all the same (trace::EndingWrites), as the
  // wait-state analysis pairs it. Ready at 4, cost 6 - 4 = 2. With work x2 on PE 0 the put
  // begins at 8: PE 1 leaves its wait at 8 + 2 = 10.
  ExpectIdentity(Replay(FlagPut(7)));
  Replayed r = Replay(FlagPut(7), ComputeScaled("work=2@0"));
  EXPECT_EQ(r.result.stats.value_waits, 1u);
  EXPECT_EQ(r.Time(1, 3), 10u);
}

TEST(OneSidedReplayTest, ABlockingPutTakesTheLatencyChange) {
  // Latency 3 on a network whose latency was 1: the blocking put lasts 2 longer (4..7), and
  // its notification reaches the wait 2 later: ready = max(1, 4 + 2) = 6, Leave = 6 + 2 = 8.
  Perturbation p;
  p.network.latency = 3;
  p.network.base_latency = 1;
  Replayed r = Replay(FlagPut(), p);
  EXPECT_EQ(r.Time(0, 6), 7u);
  EXPECT_EQ(r.Time(1, 3), 8u);
}

// PE 0 takes the lock in shmem_set_lock 1..2 after `pre` 0..1, holds it in `crit` 2..5 and
// releases it in shmem_clear_lock 5..6. PE 1 asks at 2 and gets it at 7 (ready at 5, PE 0's
// clear_lock Enter; cost 2), holds it 7..8 and releases it 8..9. Events of PE 1: main,
// set_lock, request, acquire, /set_lock, crit, /crit, clear_lock, release, /clear_lock, /main.
Scenario LockHandOver() {
  Scenario s(2);
  const uint32_t heap = s.AddShmemWindow({0, 1});
  constexpr uint64_t kLock = 3;
  s.rank(0)
      .Enter(0, "main")
      .Call(0, 1, "pre")
      .RmaLock(1, 2, "shmem_set_lock", heap, kNoTarget, kLock, true)
      .Call(2, 5, "crit")
      .RmaUnlock(5, 6, "shmem_clear_lock", heap, kNoTarget, kLock)
      .Leave(10, "main");
  s.rank(1)
      .Enter(0, "main")
      .RmaLock(2, 7, "shmem_set_lock", heap, kNoTarget, kLock, true)
      .Call(7, 8, "crit")
      .RmaUnlock(8, 9, "shmem_clear_lock", heap, kNoTarget, kLock)
      .Leave(10, "main");
  return s;
}

TEST(OneSidedReplayTest, LockHandOversKeepTheMeasuredOrder) {
  ExpectIdentity(Replay(LockHandOver()));
  // crit x2 on PE 0 (2..8, clear_lock 8..9): PE 1's acquisition is ready at 8 and leaves at
  // 8 + 2 = 10.
  Replayed slower = Replay(LockHandOver(), ComputeScaled("crit=2@0"));
  EXPECT_EQ(slower.Time(1, 4), 10u);
  EXPECT_EQ(slower.result.stats.lock_handovers, 1u);
  // pre x7 on PE 0 (0..7): PE 0 now asks for the lock after PE 1 did, but the replay keeps the
  // measured order: PE 0 takes it at 7..8, holds it 8..11 and releases it 11..12; PE 1 gets it
  // at 11 + 2 = 13.
  Replayed later = Replay(LockHandOver(), ComputeScaled("pre=7@0"));
  EXPECT_EQ(later.Time(1, 4), 13u);
  EXPECT_EQ(later.result.stats.unmatched_epoch_syncs + later.result.stats.cycles_broken, 0u);
}

TEST(OneSidedReplayTest, OpenShmemBarriersWaitForTheLastPe) {
  // PE 0 works 0..4 and enters shmem_barrier_all at 4 (4..5); PE 1 enters it at 1 (1..5): both
  // were ready at 4, cost 1. work x2: PE 0 enters at 8; both leave at 8 + 1 = 9.
  Scenario s(2);
  const uint32_t heap = s.AddShmemWindow({0, 1});
  s.rank(0)
      .Enter(0, "main")
      .Call(0, 4, "work")
      .RmaCollective(4, 5, "shmem_barrier_all", OTF2_COLLECTIVE_OP_BARRIER, heap)
      .Leave(6, "main");
  s.rank(1)
      .Enter(0, "main")
      .RmaCollective(1, 5, "shmem_barrier_all", OTF2_COLLECTIVE_OP_BARRIER, heap)
      .Leave(6, "main");
  ExpectIdentity(Replay(s));
  Replayed r = Replay(s, ComputeScaled("work=2@0"));
  // PE 1: main, barrier, begin, end, /barrier, /main.
  EXPECT_EQ(r.Time(1, 4), 9u);
  EXPECT_EQ(r.End(1), 10u);
  EXPECT_EQ(r.result.stats.collectives, 2u);
}

// ---- MPI passive target -----------------------------------------------------------------------

// Rank 0 holds an exclusive lock on rank 2's window from 2, works in `crit` 3..8 and unlocks
// 8..9. Rank 1 asks for the same lock at 4 and gets it at 10 (the library acquires it eagerly,
// in MPI_Win_lock): it waited for rank 0's unlock to begin (8) and took 10 - 8 = 2 after it.
// Events of rank 1: main, MPI_Win_lock, request, acquire, /MPI_Win_lock, MPI_Put, put, /MPI_Put,
// MPI_Win_unlock, release, /MPI_Win_unlock, /main.
Scenario EagerLockHandOver() {
  Scenario s(3);
  const uint32_t win = s.AddWindow(0);
  s.rank(0)
      .Enter(0, "main")
      .RmaLock(1, 2, "MPI_Win_lock", win, 2, 1, true)
      .RmaTransfer(2, 3, "MPI_Put", win, 2, 4, 1)
      .Call(3, 8, "crit")
      .RmaUnlock(8, 9, "MPI_Win_unlock", win, 2, 1,
                 [&](testing::RankScript& r) { r.RmaOpCompleteEvent(9, win, 1); })
      .Leave(20, "main");
  s.rank(1)
      .Enter(0, "main")
      .RmaLock(4, 10, "MPI_Win_lock", win, 2, 1, true)
      .RmaTransfer(10, 11, "MPI_Put", win, 2, 4, 2)
      .RmaUnlock(11, 12, "MPI_Win_unlock", win, 2, 1,
                 [&](testing::RankScript& r) { r.RmaOpCompleteEvent(12, win, 2); })
      .Leave(20, "main");
  s.rank(2).Enter(0, "main").Leave(20, "main");
  return s;
}

TEST(OneSidedReplayTest, MpiLockWaitsForTheHoldersUnlock) {
  ExpectIdentity(Replay(EagerLockHandOver()));
  // crit x2 on rank 0 (3..13, MPI_Win_unlock 13..14): rank 1's MPI_Win_lock is ready at 13 and
  // leaves at 13 + 2 = 15; its put runs 15..16, its unlock 16..17, main ends 17 + 8 = 25.
  Replayed slower = Replay(EagerLockHandOver(), ComputeScaled("crit=2@0"));
  EXPECT_EQ(slower.Time(1, 4), 15u);
  EXPECT_EQ(slower.Time(1, 10), 17u);
  EXPECT_EQ(slower.End(1), 25u);
  EXPECT_EQ(slower.result.stats.lock_handovers, 1u);
  EXPECT_EQ(slower.result.stats.unmatched_epoch_syncs + slower.result.stats.cycles_broken, 0u);
  // crit x0.2 (3..4, MPI_Win_unlock 4..5): the lock is ready at max(4, 4) = 4 and leaves at 6.
  Replayed faster = Replay(EagerLockHandOver(), ComputeScaled("crit=0.2@0"));
  EXPECT_EQ(faster.Time(1, 4), 6u);
}

TEST(OneSidedReplayTest, ALazyMpiLockWaitsInTheCallThatWaited) {
  // MPI_Win_lock returns at once (4..5); rank 1's put (5..10) is the call running when rank 0's
  // unlock begins (8): it took 10 - 8 = 2 after it. crit x2 on rank 0 (2..14, unlock 14..15):
  // the put is ready at 14 and leaves at 16; MPI_Win_unlock follows 1 later, 17..19.
  Scenario s(3);
  const uint32_t win = s.AddWindow(0);
  s.rank(0)
      .Enter(0, "main")
      .RmaLock(1, 2, "MPI_Win_lock", win, 2, 1, true)
      .Call(2, 8, "crit")
      .RmaUnlock(8, 9, "MPI_Win_unlock", win, 2, 1)
      .Leave(20, "main");
  s.rank(1)
      .Enter(0, "main")
      .RmaLock(4, 5, "MPI_Win_lock", win, 2, 1, true)
      .RmaTransfer(5, 10, "MPI_Put", win, 2, 4, 1)
      .RmaUnlock(11, 13, "MPI_Win_unlock", win, 2, 1,
                 [&](testing::RankScript& r) { r.RmaOpCompleteEvent(12, win, 1); })
      .Leave(20, "main");
  s.rank(2).Enter(0, "main").Leave(20, "main");
  ExpectIdentity(Replay(s));
  Replayed r = Replay(s, ComputeScaled("crit=2@0"));
  EXPECT_EQ(r.Time(1, 4), 5u);  // MPI_Win_lock did not wait
  EXPECT_EQ(r.Time(1, 7), 16u);
  EXPECT_EQ(r.Time(1, 8), 17u);
  EXPECT_EQ(r.Time(1, 11), 19u);
  EXPECT_EQ(r.result.stats.lock_handovers, 1u);
}

// Rank 1's lock is acquired lazily, in the MPI_Win_flush that completes its put at the target
// (a remote completion, as Score-P records it): the flush 6..10 is the call running when rank
// 0's unlock begins (8), so it waited 10 - 8 = 2 for it. Events of rank 1: main, MPI_Win_lock,
// request, acquire, /MPI_Win_lock, MPI_Put, put, /MPI_Put, MPI_Win_flush, remote completion,
// /MPI_Win_flush, MPI_Win_unlock, release, /MPI_Win_unlock, /main.
Scenario FlushWaitsForTheLock() {
  Scenario s(3);
  const uint32_t win = s.AddWindow(0);
  s.rank(0)
      .Enter(0, "main")
      .RmaLock(1, 2, "MPI_Win_lock", win, 2, 1, true)
      .Call(2, 8, "crit")
      .RmaUnlock(8, 9, "MPI_Win_unlock", win, 2, 1)
      .Leave(20, "main");
  s.rank(1)
      .Enter(0, "main")
      .RmaLock(4, 5, "MPI_Win_lock", win, 2, 1, true)
      .RmaTransfer(5, 6, "MPI_Put", win, 2, 4, 1)
      .Enter(6, "MPI_Win_flush")
      .RmaOpCompleteRemoteEvent(10, win, 1)
      .Leave(10, "MPI_Win_flush")
      .RmaUnlock(11, 12, "MPI_Win_unlock", win, 2, 1)
      .Leave(20, "main");
  s.rank(2).Enter(0, "main").Leave(20, "main");
  return s;
}

TEST(OneSidedReplayTest, AFlushThatWaitedForTheLockIsPairedAsTheAnalysisPairsIt) {
  // The analysis and the replay scan epochs alike (trace/passive_epoch_scan.h): the flush,
  // which holds only the put's remote completion, is a call of rank 1's epoch for both.
  Analysis a = AnalyzeScenario(FlushWaitsForTheLock());
  EXPECT_EQ(a.Value("mpi_rma_sync_lock_competition", "main/MPI_Win_flush", 1) +
                a.Value("mpi_rma_comm_lock_competition", "main/MPI_Win_flush", 1),
            2.0);
  ExpectIdentity(Replay(FlushWaitsForTheLock()));
  // crit x2 on rank 0 (2..14, unlock 14..15): the flush is ready at 14 and leaves at 16; the
  // unlock follows 1 later, 17..18, and main 8 after it.
  Replayed r = Replay(FlushWaitsForTheLock(), ComputeScaled("crit=2@0"));
  EXPECT_EQ(r.Time(1, 10), 16u);  // /MPI_Win_flush
  EXPECT_EQ(r.Time(1, 11), 17u);  // MPI_Win_unlock
  EXPECT_EQ(r.result.stats.lock_handovers, 1u);
}

TEST(OneSidedReplayTest, SharedMpiLocksWaitOnlyForExclusiveOnes) {
  // Target rank 3. Rank 0 holds a lock_all (shared), works 2..8 and unlocks 8..9; rank 1 holds
  // a shared lock 4..10, works 10..12 and unlocks 12..13; rank 2 asks for an exclusive lock at 5
  // and gets it at 15, 15 - 12 = 3 after rank 1's unlock began (the latest conflicting release
  // before its own). Events of ranks 1 and 2: main, MPI_Win_lock, request, acquire,
  // /MPI_Win_lock, ...
  Scenario s(4);
  const uint32_t win = s.AddWindow(0);
  s.rank(0)
      .Enter(0, "main")
      .RmaLock(1, 2, "MPI_Win_lock_all", win, kNoTarget, 1, false)
      .Call(2, 8, "work")
      .RmaUnlock(8, 9, "MPI_Win_unlock_all", win, kNoTarget, 1)
      .Leave(20, "main");
  s.rank(1)
      .Enter(0, "main")
      .RmaLock(4, 10, "MPI_Win_lock", win, 3, 1, false)
      .Call(10, 12, "crit")
      .RmaUnlock(12, 13, "MPI_Win_unlock", win, 3, 1)
      .Leave(20, "main");
  s.rank(2)
      .Enter(0, "main")
      .RmaLock(5, 15, "MPI_Win_lock", win, 3, 1, true)
      .RmaUnlock(15, 16, "MPI_Win_unlock", win, 3, 1)
      .Leave(20, "main");
  s.rank(3).Enter(0, "main").Leave(20, "main");
  ExpectIdentity(Replay(s));
  // work x2 on rank 0 (2..14): the shared lock of rank 1 does not wait for the lock_all.
  Replayed shared = Replay(s, ComputeScaled("work=2@0"));
  EXPECT_EQ(shared.Time(1, 4), 10u);
  EXPECT_EQ(shared.Time(2, 4), 15u);
  // crit x2 on rank 1 (10..14, unlock 14..15): rank 2 is ready at 14 and leaves at 14 + 3 = 17.
  Replayed exclusive = Replay(s, ComputeScaled("crit=2@1"));
  EXPECT_EQ(exclusive.Time(2, 4), 17u);
  EXPECT_EQ(exclusive.result.stats.lock_handovers, 1u);
}

TEST(OneSidedReplayTest, AnMpiLockAllWaitsForAnExclusiveLockOnAnyTarget) {
  // Rank 0 holds an exclusive lock on rank 1, works 2..8 and unlocks 8..9; rank 2's lock_all
  // (shared, on ranks 0-2) blocks from 4 to 10, 10 - 8 = 2 after that unlock began. crit x2 on
  // rank 0 (2..14, unlock 14..15): the lock_all is ready at 14 and leaves at 16.
  Scenario s(3);
  const uint32_t win = s.AddWindow(0);
  s.rank(0)
      .Enter(0, "main")
      .RmaLock(1, 2, "MPI_Win_lock", win, 1, 1, true)
      .Call(2, 8, "crit")
      .RmaUnlock(8, 9, "MPI_Win_unlock", win, 1, 1)
      .Leave(20, "main");
  s.rank(1).Enter(0, "main").Leave(20, "main");
  s.rank(2)
      .Enter(0, "main")
      .RmaLock(4, 10, "MPI_Win_lock_all", win, kNoTarget, 1, false)
      .RmaUnlock(11, 12, "MPI_Win_unlock_all", win, kNoTarget, 1)
      .Leave(20, "main");
  ExpectIdentity(Replay(s));
  Replayed r = Replay(s, ComputeScaled("crit=2@0"));
  EXPECT_EQ(r.Time(2, 4), 16u);
  EXPECT_EQ(r.result.stats.lock_handovers, 1u);
}

}  // namespace
}  // namespace cw::sim
