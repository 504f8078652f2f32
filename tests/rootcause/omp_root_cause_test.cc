// Delay costs and the critical path through OpenMP threads and MPI ranks together, on hand-built
// hybrid traces recorded as Score-P records OpenMP (see waitstates/omp_patterns_test.cc). One
// tick is one second unless a scenario says otherwise. Locations: the ranks' masters first (rank
// r is location r), then each rank's threads in order.
//
// An OpenMP barrier wait is explained as an MPI barrier's is (Scalasca's Delay.OMP): over the
// interval since the threads' previous OpenMP synchronisation (the previous barrier of the team,
// or the team's start: the master's fork, a worker's team begin), the last thread's excess time
// per call path against the waiter, plus the last thread's own waits there, scale s = ω / (δ̂ +
// ω̂). A worker's critical path ends where its team started and goes on at its master's fork.
#include <gtest/gtest.h>

#include <functional>

#include "tests/common/analysis_fixture.h"
#include "tests/common/root_cause_invariants.h"

namespace cw::test {
namespace {

using testing::RankScript;
using testing::Scenario;

constexpr double kOmpEps = 1e-12;

// Rank 0 (master 0, worker 2) forks a team of two at 1 (the worker's team begins at
// 1 + `wake`): the master works 1-3, the worker `wake`-7; both meet at the loop's implicit
// barrier (master 3-8, worker 7-8); joined at 8. Then rank 0 sends to rank 1 (8-9) and enters
// MPI_Finalize at 9. Rank 1 works 1-2 in serial, receives 2-9 (a Late Sender of 8 - 2 = 6), works
// 9-11 in post and enters MPI_Finalize last, at 11.
Scenario Hybrid(uint64_t wake = 0) {
  Scenario s(2);
  RankScript& master = s.thread(0, 0);
  RankScript& worker = s.thread(0, 1);
  master.Enter(0, "main").Call(0, 1, "MPI_Init").Fork(1, 2);
  master.TeamMember(1, 8, [&] { master.Call(1, 3, "work").Call(3, 8, "!$omp implicit barrier"); });
  master.Join(8).Send(8, 9, 1, 0, 8).Call(9, 12, "MPI_Finalize").Leave(12, "main");
  worker.TeamMember(1 + wake, 8,
                    [&] { worker.Call(1 + wake, 7, "work").Call(7, 8, "!$omp implicit barrier"); });
  RankScript& other = s.rank(1);
  other.Enter(0, "main").Call(0, 1, "MPI_Init").Call(1, 2, "serial").Recv(2, 9, 0, 0, 8);
  other.Call(9, 11, "post").Call(11, 12, "MPI_Finalize").Leave(12, "main");
  return s;
}

TEST(OmpRootCauseTest, TheLastThreadsExcessCausesTheBarrierWaitAndTheLateSenderBeyondIt) {
  const Analysis a = AnalyzeScenario(Hybrid());
  ExpectRootCauseInvariants(a);
  const std::string work = "main/!$omp parallel/work";
  const std::string barrier = "main/!$omp parallel/!$omp implicit barrier";
  // The master waits 7 - 3 = 4 at the barrier for the worker. Since the team's start (1 on
  // both) the worker worked 6, the master 2: excess 4 in work, no waiting; s = 4 / 4.
  EXPECT_EQ(a.Value("omp_ibarrier_wait", barrier, 0), 4.0);
  EXPECT_NEAR(a.Value("delay_ompbarrier", work, 2), 4.0, kOmpEps);
  EXPECT_NEAR(a.Total("delay_ompbarrier"), 4.0, kOmpEps);
  EXPECT_NEAR(a.Total("delay_ompbarrier_longterm"), 0.0, kOmpEps);
  // Rank 1 waits 6 in MPI_Recv for rank 0's Send (entered at 8). Since both left MPI_Init at 1,
  // rank 0 spent work 2 and the barrier's 1 s after its wait, rank 1 serial 1: excess δ̂ = 2 +
  // 1 = 3, and rank 0 waited ω̂ = 4 at the barrier. s = 6 / (3 + 4): short-term 2 s and 1 s
  // on rank 0, and the barrier wait's share 4 s travels on to its cause, the worker's work
  // (its whole excess there, s = 1): long-term 24 / 7 on the worker.
  EXPECT_NEAR(a.Value("delay_latesender", work, 0), 2.0 * 6 / 7, kOmpEps);
  EXPECT_NEAR(a.Value("delay_latesender", barrier, 0), 1.0 * 6 / 7, kOmpEps);
  EXPECT_NEAR(a.Value("delay_latesender_longterm", work, 2), 4.0 * 6 / 7, kOmpEps);
  EXPECT_NEAR(a.Total("delay_latesender") + a.Total("delay_latesender_longterm"), 6.0, kOmpEps);
  // OpenMP's waits are not classified (as Scalasca); the Late Sender is indirect in the share
  // of the barrier wait that caused it.
  EXPECT_NEAR(a.Value("mpi_wait_indirect_latesender", "main/MPI_Recv", 1), 4.0 * 6 / 7, kOmpEps);

  // The path, backwards from rank 1's MPI_Finalize at 11: post 9-11, the Recv's part after its
  // wait 8-9, rank 0 before its Send: the barrier's part after its wait 7-8, to the worker at
  // its barrier: work 1-7, back to its team's start at 1 and on at the master's fork at 1:
  // MPI_Init 0-1. 2 + 1 + 1 + 6 + 1 = 11, the window 0-11.
  const analysis::CriticalPathResult& cp = *a.result.critical_path;
  EXPECT_EQ(cp.length, 11);
  EXPECT_EQ(cp.untracked, 0);
  EXPECT_EQ(PathLocations(a), (std::vector<uint32_t>{0, 2, 0, 1}));
  EXPECT_EQ(a.Value("critical_path", "main/MPI_Init", 0), 1.0);
  EXPECT_EQ(a.Value("critical_path", work, 2), 6.0);
  EXPECT_EQ(a.Value("critical_path", work, 0), 0.0);
  EXPECT_EQ(a.Value("critical_path", barrier, 0), 1.0);
  EXPECT_EQ(a.Value("critical_path", "main/MPI_Recv", 1), 1.0);
  EXPECT_EQ(a.Value("critical_path", "main/post", 1), 2.0);
}

TEST(OmpRootCauseTest, AWorkersPathGoesOnAtItsMastersFork) {
  // The worker's team begins 2 s after the fork (at 3). Woken that late, it spent those 2 s in
  // the parallel region (as omp_fork counts them), so its interval counts from the fork as the
  // master's does: region 2 and work 4 against the master's work 2. Excess: region 2, work 2;
  // δ̂ = 4, s = 4 / 4.
  const Analysis a = AnalyzeScenario(Hybrid(/*wake=*/2));
  ExpectRootCauseInvariants(a);
  const std::string region = "main/!$omp parallel";
  const std::string work = region + "/work";
  EXPECT_NEAR(a.Value("delay_ompbarrier", work, 2), 2.0, kOmpEps);
  EXPECT_NEAR(a.Value("delay_ompbarrier", region, 2), 2.0, kOmpEps);
  EXPECT_EQ(a.Value("omp_fork", region, 2), 2.0);
  // The path reaches the worker's team begin at 3 with its wake-up, and goes on at the fork at
  // 1: post 2, Recv 1, barrier 1, work 4, region 2, MPI_Init 1 = 11, the window.
  const analysis::CriticalPathResult& cp = *a.result.critical_path;
  EXPECT_EQ(a.Value("critical_path", work, 2), 4.0);
  EXPECT_EQ(a.Value("critical_path", region, 2), 2.0);
  EXPECT_EQ(cp.untracked, 0);
  EXPECT_EQ(cp.length, cp.window.length());
  EXPECT_EQ(PathLocations(a), (std::vector<uint32_t>{0, 2, 0, 1}));
}

// One process, two teams forked in main. Team A (1-4): the master works 1-2 and waits at the
// barrier 2-4 for the worker (work 1-3, barrier 3-4). The master works alone in serial 4-7.
// Team B (7-11), by default: the master works 7-10 (barrier 10-11), the worker 7-8 and waits at
// the barrier 8-11, 10 - 8 = 2, for the master. The parameters move team B's work: when the
// master's ends, when the worker's team begins (woken after the fork at 7) and its work ends.
Scenario TwoTeams(uint64_t master_work_end = 10, uint64_t worker_begin = 7,
                  uint64_t worker_work_end = 8) {
  Scenario s(1);
  RankScript& master = s.thread(0, 0);
  RankScript& worker = s.thread(0, 1);
  master.Enter(0, "main").Fork(1, 2);
  master.TeamMember(1, 4, [&] { master.Call(1, 2, "work").Call(2, 4, "!$omp implicit barrier"); });
  master.Join(4).Call(4, 7, "serial").Fork(7, 2);
  master.TeamMember(7, 11, [&] {
    master.Call(7, master_work_end, "work").Call(master_work_end, 11, "!$omp implicit barrier");
  });
  master.Join(11).Leave(12, "main");
  worker.TeamMember(1, 4, [&] { worker.Call(1, 3, "work").Call(3, 4, "!$omp implicit barrier"); });
  worker.TeamMember(worker_begin, 11, [&] {
    worker.Call(worker_begin, worker_work_end, "work")
        .Call(worker_work_end, 11, "!$omp implicit barrier");
  });
  return s;
}

TEST(OmpRootCauseTest, ATeamsBarriersCountFromItsFork) {
  const Analysis a = AnalyzeScenario(TwoTeams());
  ExpectRootCauseInvariants(a);
  const std::string work = "main/!$omp parallel/work";
  // Team B's wait counts from team B's start: the master's work 3 against the worker's 1, all
  // of its 2 s on the master's work. (From team A's barrier on, the master's serial 3 s would
  // take 2 * 3 / 5 of it.) Team A's wait (3 - 2 = 1) is the worker's excess work, 2 - 1.
  EXPECT_NEAR(a.Value("delay_ompbarrier", work, 0), 2.0, kOmpEps);
  EXPECT_NEAR(a.Value("delay_ompbarrier", "main/serial", 0), 0.0, kOmpEps);
  EXPECT_NEAR(a.Value("delay_ompbarrier", work, 1), 1.0, kOmpEps);
  // The path, backwards from 12 on the master: main 11-12, team B's barrier 10-11 (it waited
  // nowhere), work 7-10, serial 4-7, team A's barrier after its wait 3-4; the worker: work 1-3
  // from its team's start; the master again before its fork: main 0-1. 12 s, the window.
  EXPECT_EQ(a.result.critical_path->length, 12);
  EXPECT_EQ(PathLocations(a), (std::vector<uint32_t>{0, 1, 0}));
  EXPECT_EQ(a.Value("critical_path", work, 1), 2.0);
  EXPECT_EQ(a.Value("critical_path", work, 0), 3.0);
  EXPECT_EQ(a.Value("critical_path", "main", 0), 2.0);
  EXPECT_EQ(a.Value("critical_path", "main/serial", 0), 3.0);
}

// Team A as in TwoTeams; in team B (forked at 7) the worker is woken at 8 and works 8-10, the
// master works 7-9 and waits at the barrier 9-11 for the worker (10 - 9 = 1).
TEST(OmpRootCauseTest, AWorkerWokenLateCausesTheWaitByItsWakeUp) {
  const Analysis a = AnalyzeScenario(TwoTeams(/*master_work_end=*/9, /*worker_begin=*/8,
                                              /*worker_work_end=*/10));
  ExpectRootCauseInvariants(a);
  const std::string region = "main/!$omp parallel";
  // Since team B's fork both worked 2; the worker's 1 s of wake-up (taken from its idle time
  // between the teams) is its only excess: the whole wait goes to the region, where omp_fork
  // shows the same second.
  EXPECT_NEAR(a.Value("delay_ompbarrier", region, 1), 1.0, kOmpEps);
  EXPECT_NEAR(a.Value("delay_ompbarrier", region + "/work", 1), 1.0, kOmpEps);  // team A's wait
  EXPECT_EQ(a.Value("omp_fork", region, 1), 1.0);
  EXPECT_EQ(a.result.delay->unexplained_waits, 0u);
  // The path: main 11-12, team B's barrier after the master's wait 10-11, the worker's work
  // 8-10 and wake-up 7-8, the master's serial 4-7 and team A's barrier 3-4, the worker's work
  // 1-3, the master's main 0-1: 12 s.
  EXPECT_EQ(a.result.critical_path->length, 12);
  EXPECT_EQ(a.Value("critical_path", region, 1), 1.0);
  EXPECT_EQ(a.Value("critical_path", region + "/work", 1), 4.0);
  EXPECT_EQ(PathLocations(a), (std::vector<uint32_t>{0, 1, 0, 1, 0}));
}

// Rank 0's master receives inside the parallel region (2-6) from rank 1, which sends at 5 after
// computing 1-5: a Late Sender of 3. Its worker works 1-3 and waits at the region's barrier 3-7
// until the master arrives at 6: 3 s. Rank 1 enters MPI_Finalize at 6, rank 0 at 7.
Scenario MpiInsideTheRegion() {
  Scenario s(2);
  RankScript& master = s.thread(0, 0);
  RankScript& worker = s.thread(0, 1);
  master.Enter(0, "main").Call(0, 1, "MPI_Init").Fork(1, 2);
  master.TeamMember(1, 7, [&] {
    master.Call(1, 2, "work").Recv(2, 6, 1, 0, 8).Call(6, 7, "!$omp implicit barrier");
  });
  master.Join(7).Call(7, 9, "MPI_Finalize").Leave(9, "main");
  worker.TeamMember(1, 7, [&] { worker.Call(1, 3, "work").Call(3, 7, "!$omp implicit barrier"); });
  RankScript& other = s.rank(1);
  other.Enter(0, "main").Call(0, 1, "MPI_Init").Call(1, 5, "compute").Send(5, 6, 0, 0, 8);
  other.Call(6, 9, "MPI_Finalize").Leave(9, "main");
  return s;
}

TEST(OmpRootCauseTest, AMastersMpiWaitPassesTheBarrierWaitItCausedOn) {
  const Analysis a = AnalyzeScenario(MpiInsideTheRegion());
  ExpectRootCauseInvariants(a);
  const std::string recv = "main/!$omp parallel/MPI_Recv";
  // The Late Sender (3): since MPI_Init rank 1 computed 4, rank 0 worked 1 in its region (no
  // shared call path): s = 3 / 4, all on rank 1's compute.
  EXPECT_NEAR(a.Value("delay_latesender", "main/compute", 1), 3.0, kOmpEps);
  // The worker's barrier wait (3): since the team's start the master worked 1 (against the
  // worker's 2: no excess) and spent 1 in MPI_Recv after its wait of 3: δ̂ = 1, ω̂ = 3, s = 3 / 4.
  // Short-term 3/4 on the master's MPI_Recv; the Late Sender's share, 3 * 3 / 4, travels on to
  // its cause, rank 1's compute (its whole excess there): long-term 9/4 on another process.
  EXPECT_NEAR(a.Value("delay_ompbarrier", recv, 0), 0.75, kOmpEps);
  EXPECT_NEAR(a.Value("delay_ompbarrier_longterm", "main/compute", 1), 2.25, kOmpEps);
  EXPECT_NEAR(a.Total("delay_ompbarrier") + a.Total("delay_ompbarrier_longterm"), 3.0, kOmpEps);
  // The path, backwards from rank 0's MPI_Finalize at 7: the barrier 6-7 (the master was last),
  // the Recv's part after its wait 5-6, rank 1 before its Send: compute 1-5, MPI_Init 0-1.
  EXPECT_EQ(a.result.critical_path->length, 7);
  EXPECT_EQ(PathLocations(a), (std::vector<uint32_t>{1, 0}));
  EXPECT_EQ(a.Value("critical_path", "main/compute", 1), 4.0);
}

// Timestamps that contradict the fork: the worker's team begins at 1, its master forks at 3.
// The analyses finish with the costs and the path they can find, and no circle.
TEST(OmpRootCauseTest, AWorkerThatBeganBeforeItsForkIsAnalysedWithoutACircle) {
  Scenario s(1);
  RankScript& master = s.thread(0, 0);
  RankScript& worker = s.thread(0, 1);
  master.Enter(0, "main").Fork(3, 2);
  master.TeamMember(3, 8, [&] { master.Call(3, 4, "work").Call(4, 8, "!$omp implicit barrier"); });
  master.Join(8).Leave(9, "main");
  worker.TeamMember(1, 8, [&] { worker.Call(1, 7, "work").Call(7, 8, "!$omp implicit barrier"); });
  const Analysis a = AnalyzeScenario(s);
  InvariantOptions options;
  options.clock_condition_holds = false;
  ExpectRootCauseInvariants(a, options);
  // The master waited 7 - 4 = 3 for the worker, whose 6 s of work since its team began explain
  // it (the master worked 1 since the fork): all 3 s on the worker's work.
  EXPECT_NEAR(a.Value("delay_ompbarrier", "main/!$omp parallel/work", 1), 3.0, kOmpEps);
  EXPECT_TRUE(a.result.critical_path->diagnostics.empty());
}

// A team forked after the window (MPI_Finalize entered at 5, the fork at 7, the worker woken at
// 8): its wake-up is outside the window like the rest of its time, and counts nowhere.
TEST(OmpRootCauseTest, AWakeUpAfterTheWindowCountsNowhere) {
  Scenario s(1);
  RankScript& master = s.thread(0, 0);
  RankScript& worker = s.thread(0, 1);
  master.Enter(0, "main").Call(0, 1, "MPI_Init").Call(1, 5, "work");
  master.Call(5, 6, "MPI_Finalize").Fork(7, 2);
  master.TeamMember(7, 9, [&] { master.Call(7, 9, "tail"); });
  master.Join(9).Leave(10, "main");
  worker.TeamMember(8, 9, [&] { worker.Call(8, 9, "tail"); });
  const Analysis a = AnalyzeScenario(s);
  ExpectRootCauseInvariants(a);
  EXPECT_EQ(a.result.critical_path->window.length(), 5);
  // The worker did nothing in the window: no activity of its own anywhere.
  EXPECT_EQ(a.LocationTotal("non_critical_path_activities", 1), 0.0);
  EXPECT_EQ(a.LocationTotal("critical_path_activities", 1), 0.0);
}

// Scalasca's Delay.OMP explains an OpenMP barrier as causeway does, and its path crosses from a
// worker to its master at the fork as well.
TEST(OmpRootCauseTest, ScalascaSemanticsFollowTheSameWaits) {
  analysis::AnalysisOptions options;
  options.semantics = analysis::Semantics::kScalasca;
  const Analysis a = AnalyzeScenarioWith(Hybrid(), options);
  const std::string work = "main/!$omp parallel/work";
  EXPECT_NEAR(a.Value("delay_ompbarrier", work, 2), 4.0, kOmpEps);
  EXPECT_EQ(a.Value("critical_path", work, 2), 6.0);
}

}  // namespace
}  // namespace cw::test
