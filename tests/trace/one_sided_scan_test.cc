// The one-sided scans that the wait-state analysis and the what-if replay share, so that both
// pair the same partners: MPI lock epochs (every one-sided record kind, and which epochs each
// opens, joins or closes) and OpenSHMEM lock holds and writes.
#include "trace/passive_epoch_scan.h"
#include "trace/shmem_sync_scan.h"

#include <string>
#include <vector>

#include <gtest/gtest.h>

namespace cw::trace {
namespace {

// "o0 j0" for a record that opened and joined epoch 0, "-" for one that concerned none.
std::string Steps(PassiveEpochScan& scan, const PassiveRecord& r) {
  std::string out;
  const bool joined = scan.Add(r, [&](uint32_t epoch, EpochStep step) {
    const char* name = step == EpochStep::kOpened ? "o" : step == EpochStep::kJoined ? "j" : "c";
    out += (out.empty() ? "" : " ") + std::string(name) + std::to_string(epoch);
  });
  EXPECT_EQ(joined, out.find('j') != std::string::npos) << out;
  return out.empty() ? "-" : out;
}

PassiveRecord Lock(EventKind kind, uint32_t window, uint32_t target, bool exclusive = true) {
  return PassiveRecord{kind, window, target, target == kNone, exclusive, 0};
}
PassiveRecord Transfer(EventKind kind, uint32_t window, uint32_t target, uint64_t id) {
  return PassiveRecord{kind, window, target, false, false, id};
}
PassiveRecord Completion(EventKind kind, uint32_t window, uint64_t id) {
  return PassiveRecord{kind, window, kNone, false, false, id};
}

TEST(PassiveEpochScanTest, EveryOneSidedRecordKind) {
  PassiveEpochScan scan;
  const uint32_t w = 7, other = 8;
  // A transfer outside every epoch (a fence epoch's) joins none, nor does its completion.
  EXPECT_EQ(Steps(scan, Transfer(EventKind::kRmaPut, w, 2, 1)), "-");
  EXPECT_EQ(Steps(scan, Completion(EventKind::kRmaOpCompleteBlocking, w, 1)), "-");
  // MPI_Win_lock on location 2: request opens epoch 0, acquire joins it.
  EXPECT_EQ(Steps(scan, Lock(EventKind::kRmaRequestLock, w, 2)), "o0 j0");
  EXPECT_EQ(Steps(scan, Lock(EventKind::kRmaAcquireLock, w, 2)), "j0");
  // Transfers to 2 join it, to 3 do not; every kind of completion of a transfer to 2 joins it.
  EXPECT_EQ(Steps(scan, Transfer(EventKind::kRmaPut, w, 2, 2)), "j0");
  EXPECT_EQ(Steps(scan, Transfer(EventKind::kRmaGet, w, 2, 3)), "j0");
  EXPECT_EQ(Steps(scan, Transfer(EventKind::kRmaAtomic, w, 2, 4)), "j0");
  EXPECT_EQ(Steps(scan, Transfer(EventKind::kRmaPut, w, 3, 5)), "-");
  EXPECT_EQ(Steps(scan, Completion(EventKind::kRmaOpTest, w, 2)), "j0");
  EXPECT_EQ(Steps(scan, Completion(EventKind::kRmaOpCompleteNonBlocking, w, 2)), "j0");
  EXPECT_EQ(Steps(scan, Completion(EventKind::kRmaOpCompleteRemote, w, 3)), "j0");
  EXPECT_EQ(Steps(scan, Completion(EventKind::kRmaOpCompleteBlocking, w, 4)), "j0");
  EXPECT_EQ(Steps(scan, Completion(EventKind::kRmaOpCompleteBlocking, w, 5)), "-");
  // A completion after the transfer's (non-test) completion, or of a transfer never seen, or on
  // another window: nothing.
  EXPECT_EQ(Steps(scan, Completion(EventKind::kRmaOpCompleteRemote, w, 2)), "-");
  EXPECT_EQ(Steps(scan, Completion(EventKind::kRmaOpCompleteBlocking, w, 99)), "-");
  EXPECT_EQ(Steps(scan, Completion(EventKind::kRmaOpCompleteBlocking, other, 3)), "-");
  // MPI_Win_lock_all (no rank) opens epoch 1 over every target: a transfer to 2 now joins both.
  EXPECT_EQ(Steps(scan, Lock(EventKind::kRmaRequestLock, w, kNone, false)), "o1 j1");
  EXPECT_EQ(Steps(scan, Transfer(EventKind::kRmaPut, w, 2, 6)), "j0 j1");
  EXPECT_EQ(Steps(scan, Transfer(EventKind::kRmaPut, w, 3, 7)), "j1");
  // MPI_Win_unlock of 2: joins and closes epoch 0; the transfer to 2 then joins only epoch 1.
  EXPECT_EQ(Steps(scan, Lock(EventKind::kRmaReleaseLock, w, 2)), "j0 c0");
  EXPECT_EQ(Steps(scan, Completion(EventKind::kRmaOpCompleteRemote, w, 6)), "j1");
  EXPECT_EQ(Steps(scan, Lock(EventKind::kRmaReleaseLock, w, kNone)), "j1 c1");
  // MPI_Win_lock on a rank outside the window (no location, not a lock_all) opens nothing; a
  // try-lock opens as a request does; a release of a lock never requested closes nothing.
  EXPECT_EQ(Steps(scan, PassiveRecord{EventKind::kRmaRequestLock, w, kNone, false, true, 0}), "-");
  EXPECT_EQ(Steps(scan, Lock(EventKind::kRmaTryLock, other, 4, false)), "o2 j2");
  EXPECT_EQ(Steps(scan, Lock(EventKind::kRmaReleaseLock, w, 4)), "-");
  // Records of other kinds are ignored.
  EXPECT_EQ(Steps(scan, Lock(EventKind::kRmaGroupSync, other, 4)), "-");

  ASSERT_EQ(scan.epochs().size(), 3u);
  EXPECT_EQ(scan.epochs()[0].target, 2u);
  EXPECT_TRUE(scan.epochs()[0].exclusive);
  EXPECT_EQ(scan.epochs()[1].target, kNone);
  EXPECT_FALSE(scan.epochs()[1].exclusive);
  EXPECT_EQ(scan.epochs()[2].window, other);
}

}  // namespace
}  // namespace cw::trace

