#include "replay/pass.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <vector>

namespace cw::replay {
namespace {

// A chain 0 -> 1 -> 2: each location adds one to what it receives.
TEST(PassTest, ValuesFlowAlongTheChainInDependencyOrder) {
  for (unsigned threads : {1u, 2u, 4u}) {
    Schedule s(3, 2);
    s.AddStep(2, {1});  // added out of order on purpose: only per-location order matters
    s.AddStep(0, {});
    s.AddStep(1, {0});
    Pass pass(s);
    Mailbox<int> mail(pass);
    std::vector<int> seen(3, -1);
    PassStats stats = pass.Run(threads, [&](uint32_t loc, uint32_t) {
      if (loc == 0) {
        seen[0] = 10;
        mail.Send(0, 10);
      } else if (loc == 1) {
        seen[1] = *mail.Receive(0);
        mail.Send(1, seen[1] + 1);
      } else {
        seen[2] = *mail.Receive(1);
      }
    });
    EXPECT_EQ(stats.steps, 3u);
    EXPECT_TRUE(stats.broken_edges.empty());
    EXPECT_EQ(seen, (std::vector<int>{10, 10, 11})) << threads << " threads";
  }
}

// A random program: a global sequence of steps on random locations, each taking values sent by
// earlier steps of other locations. Every location folds what it receives into a running hash;
// the hashes must not depend on the thread count.
std::vector<uint64_t> RunRandomProgram(unsigned threads, uint32_t seed) {
  const uint32_t locations = 12, steps = 4000;
  std::mt19937 rng(seed);  // 32-bit results
  auto next = [&] { return static_cast<uint32_t>(rng()); };
  struct StepPlan {
    uint32_t location;
    std::vector<uint32_t> inputs;
    std::vector<uint32_t> outputs;
  };
  std::vector<StepPlan> plan;
  std::vector<std::vector<uint32_t>> open(locations);  // edges still to be consumed, by consumer
  uint32_t edges = 0;
  for (uint32_t i = 0; i < steps; ++i) {
    StepPlan p;
    p.location = next() % locations;
    p.inputs = std::move(open[p.location]);
    open[p.location].clear();
    for (uint32_t k = next() % 3; k > 0; --k) {
      uint32_t to = next() % locations;
      if (to == p.location) continue;
      p.outputs.push_back(edges);
      open[to].push_back(edges++);
    }
    plan.push_back(std::move(p));
  }
  Schedule s(locations, edges);
  std::vector<std::vector<const StepPlan*>> by_location(locations);
  for (const StepPlan& p : plan) {
    s.AddStep(p.location, p.inputs);
    by_location[p.location].push_back(&p);
  }
  Pass pass(s);
  Mailbox<uint64_t> mail(pass);
  std::vector<uint64_t> hash(locations, 1469598103934665603ull);
  PassStats stats = pass.Run(threads, [&](uint32_t loc, uint32_t step) {
    const StepPlan& p = *by_location[loc][step];
    for (uint32_t e : p.inputs) hash[loc] = (hash[loc] ^ *mail.Receive(e)) * 1099511628211ull;
    for (uint32_t e : p.outputs) mail.Send(e, hash[loc] + e);
  });
  EXPECT_TRUE(stats.broken_edges.empty());
  EXPECT_EQ(stats.steps, steps);
  return hash;
}

TEST(PassTest, ResultsDoNotDependOnTheThreadCount) {
  for (uint32_t seed : {1u, 2u, 3u}) {
    std::vector<uint64_t> one = RunRandomProgram(1, seed);
    EXPECT_EQ(RunRandomProgram(2, seed), one);
    EXPECT_EQ(RunRandomProgram(4, seed), one);
  }
}

// 0 waits for 1 and 1 waits for 0: only an inconsistent trace can say so. The pass gives up the
// input of the lowest parked location and finishes.
TEST(PassTest, AStallIsBrokenAtTheLowestParkedLocation) {
  for (unsigned threads : {1u, 2u}) {
    Schedule s(2, 2);
    s.AddStep(0, {1});
    s.AddStep(1, {0});
    Pass pass(s);
    Mailbox<int> mail(pass);
    std::vector<bool> had_value(2, false);
    PassStats stats = pass.Run(threads, [&](uint32_t loc, uint32_t) {
      had_value[loc] = mail.Receive(loc == 0 ? 1 : 0) != nullptr;
      mail.Send(loc == 0 ? 0 : 1, 1);
    });
    EXPECT_EQ(stats.broken_edges, std::vector<uint32_t>{1});
    EXPECT_FALSE(had_value[0]);
    EXPECT_TRUE(had_value[1]);
  }
}

TEST(PassTest, AnInputNobodySendsIsBroken) {
  Schedule s(1, 1);
  s.AddStep(0, {0});
  s.AddStep(0, {});
  Pass pass(s);
  Mailbox<int> mail(pass);
  int steps = 0;
  PassStats stats = pass.Run(2, [&](uint32_t, uint32_t step) {
    if (step == 0) {
      EXPECT_EQ(mail.Receive(0), nullptr);
    }
    ++steps;
  });
  EXPECT_EQ(steps, 2);
  EXPECT_EQ(stats.broken_edges, std::vector<uint32_t>{0});
}

TEST(PassTest, AnEmptyScheduleRuns) {
  Schedule s(0, 0);
  Pass pass(s);
  EXPECT_EQ(pass.Run(4, [](uint32_t, uint32_t) {}).steps, 0u);
}

}  // namespace
}  // namespace cw::replay
