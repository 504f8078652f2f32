// The bottleneck analysis of OpenMP constructs, on hand-built traces recorded as Score-P records
// OpenMP (one tick is one second; location 0 is the master, 1 its worker): a barrier that waited
// for a late thread is a wait on the group caused by that thread, a critical section that waited
// for its holder a wait on a lock caused by the holder, both with OpenMP's fixes; balancing the
// late thread is replayed thread by thread.
#include <gtest/gtest.h>

#include <functional>
#include <string>

#include "driver/predicted_saving.h"
#include "tests/common/analysis_fixture.h"

namespace cw::analysis {
namespace {

using testing::RankScript;
using testing::Scenario;

test::Analysis Advise(const Scenario& s) {
  AnalysisOptions options;
  options.threads = 2;
  options.advice = true;
  return test::AnalyzeScenarioWith(s, options);
}

const AdviceFinding* Find(const test::Analysis& a, AdvicePattern pattern,
                          const std::string& callpath) {
  for (const AdviceFinding& f : a.result.advice->findings) {
    if (f.pattern == pattern && a.trace.CallpathName(f.callpath) == callpath) return &f;
  }
  std::string all;
  for (const AdviceFinding& f : a.result.advice->findings) {
    all += std::string(AdvicePatternName(f.pattern)) + " at " + a.trace.CallpathName(f.callpath) +
           "\n";
  }
  ADD_FAILURE() << "no " << AdvicePatternName(pattern) << " at " << callpath << " in\n" << all;
  return nullptr;
}

// Two teams. Each: the master works 1 s and waits at the implicit barrier for the worker, which
// works 5 s; both leave the barrier 1 s after the worker arrived.
//   team 1: fork 1; master work 1-2, barrier 2-7; worker work 1-6, barrier 6-7; join 7
//   team 2: fork 8; master work 8-9, barrier 9-14; worker work 8-13, barrier 13-14; join 14
// main ends at 15.
Scenario LateWorker() {
  Scenario s(1);
  RankScript& master = s.thread(0, 0);
  RankScript& worker = s.thread(0, 1);
  master.Enter(0, "main");
  for (uint64_t t0 : {uint64_t{1}, uint64_t{8}}) {
    master.Fork(t0, 2);
    master.TeamMember(t0, t0 + 6, [&] {
      master.Call(t0, t0 + 1, "work").Call(t0 + 1, t0 + 6, "!$omp implicit barrier");
    });
    master.Join(t0 + 6);
    worker.TeamMember(t0, t0 + 6, [&] {
      worker.Call(t0, t0 + 5, "work").Call(t0 + 5, t0 + 6, "!$omp implicit barrier");
    });
  }
  master.Leave(15, "main");
  return s;
}

TEST(OmpAdviceTest, ABarrierThatWaitedForALateThreadIsAWaitOnTheGroupItCaused) {
  test::Analysis a = Advise(LateWorker());
  // The barrier's instances: the master's 5 s (twice), the worker's 1 s (twice): mean 3,
  // shortest/mean 1/3 < 0.5, so the deviation filter finds it; the master's two instances are
  // beyond the mean, each waited 4 s for the worker's Enter (wait_on_group).
  const AdviceFinding* f =
      Find(a, AdvicePattern::kWaitOnGroup, "main/!$omp parallel/!$omp implicit barrier");
  ASSERT_NE(f, nullptr);
  EXPECT_TRUE(f->between_threads);
  EXPECT_EQ(f->locations, std::vector<uint32_t>{0});
  ASSERT_FALSE(f->causes.empty());
  EXPECT_EQ(f->causes.front().location, 1u);
  // Its root: the worker's work, 10 s against a mean of 6 over the two threads.
  ASSERT_FALSE(f->root_causes.empty());
  EXPECT_EQ(a.trace.CallpathName(f->root_causes.front().callpath), "main/!$omp parallel/work");
  EXPECT_EQ(f->root_causes.front().location, 1u);
  ASSERT_FALSE(f->hints.empty());
  EXPECT_EQ(f->hints.front().rfind("distribute the work before this barrier more evenly over "
                                   "the threads",
                                   0),
            0u)
      << f->hints.front();

  // Balancing the worker's work (x 6/10: 3 s a team), on the worker alone: team 1's barrier
  // completes at its arrival 4 and both leave at 5; the master joins at 5 and forks at 6 (its 1
  // s of main), the worker begins at the fork, works 6-9 and arrives last: both leave at 10,
  // the master joins at 10 and main ends at 11, 4 s earlier than measured.
  ASSERT_TRUE(driver::PredictSavings(a.trace, *a.result.advice, 5).has_value());
  f = Find(a, AdvicePattern::kWaitOnGroup, "main/!$omp parallel/!$omp implicit barrier");
  ASSERT_NE(f, nullptr);
  ASSERT_TRUE(f->predicted_saving.has_value()) << f->no_prediction;
  EXPECT_DOUBLE_EQ(*f->predicted_saving, 4.0);
}

// One team; both threads enter the critical section (lock 7) at 1. The master holds it 1-3
// (acquisition 1); the worker acquires it at 3 (acquisition 2, a wait of 2 s for the master's
// release), holds it 3-5; the master waits at the implicit barrier 3-6 for the worker (5-6).
Scenario Contention() {
  Scenario s(1);
  RankScript& master = s.thread(0, 0);
  RankScript& worker = s.thread(0, 1);
  master.Enter(0, "main").Fork(1, 2);
  master.TeamMember(1, 6, [&] {
    master.Enter(1, "!$omp critical").AcquireLock(1, 7, 1).Call(1, 3, "work");
    master.ReleaseLock(3, 7, 1).Leave(3, "!$omp critical").Call(3, 6, "!$omp implicit barrier");
  });
  master.Join(6).Leave(7, "main");
  worker.TeamMember(1, 6, [&] {
    worker.Enter(1, "!$omp critical").AcquireLock(3, 7, 2).Call(3, 5, "work");
    worker.ReleaseLock(5, 7, 2).Leave(5, "!$omp critical").Call(5, 6, "!$omp implicit barrier");
  });
  return s;
}

TEST(OmpAdviceTest, ACriticalSectionThatWaitedForItsHolderIsAWaitOnTheLockItCaused) {
  test::Analysis a = Advise(Contention());
  // The worker's critical section (1-5) waited 2 s (omp_lock_contention_critical) for the
  // master's release, in the master's critical section.
  EXPECT_EQ(a.Value("omp_lock_contention_critical", "main/!$omp parallel/!$omp critical", 1), 2.0);
  const AdviceFinding* f =
      Find(a, AdvicePattern::kWaitOnLock, "main/!$omp parallel/!$omp critical");
  ASSERT_NE(f, nullptr);
  EXPECT_TRUE(f->between_threads);
  EXPECT_EQ(f->locations, std::vector<uint32_t>{1});
  ASSERT_FALSE(f->causes.empty());
  EXPECT_EQ(f->causes.front().location, 0u);
  EXPECT_EQ(a.trace.CallpathName(f->causes.front().callpath), "main/!$omp parallel/!$omp critical");
  ASSERT_FALSE(f->hints.empty());
  EXPECT_EQ(f->hints.front().rfind("hold the lock for less time", 0), 0u) << f->hints.front();
  // The root-cause analyses do not follow the lock wait (as Scalasca): its edge is the
  // bottleneck analysis's alone, the barrier wait's theirs too.
  test::Analysis root = test::AnalyzeScenario(Contention());
  ASSERT_TRUE(root.result.sync_points.has_value());
  bool barrier = false;
  for (const WaitEdge& e : root.result.sync_points->edges) {
    EXPECT_NE(e.pattern, SyncPattern::kOmpLock);
    barrier |= e.pattern == SyncPattern::kOmpBarrier;
  }
  EXPECT_TRUE(barrier);
}

}  // namespace
}  // namespace cw::analysis
