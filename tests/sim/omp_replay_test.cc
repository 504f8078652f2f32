// The what-if replay of OpenMP threads on hand-built traces recorded as Score-P records OpenMP.
// One tick is one second. Locations: the ranks' masters first (rank r is location r), then each
// rank's other threads. The rules (sim/internal/engine_omp.cc), besides sim/replay.h's:
//   - a worker's team begin = max(its previous event', the master's fork') + the measured time
//     from whichever of the two was later to the team begin (its wake-up);
//   - an OpenMP barrier's Leave = the latest arrival' of the team's threads + the measured cost
//     after the last arrival;
//   - a lock acquisition = max(its previous event', the previous holder's release') + the
//     measured time after whichever was later.
#include <gtest/gtest.h>

#include <functional>
#include <string>

#include "sim/replay.h"
#include "testing/scenario.h"
#include "tests/sim/replay_fixture.h"

namespace cw::sim {
namespace {

using testing::RankScript;
using testing::Scenario;

// One process, two threads, two teams. Master (location 0): forks at 1, works 1-3, waits at the
// implicit barrier 3-9; joins at 9, "serial" 9-11, forks at 11, works 11-13, barrier 13-15,
// joins at 15, main ends at 16. Worker (location 1): woken at 2 (1 after the fork), "work" 2-8,
// barrier 8-9; second team woken at 12, "work" 12-14, barrier 14-15. Both barriers' last
// arrival is the worker (8, 14); each thread's barrier costs 1 after it.
//   master events: 0 main, 1 Fork, 2 TeamBegin, 3 parallel, 4 work, 5 /work, 6 barrier,
//     7 /barrier, 8 /parallel, 9 TeamEnd, 10 Join, 11 serial, 12 /serial, 13 Fork, 14 TeamBegin,
//     15 parallel, 16 work, 17 /work, 18 barrier, 19 /barrier, 20 /parallel, 21 TeamEnd,
//     22 Join, 23 /main
//   worker events: 0 TeamBegin, 1 parallel, 2 work, 3 /work, 4 barrier, 5 /barrier,
//     6 /parallel, 7 TeamEnd, 8 TeamBegin, 9 parallel, 10 work, 11 /work, 12 barrier,
//     13 /barrier, 14 /parallel, 15 TeamEnd
Scenario TwoTeams() {
  Scenario s(1);
  RankScript& master = s.thread(0, 0);
  RankScript& worker = s.thread(0, 1);
  master.Enter(0, "main").Fork(1, 2);
  master.TeamMember(1, 9, [&] { master.Call(1, 3, "work").Call(3, 9, "!$omp implicit barrier"); });
  master.Join(9).Call(9, 11, "serial").Fork(11, 2);
  master.TeamMember(11, 15,
                    [&] { master.Call(11, 13, "work").Call(13, 15, "!$omp implicit barrier"); });
  master.Join(15).Leave(16, "main");
  worker.TeamMember(2, 9, [&] { worker.Call(2, 8, "work").Call(8, 9, "!$omp implicit barrier"); });
  worker.TeamMember(12, 15,
                    [&] { worker.Call(12, 14, "work").Call(14, 15, "!$omp implicit barrier"); });
  return s;
}

TEST(OmpReplayTest, NothingChangedKeepsEveryThreadsTimes) {
  Replayed r = Replay(TwoTeams());
  ExpectIdentity(r);
  EXPECT_EQ(r.result.stats.omp_team_starts, 2u);       // the worker's two team begins
  EXPECT_EQ(r.result.stats.omp_barrier_arrivals, 4u);  // two threads at two barriers
  EXPECT_EQ(r.result.stats.omp_lock_handovers, 0u);
}

TEST(OmpReplayTest, FasterWorkMovesTheBarriersAndTheSecondTeam) {
  // work x0.5 on both threads. Team 1: the master works 1-2 and arrives at 2; the worker begins
  // at fork 1 + its wake-up 1 = 2, works 2-5 and arrives last, at 5: both leave at 5 + 1 = 6.
  // The master joins at 6, "serial" 6-8, forks at 8, works 8-9. The worker's second team begin:
  // measured, its previous event (TeamEnd at 9) came before the fork (11), so it is ready at
  // the fork' 8 and begins 12 - 11 = 1 later, at 9; works 9-10, arrives last at 10: both leave
  // at 11; main ends at 12 (measured 16).
  Replayed r = Replay(TwoTeams(), ComputeScaled("work=0.5"));
  EXPECT_EQ(r.Time(1, 0), 2u);   // worker's first team begin
  EXPECT_EQ(r.Time(1, 4), 5u);   // worker enters the barrier
  EXPECT_EQ(r.Time(0, 7), 6u);   // master leaves it
  EXPECT_EQ(r.Time(1, 5), 6u);   // worker leaves it
  EXPECT_EQ(r.Time(0, 13), 8u);  // second fork
  EXPECT_EQ(r.Time(1, 8), 9u);   // worker's second team begin
  EXPECT_EQ(r.Time(0, 19), 11u);
  EXPECT_EQ(r.Time(1, 13), 11u);
  EXPECT_EQ(r.End(0), 12u);
  EXPECT_EQ(r.End(1), 11u);
}

TEST(OmpReplayTest, ALaterForkDelaysTheWorkersTeamBegin) {
  // serial x2 on the master: 9-13, the second fork at 13. The worker, idle since 9, begins at
  // 13 + 1 = 14 (not at its measured 12), works 14-16 and arrives last at 16; both leave at 17,
  // main ends at 18: the whole 2 s reach the end, where the worker's own clock would have hidden
  // one of them behind the idle time.
  Replayed r = Replay(TwoTeams(), ComputeScaled("serial=2"));
  EXPECT_EQ(r.Time(0, 13), 13u);
  EXPECT_EQ(r.Time(1, 8), 14u);
  EXPECT_EQ(r.Time(1, 12), 16u);
  EXPECT_EQ(r.Time(0, 19), 17u);
  EXPECT_EQ(r.End(0), 18u);
}

TEST(OmpReplayTest, TheNetworkModelLeavesThreadsAlone) {
  // An ideal network and a slower one: OpenMP's synchronisation is in shared memory.
  Perturbation ideal;
  ideal.network.ideal = true;
  ExpectIdentity(Replay(TwoTeams(), ideal));
  Perturbation slow;
  slow.network.latency = 3;
  slow.network.base_latency = 1;
  ExpectIdentity(Replay(TwoTeams(), slow));
}

// One team; both threads enter the same critical section (lock 7). The master acquires it at 1
// (order 0), works 1-5 and releases it at 5; the worker (woken at 2) enters the critical section
// at 2, acquires it at 5 (order 1) after the master's release, works 5-7, releases at 7. Both
// meet at the implicit barrier (master 5-8, worker 7-8).
//   master events: 0 main, 1 Fork, 2 TeamBegin, 3 parallel, 4 critical, 5 Acquire, 6 work,
//     7 /work, 8 Release, 9 /critical, 10 barrier, 11 /barrier, 12 /parallel, 13 TeamEnd,
//     14 Join, 15 /main
//   worker events: 0 TeamBegin, 1 parallel, 2 critical, 3 Acquire, 4 work, 5 /work, 6 Release,
//     7 /critical, 8 barrier, 9 /barrier, 10 /parallel, 11 TeamEnd
Scenario Contention() {
  Scenario s(1);
  RankScript& master = s.thread(0, 0);
  RankScript& worker = s.thread(0, 1);
  master.Enter(0, "main").Fork(1, 2);
  master.TeamMember(1, 8, [&] {
    master.Enter(1, "!$omp critical").AcquireLock(1, 7, 0).Call(1, 5, "work");
    master.ReleaseLock(5, 7, 0).Leave(5, "!$omp critical").Call(5, 8, "!$omp implicit barrier");
  });
  master.Join(8).Leave(9, "main");
  worker.TeamMember(2, 8, [&] {
    worker.Enter(2, "!$omp critical").AcquireLock(5, 7, 1).Call(5, 7, "work");
    worker.ReleaseLock(7, 7, 1).Leave(7, "!$omp critical").Call(7, 8, "!$omp implicit barrier");
  });
  return s;
}

TEST(OmpReplayTest, ALockGoesToItsNextHolderWhenTheHolderReleasesIt) {
  ExpectIdentity(Replay(Contention()));
  // work x0.5: the master holds the lock 1-3. The worker, in the critical section since 2, was
  // measured ready at the release (5, after its Enter at 2) and acquired it 0 after: now at
  // max(2, 3) + 0 = 3; works 3-4, releases at 4 and arrives last at the barrier, at 4: both
  // leave at 4 + 1 = 5, main ends at 6 (measured 9). Its own clock would have kept the 3 s it
  // waited in the critical section.
  Replayed r = Replay(Contention(), ComputeScaled("work=0.5"));
  EXPECT_EQ(r.result.stats.omp_lock_handovers, 1u);
  EXPECT_EQ(r.Time(0, 8), 3u);  // master's release
  EXPECT_EQ(r.Time(1, 3), 3u);  // worker's acquisition
  EXPECT_EQ(r.Time(1, 6), 4u);  // worker's release
  EXPECT_EQ(r.Time(0, 11), 5u);
  EXPECT_EQ(r.Time(1, 9), 5u);
  EXPECT_EQ(r.End(0), 6u);
}

// Rank 0's master forks a team of two at 1: it prepares 1-3 and waits at the implicit barrier
// 3-8 for its worker (location 2), which solves 1-7. Joined at 8, rank 0 sends to rank 1 (8-9)
// and enters MPI_Finalize at 9. Rank 1 works 1-2, receives 2-9 (ready at the send's 8, 1 after
// it), works 9-11 and enters MPI_Finalize at 11; both leave it at 12 (1 after the last entry).
//   rank 1 events: 0 main, 1 MPI_Init, 2 /MPI_Init, 3 serial, 4 /serial, 5 MPI_Recv, 6 recv,
//     7 /MPI_Recv, 8 post, 9 /post, 10 MPI_Finalize, 11 /MPI_Finalize, 12 /main
Scenario Hybrid() {
  Scenario s(2);
  RankScript& master = s.thread(0, 0);
  RankScript& worker = s.thread(0, 1);
  master.Enter(0, "main").Call(0, 1, "MPI_Init").Fork(1, 2);
  master.TeamMember(1, 8, [&] { master.Call(1, 3, "prep").Call(3, 8, "!$omp implicit barrier"); });
  master.Join(8).Send(8, 9, 1, 0, 8).Call(9, 12, "MPI_Finalize").Leave(12, "main");
  worker.TeamMember(1, 8, [&] { worker.Call(1, 7, "solve").Call(7, 8, "!$omp implicit barrier"); });
  RankScript& other = s.rank(1);
  other.Enter(0, "main").Call(0, 1, "MPI_Init").Call(1, 2, "serial").Recv(2, 9, 0, 0, 8);
  other.Call(9, 11, "post").Call(11, 12, "MPI_Finalize").Leave(12, "main");
  return s;
}

TEST(OmpReplayTest, AWorkersComputeScaleMovesItsTeamAndTheMastersMessages) {
  ExpectIdentity(Replay(Hybrid()));
  // solve x0.5 (the worker's call path alone): it solves 1-4 and arrives last at 4; both
  // threads leave the barrier at 5. Rank 0 sends 5-6 and enters MPI_Finalize at 6. Rank 1's
  // receive is ready at the send's 5 and takes its 1: it leaves at 6, works 6-8 and enters
  // MPI_Finalize last, at 8: both leave it at 9 (measured 12).
  Replayed r = Replay(Hybrid(), ComputeScaled("solve=0.5"));
  // Master events: 0 main, 1 MPI_Init, 2 /MPI_Init, 3 Fork, 4 TeamBegin, 5 parallel, 6 prep,
  // 7 /prep, 8 barrier, 9 /barrier; worker: 0 TeamBegin, 1 parallel, 2 solve, 3 /solve,
  // 4 barrier.
  EXPECT_EQ(r.Time(2, 4), 4u);  // worker enters the barrier
  EXPECT_EQ(r.Time(0, 8), 3u);  // master enters it (prep unchanged)
  EXPECT_EQ(r.Time(0, 9), 5u);  // and leaves it
  EXPECT_EQ(r.Time(1, 7), 6u);
  EXPECT_EQ(r.End(1), 9u);
  EXPECT_EQ(r.End(0), 9u);
  EXPECT_EQ(r.result.predicted_end, 9u);
}

}  // namespace
}  // namespace cw::sim
