#include "tests/distributed/job_scenarios.h"

#include "testing/scenario.h"
#include "tests/common/analysis_fixture.h"

namespace cw::test {
namespace {

using testing::RankScript;
using testing::Scenario;

// Rank 0 sends twice to rank 1, which receives once (one unmatched send); rank 2 waits for a
// message from rank 3 that never comes (one unmatched receive); rank 3 cancels an Isend.
std::string Unmatched(const std::string& dir) {
  Scenario s(4);
  s.rank(0).Enter(0, "main").Send(1, 2, 1, 5, 8).Send(3, 4, 1, 5, 8).Leave(20, "main");
  s.rank(1).Enter(0, "main").Recv(1, 5, 0, 5, 8).Send(6, 7, 3, 1, 4).Leave(20, "main");
  s.rank(2).Enter(0, "main").Recv(1, 15, 3, 9, 8).Leave(20, "main");
  s.rank(3)
      .Enter(0, "main")
      .Isend(1, 2, 2, 7, 8, 77)
      .RequestCancelledEvent(3, 77)
      .Recv(10, 11, 1, 1, 4)
      .Leave(20, "main");
  return s.WriteOrDie(dir);
}

// Rank 2's events end after its first barrier (no Leave of main, no second barrier, no send);
// the others go on: a second barrier without it and a receive from it that never matches.
std::string EndsEarly(const std::string& dir) {
  Scenario s(3);
  for (int r = 0; r < 3; ++r) {
    s.rank(r).Enter(0, "main").Collective(1, 5 + static_cast<uint64_t>(r), "MPI_Barrier",
                                          OTF2_COLLECTIVE_OP_BARRIER, 0, 0);
  }
  s.rank(0)
      .Collective(10, 12, "MPI_Barrier", OTF2_COLLECTIVE_OP_BARRIER, 0, 0)
      .Recv(13, 30, 2, 0, 8);
  s.rank(0).Leave(40, "main");
  s.rank(1).Collective(11, 12, "MPI_Barrier", OTF2_COLLECTIVE_OP_BARRIER, 0, 0).Leave(40, "main");
  return s.WriteOrDie(dir);
}

// One-sided epochs across processes: post-start-complete-wait between ranks 0 and 1, rank 2 and
// 3 contending for an exclusive lock on rank 0, and a put from rank 3 into rank 1 before a fence.
std::string OneSided(const std::string& dir) {
  Scenario s(4);
  const uint32_t win = s.AddWindow(0);
  const uint32_t origins = s.AddGroup({1}), targets = s.AddGroup({0});
  s.rank(0)
      .Enter(0, "main")
      .RmaCollective(1, 2, "MPI_Win_fence", OTF2_COLLECTIVE_OP_BARRIER, win)
      .RmaGroupSync(6, 7, "MPI_Win_post", win, origins)
      .RmaGroupSync(7, 12, "MPI_Win_wait", win, origins)
      .RmaCollective(20, 30, "MPI_Win_fence", OTF2_COLLECTIVE_OP_BARRIER, win)
      .Leave(40, "main");
  s.rank(1)
      .Enter(0, "main")
      .RmaCollective(1, 2, "MPI_Win_fence", OTF2_COLLECTIVE_OP_BARRIER, win)
      .RmaGroupSync(2, 8, "MPI_Win_start", win, targets)
      .RmaTransfer(8, 9, "MPI_Put", win, 0, 4, 1)
      .RmaGroupSync(9, 10, "MPI_Win_complete", win, targets,
                    [&](RankScript& r) { r.RmaOpCompleteEvent(10, win, 1); })
      .RmaCollective(15, 30, "MPI_Win_fence", OTF2_COLLECTIVE_OP_BARRIER, win)
      .Leave(40, "main");
  s.rank(2)
      .Enter(0, "main")
      .RmaCollective(1, 2, "MPI_Win_fence", OTF2_COLLECTIVE_OP_BARRIER, win)
      .RmaLock(3, 4, "MPI_Win_lock", win, 0, 2, true)
      .RmaTransfer(4, 5, "MPI_Put", win, 0, 4, 2)
      .RmaUnlock(8, 9, "MPI_Win_unlock", win, 0, 2,
                 [&](RankScript& r) { r.RmaOpCompleteEvent(9, win, 2); })
      .RmaCollective(21, 30, "MPI_Win_fence", OTF2_COLLECTIVE_OP_BARRIER, win)
      .Leave(40, "main");
  s.rank(3)
      .Enter(0, "main")
      .RmaCollective(1, 2, "MPI_Win_fence", OTF2_COLLECTIVE_OP_BARRIER, win)
      .RmaLock(5, 10, "MPI_Win_lock", win, 0, 3, true)
      .RmaTransfer(10, 11, "MPI_Put", win, 0, 4, 3)
      .RmaUnlock(11, 12, "MPI_Win_unlock", win, 0, 3)
      .RmaTransfer(24, 25, "MPI_Put", win, 1, 4, 4)
      .RmaCollective(26, 30, "MPI_Win_fence", OTF2_COLLECTIVE_OP_BARRIER, win)
      .Leave(40, "main");
  return s.WriteOrDie(dir);
}

// Timestamps that contradict the order of the calls: in each pair (0 and 3, 1 and 2, each pair
// split between analysis ranks from K = 2 on) both receive first and send afterwards, and each
// receive waits for the other's later send. The delay analysis's backward pass stalls once per
// pair and gives up one edge; the critical path comes back to a wait it followed.
std::string Contradictory(const std::string& dir) {
  Scenario s(4);
  const int partner[4] = {3, 2, 1, 0};
  for (int r = 0; r < 4; ++r) {
    const uint64_t u = static_cast<uint64_t>(r);
    const int p = partner[r];
    s.rank(r)
        .Enter(0, "main")
        .Recv(1 + u, 5 + u, p, 1, 8)
        .Send(10 + u, 11 + u, p, 1, 8)
        .Leave(20, "main");
  }
  return s.WriteOrDie(dir);
}

// Rank 0 enters an allreduce last, having waited in a receive from rank 5 before it, so the
// waits of ranks 3 and 4 for it (split from it from K = 2 on, on one analysis rank) share rank
// 0's interval, in which rank 0 waited: the delayer's interval travels to the waiters' rank once,
// and the waiters' rank computes the indirect shares. And the timestamps contradict themselves:
// rank 4 sends to rank 5 after the allreduce what rank 5 received before it, and rank 5 then sent
// to rank 0. The backward pass stalls (0 waits for 4's allreduce wait, 4 for 5's receive, 5 for
// 0's receive) and gives up rank 0's input, the wait of rank 4: its delayer, without the
// waiter's time, then explains it otherwise than the waiter would, and says so after the pass.
std::string SharedDelayer(const std::string& dir) {
  Scenario s(6);
  for (int r = 0; r < 6; ++r) s.rank(r).Enter(0, "main");
  s.rank(0).Recv(3, 10, 5, 1, 8);
  s.rank(5).Recv(2, 8, 4, 2, 8).Send(9, 10, 0, 1, 8);
  for (int r = 0; r < 6; ++r) {
    s.rank(r).Collective(r == 0 ? 12 : 11, 14, "MPI_Allreduce", OTF2_COLLECTIVE_OP_ALLREDUCE, 8, 8);
  }
  s.rank(4).Send(20, 21, 5, 2, 8);
  for (int r = 0; r < 6; ++r) s.rank(r).Leave(30, "main");
  return s.WriteOrDie(dir);
}

// MPI_Alltoallv whose members name their senders (causeway::senders), twice: rank 1 waits for
// rank 0 (entered last) in the first and rank 3 for rank 2 in the second, so the senders cross
// analysis ranks from K = 2 on and repeat from one member to the next on the wire.
std::string SendersWaits(const std::string& dir) {
  Scenario s(4);
  const uint32_t from_0 = s.AddGroup({0}), from_1 = s.AddGroup({1});
  const uint32_t from_2 = s.AddGroup({2}), from_3 = s.AddGroup({3});
  const uint32_t first[4] = {from_1, from_0, from_3, from_2};
  for (int r = 0; r < 4; ++r) {
    s.rank(r)
        .Enter(0, "main")
        .VCollective(r == 0 ? 8 : 2, 10, "MPI_Alltoallv", OTF2_COLLECTIVE_OP_ALLTOALLV, 8, 8,
                     first[r])
        .VCollective(r == 2 ? 15 : 11, 16, "MPI_Alltoallv", OTF2_COLLECTIVE_OP_ALLTOALLV, 8, 8,
                     r == 3 ? from_2 : first[r])
        .Leave(20, "main");
  }
  return s.WriteOrDie(dir);
}

// MPI_Ialltoallv whose members name their senders where they start it, completed in MPI_Wait:
// rank 1 waits from 3 for rank 0's start at 10, rank 3 from 3 for rank 2's at 6. Rank 0 then
// starts a second one before completing both in the reverse order, so that members cross
// analysis ranks, and their starts and completions arrive out of order, from K = 2 on.
std::string NonBlockingSendersWaits(const std::string& dir) {
  Scenario s(4);
  const uint32_t senders[4] = {s.AddGroup({1}), s.AddGroup({0, 1}), s.AddGroup({3}),
                               s.AddGroup({2})};
  const uint64_t start[4] = {10, 2, 6, 2}, wait[4] = {12, 3, 7, 3}, end[4] = {14, 13, 12, 12};
  const OTF2_CollectiveOp op = OTF2_COLLECTIVE_OP_ALLTOALLV;
  auto complete = [&](RankScript& r, uint64_t enter, uint64_t leave, uint64_t request) {
    r.Complete(enter, leave, "MPI_Wait", [&](RankScript& w) {
      w.NbcCompleteEvent(leave, op, 0, OTF2_UNDEFINED_UINT32, 8, 8, request);
    });
  };
  for (int r = 0; r < 4; ++r) {
    RankScript& rank = s.rank(r).Enter(0, "main");
    rank.Enter(start[r], "MPI_Ialltoallv")
        .NbcRequestEvent(start[r], 1, senders[r])
        .Leave(start[r] + 1, "MPI_Ialltoallv");
    rank.Enter(start[r] + 1, "MPI_Ialltoallv")
        .NbcRequestEvent(start[r] + 1, 2, senders[r])
        .Leave(start[r] + 2, "MPI_Ialltoallv");
    complete(rank, wait[r] + 1, end[r], 2);
    complete(rank, end[r], end[r] + 1, 1);
    rank.Leave(20, "main");
  }
  return s.WriteOrDie(dir);
}

// Two processes of two threads (masters 0 and 1, workers 2 and 3). On each, one team: both
// threads enter a critical section at 1, the master holds it 1-3, the worker gets it at 3 and
// works to 8 (rank 0) or 5 (rank 1); the master waits at the implicit barrier for it. Rank 0
// joins at 9 and sends to rank 1, which joined at 6 and waits in its receive (a Late Sender
// behind rank 0's barrier wait). A process's threads stay on one analysis rank; the Late Sender
// crosses ranks from K = 2 on.
std::string Hybrid(const std::string& dir) {
  Scenario s(2);
  for (int r = 0; r < 2; ++r) {
    const uint64_t end = r == 0 ? 9 : 6;     // the team's end
    const uint64_t worked = r == 0 ? 8 : 5;  // the worker's arrival at the barrier
    RankScript& master = s.thread(r, 0);
    RankScript& worker = s.thread(r, 1);
    master.Enter(0, "main").Call(0, 1, "MPI_Init").Fork(1, 2).TeamBegin(1);
    master.Enter(1, "!$omp parallel").Enter(1, "!$omp critical").AcquireLock(1, 7, 1);
    master.Call(1, 3, "work").ReleaseLock(3, 7, 1).Leave(3, "!$omp critical");
    master.Call(3, end, "!$omp implicit barrier").Leave(end, "!$omp parallel").TeamEnd(end);
    master.Join(end);
    if (r == 0) {
      master.Send(9, 10, 1, 0, 8).Call(10, 12, "MPI_Finalize");
    } else {
      master.Recv(6, 11, 0, 0, 8).Call(11, 12, "MPI_Finalize");
    }
    master.Leave(12, "main");
    worker.TeamBegin(1).Enter(1, "!$omp parallel").Enter(1, "!$omp critical");
    worker.AcquireLock(3, 7, 2).Call(3, worked, "work").ReleaseLock(worked, 7, 2);
    worker.Leave(worked, "!$omp critical").Call(worked, end, "!$omp implicit barrier");
    worker.Leave(end, "!$omp parallel").TeamEnd(end);
  }
  return s.WriteOrDie(dir);
}

}  // namespace

std::string WriteMissingCollectiveTrace(const std::string& dir,
                                        const std::vector<std::pair<int, std::string>>& endings) {
  Scenario s(4);
  for (const auto& [rank, how] : endings) s.set_rank_ending(rank, how);
  const uint32_t win = s.AddWindow(0);
  for (int r = 0; r < 4; ++r) {
    const uint64_t u = static_cast<uint64_t>(r);
    RankScript& rank = s.rank(r);
    rank.Enter(0, "main").Collective(1 + u, 10, "MPI_Barrier", OTF2_COLLECTIVE_OP_BARRIER, 0, 0);
    if (r != 3) rank.Collective(11, 12 + u, "MPI_Allreduce", OTF2_COLLECTIVE_OP_ALLREDUCE, 8, 8);
    rank.Collective(20 + u, 25, "MPI_Bcast", OTF2_COLLECTIVE_OP_BCAST, r == 2 ? 8 : 0,
                    r == 2 ? 0 : 8, 2);
    rank.Collective(30, 31 + u, "MPI_Reduce", OTF2_COLLECTIVE_OP_REDUCE, 8, r == 1 ? 32 : 0, 1);
    rank.RmaCollective(32 + u, 36, "MPI_Win_fence", OTF2_COLLECTIVE_OP_BARRIER, win);
    if (r != 0) rank.RmaCollective(37, 38 + u, "MPI_Win_fence", OTF2_COLLECTIVE_OP_BARRIER, win);
    rank.Leave(50, "main");
  }
  return s.WriteOrDie(dir);
}

std::vector<std::pair<std::string, std::string>> WriteJobScenarios() {
  return {
      {"unmatched", Unmatched(testing::MakeTempDir("job-unmatched"))},
      {"missing_collective", WriteMissingCollectiveTrace(testing::MakeTempDir("job-missing"))},
      {"ends_early", EndsEarly(testing::MakeTempDir("job-ends-early"))},
      {"one_sided", OneSided(testing::MakeTempDir("job-one-sided"))},
      {"contradictory", Contradictory(testing::MakeTempDir("job-contradictory"))},
      {"shared_delayer", SharedDelayer(testing::MakeTempDir("job-shared-delayer"))},
      {"senders_waits", SendersWaits(testing::MakeTempDir("job-senders"))},
      {"nonblocking_senders", NonBlockingSendersWaits(testing::MakeTempDir("job-nbc-senders"))},
      {"hybrid", Hybrid(testing::MakeTempDir("job-hybrid"))},
      // Rank 1's slow MPI_Put competed with rank 2's for their target, and rank 1 ends last,
      // so that the finding saves time: the analysis rank that holds rank 1 must learn rank
      // 2's transfers, whichever ranks hold rank 2 and the target.
      {"competing_transfers", CompetingPuts(20).WriteOrDie(testing::MakeTempDir("job-competing"))}};
}

}  // namespace cw::test