namespace cw::trace {
namespace {

// The OpenSHMEM scan the analysis and the replay share: requested and unrequested holds, their
// releases, and which transfers are writes another PE could wait for.
TEST(ShmemSyncScanTest, HoldsAndWritesOfEveryRecordKind) {
  ShmemSyncScan scan(/*location=*/1);
  scan.RequestLock(5);                  // shmem_set_lock asks ...
  scan.AcquireLock(5, 10, 100);         // ... and takes it: requested
  scan.ReleaseLock(5, 101);             // shmem_clear_lock
  scan.AcquireLock(5, 20, 102);         // shmem_test_lock that got it: not requested
  scan.ReleaseLock(6, 103);             // a lock never held: nothing
  scan.AcquireLock(6, 30, 104);         // held to the end
  scan.Transfer(1, 2, 8, 31, 200);      // a put to PE 2 at 31: a write
  scan.Transfer(2, 2, 0, 32, 201);      // a fetch (nothing sent)
  scan.Transfer(3, 1, 8, 33, 202);      // to itself
  scan.Transfer(4, kNone, 8, 34, 203);  // to a rank outside the window
  scan.Transfer(5, 3, 4, 35, 204);      // an atomic to PE 3 at 35: a write
  scan.Complete(5, 40, 300);            // non-blocking, remote or blocking: the first completes it
  scan.Complete(5, 41, 301);            // already completed
  scan.Complete(1, 42, 302);
  scan.Complete(2, 43, 303);  // not a write

  ASSERT_EQ(scan.holds().size(), 3u);
  EXPECT_TRUE(scan.holds()[0].acquisition.requested);
  EXPECT_EQ(scan.holds()[0].release_ref, 101u);
  EXPECT_FALSE(scan.holds()[1].acquisition.requested);
  EXPECT_EQ(scan.holds()[1].acquire_ref, 102u);
  EXPECT_EQ(scan.holds()[1].release_ref, kNone);  // released by nothing the scan saw
  EXPECT_EQ(scan.holds()[2].acquisition.lock, 6u);
  EXPECT_EQ(scan.holds()[2].acquisition.location, 1u);
  ASSERT_EQ(scan.writes().size(), 2u);  // in the order they completed
  EXPECT_EQ(scan.writes()[0].write.target, 3u);
  EXPECT_EQ(scan.writes()[0].write.issued, 35u);
  EXPECT_EQ(scan.writes()[0].write.completed, 40u);
  EXPECT_EQ(scan.writes()[0].issue_ref, 204u);
  EXPECT_EQ(scan.writes()[1].write.target, 2u);
  EXPECT_EQ(scan.writes()[1].write.origin, 1u);
  EXPECT_EQ(scan.writes()[1].write.issued, 31u);
  EXPECT_EQ(scan.writes()[1].complete_ref, 302u);
}

}  // namespace
}  // namespace cw::trace
