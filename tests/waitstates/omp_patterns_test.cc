// OpenMP wait states and time categories on hand-built traces, recorded as Score-P's Opari2
// adapter records them: the master forks and joins, every team member begins and ends the team
// and enters the parallel region, barriers are regions of the roles barrier and implicit
// barrier, critical sections and omp_set_lock acquire a lock of the process (ThreadAcquireLock
// with its acquisition order) inside their region, and release it before they leave.
// One tick is one second. Locations: the ranks' masters first (rank r is location r), then
// each rank's threads in order.
#include <gtest/gtest.h>

#include <functional>
#include <map>
#include <string>

#include "tests/common/analysis_fixture.h"

namespace cw::test {
namespace {

using testing::RankScript;
using testing::Scenario;

// Rank 0 forks a team of 3 at 1: a loop whose implicit barrier the master enters at 5, thread 1
// at 7 and thread 2 at 9, all leaving at 9; then an explicit barrier entered at 10, 11 and 10,
// left at 12. Joined at 13. A barrier outside the parallel region (14-15) synchronises nobody.
// A second team from 16 to 20 of `second_team` threads: an implicit barrier entered at 17 by
// the master, at 18 by thread 1, at 17 by thread 2 if it is in the team; left at 19.
Scenario Teams(int second_team) {
  Scenario s(1);
  RankScript& master = s.thread(0, 0);
  RankScript& t1 = s.thread(0, 1);
  RankScript& t2 = s.thread(0, 2);
  master.Enter(0, "main").Fork(1, 3);
  master.TeamMember(1, 12, [&] {
    master.Call(1, 5, "!$omp for").Call(5, 9, "!$omp implicit barrier");
    master.Call(10, 12, "!$omp barrier");
  });
  master.Join(13).Call(14, 15, "!$omp barrier").Fork(16, static_cast<uint32_t>(second_team));
  master.TeamMember(16, 19, [&] { master.Call(17, 19, "!$omp implicit barrier"); });
  master.Join(20).Leave(25, "main");
  t1.TeamMember(1, 12, [&] {
    t1.Call(1, 7, "!$omp for").Call(7, 9, "!$omp implicit barrier");
    t1.Call(11, 12, "!$omp barrier");
  });
  t1.TeamMember(16, 19, [&] { t1.Call(18, 19, "!$omp implicit barrier"); });
  t2.TeamMember(1, 12, [&] {
    t2.Call(1, 9, "!$omp for").Call(9, 9, "!$omp implicit barrier");
    t2.Call(10, 12, "!$omp barrier");
  });
  if (second_team == 3) t2.TeamMember(16, 19, [&] { t2.Call(17, 19, "!$omp implicit barrier"); });
  return s;
}

TEST(OmpPatternsTest, BarriersWaitForTheLastThreadOfTheirTeam) {
  const Analysis a = AnalyzeScenario(Teams(3));
  // First team, implicit barrier: the last enters at 9; the master waits 9 - 5 = 4, thread 1
  // 9 - 7 = 2. Second team: the master and thread 2 wait 18 - 17 = 1 for thread 1.
  EXPECT_EQ(a.LocationTotal("omp_ibarrier_wait", 0), 4.0 + 1.0);
  EXPECT_EQ(a.LocationTotal("omp_ibarrier_wait", 1), 2.0);
  EXPECT_EQ(a.LocationTotal("omp_ibarrier_wait", 2), 1.0);
  // Explicit barrier: the last enters at 11 (thread 1); the master and thread 2 wait 1 each.
  // The serial barrier at 14 waits for nobody.
  EXPECT_EQ(a.LocationTotal("omp_ebarrier_wait", 0), 1.0);
  EXPECT_EQ(a.LocationTotal("omp_ebarrier_wait", 1), 0.0);
  EXPECT_EQ(a.LocationTotal("omp_ebarrier_wait", 2), 1.0);
  EXPECT_EQ(a.Value("omp_ibarrier_wait", "main/!$omp parallel/!$omp implicit barrier", 0), 5.0);
  // The threads' records begin at the parallel region; their call paths go below the master's.
  EXPECT_EQ(a.Value("omp_ibarrier_wait", "main/!$omp parallel/!$omp implicit barrier", 1), 2.0);
  // Time in barriers, waiting or not: implicit 4 + 2 + 0 (first team) + 2 + 1 + 2 (second);
  // explicit 2 + 1 + 2 in the team and 1 outside it. Barriers are synchronisation, and
  // synchronisation is OpenMP time.
  EXPECT_EQ(a.Total("omp_ibarrier"), 11.0);
  EXPECT_EQ(a.Total("omp_ebarrier"), 6.0);
  EXPECT_EQ(a.Total("omp_barrier"), 17.0);
  EXPECT_EQ(a.Total("omp_synchronization"), 17.0);
  // Management: every member entered its region when the team was forked (no fork time) and
  // left it 1 s before the join (12 against 13, 19 against 20): 1 s per thread and team, 6 s,
  // at main/!$omp parallel, as time of its own (the master's 2 s come out of main).
  EXPECT_EQ(a.Total("omp_fork"), 0.0);
  EXPECT_EQ(a.Total("omp_management"), 6.0);
  EXPECT_EQ(a.Value("omp_management", "main/!$omp parallel", 2), 2.0);
  EXPECT_EQ(a.Total("omp_time"), 17.0 + 6.0);
  // Loops and parallel regions are computation: the master 25 s in all minus 4 + 2 + 1 + 2 in
  // barriers and its 2 s of management; thread 1 11 + 3 minus 2 + 1 + 1; thread 2 11 + 3 minus
  // 0 + 2 + 2.
  EXPECT_EQ(a.Total("comp"), (25.0 - 9.0 - 2.0) + (14.0 - 4.0) + (14.0 - 4.0));
  // Each thread's time in main/!$omp parallel is then the master's, 13 - 1 + 20 - 16 = 16 s.
  // Idle threads: outside OpenMP regions the master alone runs, 25 - 16 - 1 = 8 s in main, idle
  // time of threads 1 and 2 there. The barrier outside the teams (14-15) is an outermost OpenMP
  // region where the master spent 1 s and they none: limited parallelism.
  EXPECT_EQ(a.Value("omp_idle_threads", "main", 1), 8.0);
  EXPECT_EQ(a.Value("omp_limited_parallelism", "main/!$omp barrier", 2), 1.0);
  EXPECT_EQ(a.Value("omp_limited_parallelism", "main/!$omp parallel", 2), 0.0);
  EXPECT_EQ(a.LocationTotal("omp_idle_threads", 0), 0.0);
  EXPECT_EQ(a.LocationTotal("omp_idle_threads", 1), 9.0);
  EXPECT_EQ(a.Total("omp_limited_parallelism"), 2.0);
  // Time is the threads' reservation, three threads for 25 s: 25 s of the master's, 14 + 2 s
  // (records and management) and 9 s idle of each thread. Execution leaves idle time out.
  EXPECT_EQ(a.Total("time"), 3 * 25.0);
  EXPECT_EQ(a.Total("execution"), 25.0 + 16.0 + 16.0);
}

// A team forked at 2 whose thread 1 begins its part at 4 (2 s to wake it) and ends it at 8, 2 s
// before the master joins at 10 (the master's part: 2 to 9). Thread 2 begins at 3 and ends at 9
// but computes only 0.5 s in its region (a barrier 3.5-9): its 1 + 1 s of management cannot all
// come out of its computation.
TEST(OmpPatternsTest, ManagementIsTheTimeFromTheForkAndToTheJoin) {
  Scenario s(1, 10);  // 1 tick = 0.1 s
  RankScript& master = s.thread(0, 0);
  RankScript& t1 = s.thread(0, 1);
  RankScript& t2 = s.thread(0, 2);
  master.Enter(0, "main").Fork(20, 3);
  master.TeamMember(20, 90, [&] { master.Call(80, 90, "!$omp implicit barrier"); });
  master.Join(100).Leave(110, "main");
  t1.TeamMember(40, 80, [&] { t1.Call(70, 80, "!$omp implicit barrier"); });
  t2.TeamMember(30, 90, [&] { t2.Call(35, 90, "!$omp implicit barrier"); });
  const Analysis a = AnalyzeScenario(s);
  const std::string region = "main/!$omp parallel";
  // Master: fork 0 (entered at 2), join 10 - 9 = 1, moved from main to the region.
  EXPECT_NEAR(a.Value("omp_fork", region, 0), 0.0, 1e-12);
  EXPECT_NEAR(a.Value("omp_management", region, 0), 1.0, 1e-12);
  EXPECT_NEAR(a.Value("comp", "main", 0), 11.0 - 7.0 - 1.0, 1e-12);
  // Thread 1: fork 4 - 2 = 2, join 10 - 8 = 2, time of its own beside its 4 - 1 = 3 s of
  // computation in the region.
  EXPECT_NEAR(a.Value("omp_fork", region, 1), 2.0, 1e-12);
  EXPECT_NEAR(a.Value("omp_management", region, 1), 4.0, 1e-12);
  EXPECT_NEAR(a.Value("comp", region, 1), 3.0, 1e-12);
  // Thread 2: fork 3 - 2 = 1, join 10 - 9 = 1, beside its 0.5 s of computation.
  EXPECT_NEAR(a.Value("omp_management", region, 2), 2.0, 1e-12);
  EXPECT_NEAR(a.Value("omp_fork", region, 2), 1.0, 1e-12);
  EXPECT_NEAR(a.Value("comp", region, 2), 0.5, 1e-12);
  // The master's region 2-9 with its barrier 8-9: 6 s of computation.
  EXPECT_NEAR(a.Value("comp", region, 0), 6.0, 1e-12);
  // Every member's time in the region and its barrier is the master's, from the fork to the
  // join: 8 s.
  for (uint32_t t = 0; t < 3; ++t) {
    EXPECT_NEAR(a.Value("execution", region, t) +
                    a.Value("execution", region + "/!$omp implicit barrier", t),
                8.0, 1e-12);
  }
  EXPECT_NEAR(a.Total("omp_management"), 1.0 + 4.0 + 2.0, 1e-12);
  EXPECT_NEAR(a.Total("execution"), 11.0 + 8.0 + 8.0, 1e-12);
  // Idle threads: the master's 11 - 8 = 3 s outside the region for each thread; the region
  // they filled (no limited parallelism).
  EXPECT_NEAR(a.Total("omp_limited_parallelism"), 0.0, 1e-12);
  EXPECT_NEAR(a.LocationTotal("omp_idle_threads", 1), 3.0, 1e-12);
  EXPECT_NEAR(a.LocationTotal("omp_idle_threads", 2), 3.0, 1e-12);
  EXPECT_NEAR(a.Total("time"), 3 * 11.0, 1e-12);
}

// The master forks in solve (2-8) and in init (10-14), a team running two parallel regions; a
// thread's part of each begins at the region, with nothing below it.
TEST(OmpPatternsTest, ThreadsRunTheirRegionsWhereTheMasterEnteredThem) {
  Scenario s(1);
  RankScript& master = s.thread(0, 0);
  RankScript& t1 = s.thread(0, 1);
  master.Enter(0, "main").Enter(1, "solve").Fork(2, 2);
  master.TeamMember(2, 6, [&] { master.Call(3, 6, "!$omp implicit barrier"); });
  master.Join(7).Leave(8, "solve").Enter(9, "init").Fork(10, 2);
  master.TeamBegin(10).Enter(10, "!$omp parallel @init").Call(11, 13, "!$omp barrier");
  master.Leave(13, "!$omp parallel @init").TeamEnd(13).Join(14).Leave(15, "init").Leave(16, "main");
  t1.TeamMember(2, 6, [&] { t1.Call(5, 6, "!$omp implicit barrier"); });
  t1.TeamBegin(10).Enter(10, "!$omp parallel @init").Call(12, 13, "!$omp barrier");
  t1.Leave(13, "!$omp parallel @init").TeamEnd(13);
  const Analysis a = AnalyzeScenario(s);
  // The master waits 5 - 3 = 2 in solve's region, 12 - 11 = 1 in init's.
  EXPECT_EQ(a.Value("omp_ibarrier_wait", "main/solve/!$omp parallel/!$omp implicit barrier", 0),
            2.0);
  EXPECT_EQ(a.Value("omp_ebarrier_wait", "main/init/!$omp parallel @init/!$omp barrier", 0), 1.0);
  // The thread's computation (2-5 and 10-12) is in the same call paths as the master's, and so is
  // the 1 s it waits each time for the master's join (management: 6 against 7, 13 against 14).
  EXPECT_EQ(a.Value("comp", "main/solve/!$omp parallel", 1), 3.0);
  EXPECT_EQ(a.Value("comp", "main/init/!$omp parallel @init", 1), 2.0);
  EXPECT_EQ(a.Value("omp_management", "main/solve/!$omp parallel", 1), 1.0);
  EXPECT_EQ(a.Value("omp_ibarrier", "main/solve/!$omp parallel/!$omp implicit barrier", 1), 1.0);
  for (uint32_t cp = 0; cp < a.trace.call_tree.size(); ++cp)
    EXPECT_EQ(a.trace.CallpathName(cp).rfind("main", 0), 0u) << a.trace.CallpathName(cp);
}

// One parallel region, in a routine called from a (1-7) and from b (8-16): the master forks at 2
// and at 9, joins at 6 and at 15. Thread 1 runs each team where the master forked it, as
// Scalasca's call trees have it, not both where the master first entered the region.
TEST(OmpPatternsTest, EachTeamRunsWhereItsMasterForkedIt) {
  Scenario s(1);
  RankScript& master = s.thread(0, 0);
  RankScript& t1 = s.thread(0, 1);
  master.Enter(0, "main").Enter(1, "a").Fork(2, 2);
  master.TeamMember(2, 5, [&] { master.Call(4, 5, "!$omp implicit barrier"); });
  master.Join(6).Leave(7, "a").Enter(8, "b").Fork(9, 2);
  master.TeamMember(9, 14, [&] { master.Call(13, 14, "!$omp implicit barrier"); });
  master.Join(15).Leave(16, "b").Leave(17, "main");
  t1.TeamMember(2, 5, [&] { t1.Call(3, 5, "!$omp implicit barrier"); });
  t1.TeamMember(10, 14, [&] { t1.Call(11, 14, "!$omp implicit barrier"); });
  const Analysis a = AnalyzeScenario(s);
  const std::string in_a = "main/a/!$omp parallel", in_b = "main/b/!$omp parallel";
  // Thread 1 computes 2-3 in a's team and 10-11 in b's, and waits in their barriers for the
  // master: 4 - 3 = 1 and 13 - 11 = 2.
  EXPECT_EQ(a.Value("comp", in_a, 1), 1.0);
  EXPECT_EQ(a.Value("comp", in_b, 1), 1.0);
  EXPECT_EQ(a.Value("omp_ibarrier_wait", in_a + "/!$omp implicit barrier", 1), 1.0);
  EXPECT_EQ(a.Value("omp_ibarrier_wait", in_b + "/!$omp implicit barrier", 1), 2.0);
  // Management: a's join 6 against its team end 5; b's fork 9 against its team begin 10 and
  // join 15 against 14.
  EXPECT_EQ(a.Value("omp_management", in_a, 1), 1.0);
  EXPECT_EQ(a.Value("omp_management", in_b, 1), 2.0);
  // So thread 1 fills each team from fork to join (a: 2-6, b: 9-15): no limited parallelism.
  // It is idle for the master's 17 - 4 - 6 = 7 s outside them.
  EXPECT_EQ(a.Total("omp_limited_parallelism"), 0.0);
  EXPECT_EQ(a.LocationTotal("omp_idle_threads", 1), 7.0);
  EXPECT_EQ(a.Total("time"), 2 * 17.0);
  for (uint32_t cp = 0; cp < a.trace.call_tree.size(); ++cp)
    EXPECT_EQ(a.trace.CallpathName(cp).rfind("main", 0), 0u) << a.trace.CallpathName(cp);
}

TEST(OmpPatternsTest, ATeamOfFewerThreadsWaitsForItsOwnThreadsOnly) {
  // Thread 2 is not in the second team (beyond Scalasca 2.6, which refuses varying team sizes):
  // its barriers lie outside that team's interval, and the master waits for thread 1 alone.
  const Analysis a = AnalyzeScenario(Teams(2));
  EXPECT_EQ(a.LocationTotal("omp_ibarrier_wait", 0), 4.0 + 1.0);
  EXPECT_EQ(a.LocationTotal("omp_ibarrier_wait", 2), 0.0);
  EXPECT_EQ(a.Total("omp_ibarrier_wait"), 4.0 + 2.0 + 1.0);
  EXPECT_EQ(a.Total("omp_ebarrier_wait"), 2.0);
  // Limited parallelism: the master spent 12 + 4 s in main/!$omp parallel (each team from its
  // fork to its join), thread 2 only 12; thread 1 was in both teams.
  EXPECT_EQ(a.Value("omp_limited_parallelism", "main/!$omp parallel", 2), 4.0);
  EXPECT_EQ(a.Value("omp_limited_parallelism", "main/!$omp parallel", 1), 0.0);
}

TEST(OmpPatternsTest, TheBottleneckAnalysisBlamesABarriersLateThreads) {
  // The implicit barrier's instances: 4, 2, 0 (team 1) and 2, 1, 2 (team 2), mean 11/6, longest /
  // mean 2.18 > 2: the deviation filter. Team 1 waited for thread 2 (4 s after the master, 2 s
  // after thread 1: 6 s), team 2 for thread 1 (1 s after the master and thread 2: 2 s). The
  // explicit barrier's 2, 1, 2 do not deviate, but its waits (1 s each for the master and thread
  // 2, both for thread 1) are 2 s of the 53: the waiting filter. Both are waits on the group
  // with the late threads as causes, and OpenMP's fixes.
  analysis::AnalysisOptions options;
  options.advice = true;
  const Analysis a = AnalyzeScenarioWith(Teams(3), options);
  ASSERT_TRUE(a.result.advice.has_value());
  std::map<std::string, uint32_t> first_cause;
  for (const analysis::AdviceFinding& f : a.result.advice->findings) {
    const std::string path = a.trace.CallpathName(f.callpath);
    if (path.find("barrier") == std::string::npos) continue;
    EXPECT_EQ(f.pattern, analysis::AdvicePattern::kWaitOnGroup) << path;
    EXPECT_TRUE(f.between_threads) << path;
    ASSERT_FALSE(f.causes.empty()) << path;
    first_cause[path] = f.causes.front().location;
  }
  const std::map<std::string, uint32_t> expected = {
      {"main/!$omp parallel/!$omp implicit barrier", 2},
      {"main/!$omp parallel/!$omp barrier", 1},
  };
  EXPECT_EQ(first_cause, expected);
  EXPECT_EQ(a.Total("omp_ibarrier_wait") + a.Total("omp_ebarrier_wait"), 8.0 + 2.0);
}

// Rank 0: a critical section (lock 7) that the master holds from 2 to 5; thread 1 enters it at
// 3 and gets it at 5 (acquisition 2): it waited 5 - 3 = 2. An omp_lock_t (lock 9) that thread 1
// sets at 8 and unsets at 12; the master calls omp_set_lock at 10 and gets it at 12: 2 more.
// Rank 1 has locks of its own with the same ids: its thread 1 holds lock 7 from 0 to 2, its
// master enters the critical section at 1 and waits 2 - 1 = 1 (not for rank 0's release at 5).
Scenario Locks() {
  Scenario s(2);
  RankScript& master = s.thread(0, 0);
  RankScript& t1 = s.thread(0, 1);
  master.Enter(0, "main").Fork(1, 2).TeamBegin(1).Enter(1, "!$omp parallel");
  master.Enter(2, "!$omp critical").AcquireLock(2, 7, 1).Call(2, 5, "!$omp critical sblock");
  master.ReleaseLock(5, 7, 1).Leave(5, "!$omp critical");
  master.Enter(10, "omp_set_lock").AcquireLock(12, 9, 2).Leave(12, "omp_set_lock");
  master.Enter(13, "omp_unset_lock").ReleaseLock(13, 9, 2).Leave(13, "omp_unset_lock");
  master.Leave(14, "!$omp parallel").TeamEnd(14).Join(14).Leave(15, "main");
  t1.TeamBegin(1).Enter(1, "!$omp parallel");
  t1.Enter(3, "!$omp critical").AcquireLock(5, 7, 2).Call(5, 6, "!$omp critical sblock");
  t1.ReleaseLock(6, 7, 2).Leave(6, "!$omp critical");
  t1.Enter(8, "omp_set_lock").AcquireLock(8, 9, 1).Leave(8, "omp_set_lock");
  t1.Enter(12, "omp_unset_lock").ReleaseLock(12, 9, 1).Leave(12, "omp_unset_lock");
  t1.Leave(14, "!$omp parallel").TeamEnd(14);
  RankScript& other = s.thread(1, 0);
  RankScript& other_t1 = s.thread(1, 1);
  other.Enter(0, "main").Enter(1, "!$omp critical").AcquireLock(2, 7, 2);
  other.ReleaseLock(3, 7, 2).Leave(3, "!$omp critical").Leave(15, "main");
  other_t1.Enter(0, "!$omp critical").AcquireLock(0, 7, 1).ReleaseLock(2, 7, 1);
  other_t1.Leave(2, "!$omp critical");
  return s;
}

TEST(OmpPatternsTest, LockContentionWaitsForThePreviousRelease) {
  const Analysis a = AnalyzeScenario(Locks());
  // Locations: rank 0's master 0, rank 1's master 1, rank 0's thread 1 is 2, rank 1's 3.
  EXPECT_EQ(a.LocationTotal("omp_lock_contention_critical", 2), 2.0);
  EXPECT_EQ(a.LocationTotal("omp_lock_contention_critical", 0), 0.0);
  EXPECT_EQ(a.LocationTotal("omp_lock_contention_critical", 1), 1.0);
  EXPECT_EQ(a.Total("omp_lock_contention_critical"), 3.0);
  EXPECT_EQ(a.Value("omp_lock_contention_api", "main/!$omp parallel/omp_set_lock", 0), 2.0);
  EXPECT_EQ(a.Total("omp_lock_contention_api"), 2.0);
  // Critical time is the construct's own, not its body's: rank 0's thread 1 from 3 to 5 (its
  // body, 5-6, is computation; the master's construct is all body), and rank 1's master 1-3
  // and thread 0-2 (no body regions).
  EXPECT_EQ(a.Total("omp_critical"), 2.0 + 2.0 + 2.0);
  EXPECT_EQ(a.Total("omp_lock_api"), 2.0);
}

}  // namespace
}  // namespace cw::test
