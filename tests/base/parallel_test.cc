#include "base/parallel.h"

#include <sched.h>

#include <atomic>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

namespace cw {
namespace {

TEST(ParallelForTest, VisitsEveryIndexOnce) {
  for (unsigned threads : {1u, 2u, 7u}) {
    std::vector<std::atomic<int>> hits(1000);
    ParallelFor(hits.size(), threads, [&](size_t i) { hits[i]++; });
    for (const std::atomic<int>& h : hits) EXPECT_EQ(h.load(), 1);
  }
}

TEST(ParallelForTest, HandlesEmptyAndSingle) {
  int calls = 0;
  ParallelFor(0, 4, [&](size_t) { ++calls; });
  EXPECT_EQ(calls, 0);
  ParallelFor(1, 4, [&](size_t) { ++calls; });
  EXPECT_EQ(calls, 1);
  EXPECT_GE(DefaultThreadCount(), 1u);
}

// A launcher that binds a process to some CPUs (mpirun, srun, taskset) narrows its affinity
// mask; the default thread count follows the mask, not the machine. The mask is a thread's own:
// narrowed on a thread of the test's, it leaves the rest of the process alone.
TEST(ParallelForTest, DefaultThreadsFollowTheAffinityMask) {
  cpu_set_t all;
  ASSERT_EQ(sched_getaffinity(0, sizeof(all), &all), 0);
  EXPECT_EQ(UsableCpuCount(), static_cast<unsigned>(CPU_COUNT(&all)));
  EXPECT_LE(UsableCpuCount(), MachineCpuCount());
  size_t first = 0;
  while (!CPU_ISSET(first, &all)) ++first;
  unsigned narrowed = 0, narrowed_default = 0;
  std::thread([&] {
    cpu_set_t one;
    CPU_ZERO(&one);
    CPU_SET(first, &one);
    if (sched_setaffinity(0, sizeof(one), &one) != 0) return;
    narrowed = UsableCpuCount();
    narrowed_default = DefaultThreadCount();
  }).join();
  EXPECT_EQ(narrowed, 1u);
  EXPECT_EQ(narrowed_default, 1u);
}

}  // namespace
}  // namespace cw
