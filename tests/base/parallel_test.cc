#include "base/parallel.h"

#include <atomic>
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

}  // namespace
}  // namespace cw
