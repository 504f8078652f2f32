// Exact timing rules of the what-if replay for OpenSHMEM on hand-built traces (one tick is one
// second): its routines are calls, its barriers RMA collectives, a blocking transfer takes the
// network change, and lock hand-overs and waits for a value wait for the partner the measured
// run paired them with. As in replay_rules_test.cc: a call's Leave = max(Enter', each
// dependency' + delta) + its measured cost, the cost being what it took after its dependencies.
#include <gtest/gtest.h>

#include "testing/scenario.h"
#include "tests/sim/replay_fixture.h"

namespace cw::sim {
namespace {

using testing::Scenario;

constexpr uint32_t kNoTarget = OTF2_UNDEFINED_UINT32;

// PE 0 works 0..4 and puts PE 1's flag in shmem_int_p 4..5; PE 1 waits in shmem_int_wait_until
// 1..6. Events: PE 0 = main, work, /work, shmem_int_p, put, complete, /shmem_int_p, /main; PE 1 =
// main, wait_until, wait change, /wait_until, /main. The wait was ready at 4 (the put's Enter)
// and cost 6 - 4 = 2 after it.
Scenario FlagPut() {
  Scenario s(2);
  const uint32_t heap = s.AddShmemWindow({0, 1});
  s.rank(0)
      .Enter(0, "main")
      .Call(0, 4, "work")
      .ShmemPut(4, 5, "shmem_int_p", heap, 1, 4, 1)
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

}  // namespace
}  // namespace cw::sim
