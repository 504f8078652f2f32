// OpenSHMEM wait states on hand-built traces: Wait at Barrier (barriers and syncs), Wait at
// Collective, Lock Contention and Wait on Value, and the time categories of OpenSHMEM routines.
// One tick is one second; PEs are ranks. Records are written as causeway's tracer writes them:
// RMA collectives end at the Leave, lock requests at the Enter and acquisitions at the Leave of
// shmem_set_lock, releases at the Leave of shmem_clear_lock, a blocking put's RmaPut at its
// Enter and its completion at its Leave, the RmaWaitChange of shmem_wait_until at its Enter.
#include <gtest/gtest.h>

#include <string>

#include "tests/common/analysis_fixture.h"

namespace cw::test {
namespace {

using testing::RankScript;
using testing::Scenario;

constexpr uint32_t kNoTarget = OTF2_UNDEFINED_UINT32;

analysis::Instance TopShmemInstance(const Analysis& a, const std::string& metric) {
  for (const analysis::Instance& i : a.result.waitstates.instances) {
    if (analysis::Metric(i.metric).name == metric) return i;
  }
  ADD_FAILURE() << "no instance of " << metric;
  return {};
}

TEST(ShmemPatternsTest, BarriersAndSyncsWaitForTheLastPeOfTheirActiveSet) {
  // shmem_barrier_all over all PEs, entered at 1, 3 and 6, left at 7: PE 0 waits 6 - 1 = 5,
  // PE 1 6 - 3 = 3, PE 2 (the last) nothing. Then shmem_barrier over the active set {0, 1},
  // entered at 10 and 12, left at 13: PE 0 waits 2. Then shmem_sync_all entered at 14, 14 and
  // 15, left at 16: PEs 0 and 1 wait 1 each. In all 5 + 3 + 2 + 1 + 1 = 12.
  Scenario s(3);
  const uint32_t all = s.AddShmemWindow({0, 1, 2});
  const uint32_t pair = s.AddShmemWindow({0, 1});
  s.rank(0)
      .Enter(0, "main")
      .RmaCollective(1, 7, "shmem_barrier_all", OTF2_COLLECTIVE_OP_BARRIER, all)
      .RmaCollective(10, 13, "shmem_barrier", OTF2_COLLECTIVE_OP_BARRIER, pair)
      .RmaCollective(14, 16, "shmem_sync_all", OTF2_COLLECTIVE_OP_BARRIER, all)
      .Leave(20, "main");
  s.rank(1)
      .Enter(0, "main")
      .RmaCollective(3, 7, "shmem_barrier_all", OTF2_COLLECTIVE_OP_BARRIER, all)
      .RmaCollective(12, 13, "shmem_barrier", OTF2_COLLECTIVE_OP_BARRIER, pair)
      .RmaCollective(14, 16, "shmem_sync_all", OTF2_COLLECTIVE_OP_BARRIER, all)
      .Leave(20, "main");
  s.rank(2)
      .Enter(0, "main")
      .RmaCollective(6, 7, "shmem_barrier_all", OTF2_COLLECTIVE_OP_BARRIER, all)
      .RmaCollective(15, 16, "shmem_sync_all", OTF2_COLLECTIVE_OP_BARRIER, all)
      .Leave(20, "main");
  Analysis a = AnalyzeScenario(s);
  EXPECT_EQ(a.Value("shmem_barrier_wait", "main/shmem_barrier_all", 0), 5.0);
  EXPECT_EQ(a.Value("shmem_barrier_wait", "main/shmem_barrier_all", 1), 3.0);
  EXPECT_EQ(a.Value("shmem_barrier_wait", "main/shmem_barrier_all", 2), 0.0);
  EXPECT_EQ(a.Value("shmem_barrier_wait", "main/shmem_barrier", 0), 2.0);
  EXPECT_EQ(a.Value("shmem_barrier_wait", "main/shmem_sync_all", 0), 1.0);
  EXPECT_EQ(a.Value("shmem_barrier_wait", "main/shmem_sync_all", 1), 1.0);
  EXPECT_EQ(a.Total("shmem_barrier_wait"), 12.0);
  EXPECT_EQ(TopShmemInstance(a, "shmem_barrier_wait").partner, 2u);
  // They are OpenSHMEM's waits, not MPI's: no MPI time, no Wait at Fence, no completion.
  EXPECT_EQ(a.Total("mpi"), 0.0);
  EXPECT_EQ(a.Total("mpi_rma_wait_at_fence"), 0.0);
  EXPECT_EQ(a.Total("mpi_barrier_completion"), 0.0);
  // Time: PE 0 spent 6 + 3 + 2 in barriers and syncs, all of it shmem_sync.
  EXPECT_EQ(a.Value("shmem_sync", "main/shmem_barrier_all", 0), 6.0);
  EXPECT_EQ(a.Total("shmem"), a.Total("shmem_sync"));
  EXPECT_EQ(a.Total("shmem_sync"), (6 + 3 + 2) + (4 + 1 + 2) + (1 + 1));
}

TEST(ShmemPatternsTest, CollectivesWaitForTheLastPeOrTheBroadcastRoot) {
  // shmem_broadcast64 from PE 0 (root 0 of the window's PEs), entered at 5 by the root and at 2
  // and 3 by PEs 1 and 2, left at 6: the receivers wait for the root, 5 - 2 = 3 and 5 - 3 = 2.
  // shmem_int_sum_to_all (an all-reduce) entered at 10, 11 and 13, left at 14: PE 0 waits 3,
  // PE 1 waits 2. Wait at Collective in all: 3 + 2 + 3 + 2 = 10.
  Scenario s(3);
  const uint32_t all = s.AddShmemWindow({0, 1, 2});
  for (int pe = 0; pe < 3; ++pe) {
    const uint64_t bcast_enter = pe == 0 ? 5 : static_cast<uint64_t>(pe + 1);
    const uint64_t reduce_enter = pe == 0 ? 10 : pe == 1 ? 11 : 13;
    s.rank(pe)
        .Enter(0, "main")
        .RmaCollective(bcast_enter, 6, "shmem_broadcast64", OTF2_COLLECTIVE_OP_BCAST, all, 0,
                       pe == 0 ? 64 : 0, pe == 0 ? 0 : 32)
        .RmaCollective(reduce_enter, 14, "shmem_int_sum_to_all", OTF2_COLLECTIVE_OP_ALLREDUCE, all,
                       kNoTarget, 8, 8)
        .Leave(20, "main");
  }
  Analysis a = AnalyzeScenario(s);
  EXPECT_EQ(a.Value("shmem_collective_wait", "main/shmem_broadcast64", 0), 0.0);
  EXPECT_EQ(a.Value("shmem_collective_wait", "main/shmem_broadcast64", 1), 3.0);
  EXPECT_EQ(a.Value("shmem_collective_wait", "main/shmem_broadcast64", 2), 2.0);
  EXPECT_EQ(a.Value("shmem_collective_wait", "main/shmem_int_sum_to_all", 0), 3.0);
  EXPECT_EQ(a.Value("shmem_collective_wait", "main/shmem_int_sum_to_all", 1), 2.0);
  EXPECT_EQ(a.Total("shmem_collective_wait"), 10.0);
  EXPECT_EQ(a.Total("mpi_latebroadcast") + a.Total("mpi_wait_nxn"), 0.0);
  // Time: 1 + 4 + 3 in the broadcast, 4 + 3 + 1 in the reduction.
  EXPECT_EQ(a.Total("shmem_collective"), 16.0);
}

TEST(ShmemPatternsTest, LockHandOverChain) {
  // Three PEs take one lock in turn. PE 0 acquires it in shmem_set_lock [0, 1] and releases it
  // in shmem_clear_lock [4, 5]; PE 1 asked at 2 and got it at 5: it waited from 2 until PE 0
  // entered shmem_clear_lock at 4, 2 ticks. PE 1 releases it in [8, 9]; PE 2 asked at 3 and got
  // it at 9: it waited from 3 until 8, 5 ticks. PE 2 releases in [10, 11], then takes the lock
  // again in [12, 13] without waiting for anybody (the PE before it was itself).
  Scenario s(3);
  const uint32_t heap = s.AddShmemWindow({0, 1, 2});
  constexpr uint64_t kLock = 42;
  s.rank(0)
      .Enter(0, "main")
      .RmaLock(0, 1, "shmem_set_lock", heap, kNoTarget, kLock, true)
      .RmaUnlock(4, 5, "shmem_clear_lock", heap, kNoTarget, kLock)
      .Leave(20, "main");
  s.rank(1)
      .Enter(0, "main")
      .RmaLock(2, 5, "shmem_set_lock", heap, kNoTarget, kLock, true)
      .RmaUnlock(8, 9, "shmem_clear_lock", heap, kNoTarget, kLock)
      .Leave(20, "main");
  s.rank(2)
      .Enter(0, "main")
      .RmaLock(3, 9, "shmem_set_lock", heap, kNoTarget, kLock, true)
      .RmaUnlock(10, 11, "shmem_clear_lock", heap, kNoTarget, kLock)
      .RmaLock(12, 13, "shmem_set_lock", heap, kNoTarget, kLock, true)
      .RmaUnlock(14, 15, "shmem_clear_lock", heap, kNoTarget, kLock)
      .Leave(20, "main");
  Analysis a = AnalyzeScenario(s);
  EXPECT_EQ(a.Value("shmem_lock_contention", "main/shmem_set_lock", 0), 0.0);
  EXPECT_EQ(a.Value("shmem_lock_contention", "main/shmem_set_lock", 1), 2.0);
  EXPECT_EQ(a.Value("shmem_lock_contention", "main/shmem_set_lock", 2), 5.0);
  EXPECT_EQ(a.Total("shmem_lock_contention"), 7.0);
  EXPECT_EQ(TopShmemInstance(a, "shmem_lock_contention").partner, 1u);  // PE 2 waited for PE 1
  EXPECT_EQ(a.Total("mpi_rma_sync_lock_competition"), 0.0);
  // Lock calls are synchronisation: 1 + 3 + 6 + 1 in set_lock, 1 in each of 4 clear_locks.
  EXPECT_EQ(a.Total("shmem_sync"), (1 + 3 + 6 + 1) + (1 + 1 + 1 + 1));
}

TEST(ShmemPatternsTest, WaitOnValueEndsWithTheLastWriteToThePe) {
  // PE 1 waits in shmem_int_wait_until from 2 to 9. Writes to PE 1: PE 0's put completed at 1
  // (before the wait: it did not end it) and PE 2's put, issued at 6, completed at 7; a put to
  // PE 2 completed at 8 and a get from PE 1 are not writes to PE 1. The wait ended with PE 2's
  // put, and PE 1 waited until PE 2 issued it: 6 - 2 = 4 (the transfer itself is communication,
  // as for a message). PE 2 then waits in shmem_long_wait_until from 10 to 11, for a value PE 0
  // had already written at 8: no wait.
  Scenario s(3);
  const uint32_t heap = s.AddShmemWindow({0, 1, 2});
  s.rank(0)
      .Enter(0, "main")
      .ShmemPut(0, 1, "shmem_int_p", heap, 1, 4, 1)
      .ShmemPut(7, 8, "shmem_long_put", heap, 2, 8, 2)
      .Leave(20, "main");
  s.rank(1).Enter(0, "main").ShmemWaitUntil(2, 9, heap).Leave(20, "main");
  s.rank(2)
      .Enter(0, "main")
      .ShmemPut(6, 7, "shmem_int_put", heap, 1, 4, 1)
      .RmaTransfer(7, 8, "MPI_Get", heap, 1, 4, 2)
      .RmaOpCompleteEvent(8, heap, 2)
      .ShmemWaitUntil(10, 11, heap, "shmem_long_wait_until")
      .Leave(20, "main");
  Analysis a = AnalyzeScenario(s);
  EXPECT_EQ(a.Value("shmem_wait_on_value", "main/shmem_int_wait_until", 1), 4.0);
  EXPECT_EQ(a.Value("shmem_wait_on_value", "main/shmem_long_wait_until", 2), 0.0);
  EXPECT_EQ(a.Total("shmem_wait_on_value"), 4.0);
  EXPECT_EQ(TopShmemInstance(a, "shmem_wait_on_value").partner, 2u);
  // Transfers are RMA time: PE 0's two puts and PE 2's put (a get in an MPI_ region is not
  // OpenSHMEM time).
  EXPECT_EQ(a.Total("shmem_rma"), 3.0);
  EXPECT_EQ(a.Total("comms_rma_puts"), 3.0);
  EXPECT_EQ(a.Total("bytes_put"), 4.0 + 8.0 + 4.0);
}

TEST(ShmemPatternsTest, WaitOnValueEndsWithAWriteStillInFlight) {
  // A blocking put's completion is recorded when its call returns, and the target may see the
  // value before. PE 1 waits from 2 to 6; PE 0's put is issued at 5 (its RmaPut at the Enter)
  // and completes at 8: nothing completed during the wait, the put was in flight when it ended,
  // so it ended the wait, which waited until 5: 5 - 2 = 3. PE 1's second wait, from 7 to 10,
  // finds that put completing inside it, but a write ends one wait: the value was there, no
  // wait. Its third wait, from 12 to 13, ends before PE 0's next put (issued at 14): nothing
  // ended it (a damaged or clock-skewed trace), no wait.
  Scenario s(2);
  const uint32_t heap = s.AddShmemWindow({0, 1});
  s.rank(0)
      .Enter(0, "main")
      .ShmemPut(5, 8, "shmem_int_p", heap, 1, 4, 1)
      .ShmemPut(14, 15, "shmem_int_p", heap, 1, 4, 2)
      .Leave(20, "main");
  s.rank(1)
      .Enter(0, "main")
      .ShmemWaitUntil(2, 6, heap)
      .ShmemWaitUntil(7, 10, heap, "shmem_long_wait_until")
      .ShmemWaitUntil(12, 13, heap, "shmem_short_wait_until")
      .Leave(20, "main");
  Analysis a = AnalyzeScenario(s);
  EXPECT_EQ(a.Value("shmem_wait_on_value", "main/shmem_int_wait_until", 1), 3.0);
  EXPECT_EQ(a.Value("shmem_wait_on_value", "main/shmem_long_wait_until", 1), 0.0);
  EXPECT_EQ(a.Value("shmem_wait_on_value", "main/shmem_short_wait_until", 1), 0.0);
  EXPECT_EQ(a.Total("shmem_wait_on_value"), 3.0);
  EXPECT_EQ(TopShmemInstance(a, "shmem_wait_on_value").partner, 0u);
}

TEST(ShmemPatternsTest, QuietWaitsForATargetBusyOutsideTheLibrary) {
  // PE 0 issues non-blocking puts to PE 1 and completes each in a shmem_quiet:
  //   put_nbi [1,2], quiet [3,9]: PE 1 computes in `work` [0,7] and enters shmem_my_pe at 7,
  //     after the quiet began (3) and before it ended (9), and the quiet returned 2 after that,
  //     sooner than the 4 it had waited: Wait for Progress = 7 - 3 = 4, partner PE 1;
  //   put_nbi [10,11], quiet [12,22]: PE 1 enters shmem_my_pe at 13 but the quiet returns 9
  //     after that, long after its 1: the transfer did not wait for it, no wait;
  //   put_nbi [23,24], quiet [25,27]: PE 1 was inside shmem_barrier_all [24,30] when the quiet
  //     began (it could progress the transfer): no wait.
  // A blocking put ([31,32], completed in its own call) is never a quiet's.
  Scenario s(2);
  const uint32_t heap = s.AddShmemWindow({0, 1});
  auto completes = [&](uint64_t t, uint64_t id) {
    return [=](RankScript& r) { r.RmaOpCompleteEvent(t, heap, id); };
  };
  s.rank(0)
      .Enter(0, "main")
      .RmaTransfer(1, 2, "shmem_int_put_nbi", heap, 1, 4, 1)
      .Complete(3, 9, "shmem_quiet", completes(9, 1))
      .RmaTransfer(10, 11, "shmem_int_put_nbi", heap, 1, 4, 2)
      .Complete(12, 22, "shmem_quiet", completes(22, 2))
      .RmaTransfer(23, 24, "shmem_int_put_nbi", heap, 1, 4, 3)
      .Complete(25, 27, "shmem_quiet", completes(27, 3))
      .ShmemPut(31, 32, "shmem_int_put", heap, 1, 4, 4)
      .Leave(40, "main");
  s.rank(1)
      .Enter(0, "main")
      .Call(0, 7, "work")
      .Call(7, 8, "shmem_my_pe")
      .Call(13, 14, "shmem_my_pe")
      .Call(24, 30, "shmem_barrier_all")
      .Call(33, 34, "shmem_my_pe")
      .Leave(40, "main");
  Analysis a = AnalyzeScenario(s);
  EXPECT_EQ(a.Total("shmem_wait_for_progress"), 4.0);
  EXPECT_EQ(a.Value("shmem_wait_for_progress", "main/shmem_quiet", 0), 4.0);
  EXPECT_EQ(TopShmemInstance(a, "shmem_wait_for_progress").partner, 1u);
}

}  // namespace
}  // namespace cw::test
