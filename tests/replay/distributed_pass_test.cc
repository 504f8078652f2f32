// The replay pass of an MPI analysis job, with its ranks as threads of one process
// (comm::LocalGroup): for every rank count, thread count and assignment of locations to ranks,
// every location must end with what the single-process pass gives it, stalls broken at the same
// edges included.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <vector>

#include "comm/local_group.h"
#include "tests/replay/random_program.h"

namespace cw::replay::testing {
namespace {

struct Outcome {
  std::vector<uint64_t> hash;    // per location
  std::vector<uint32_t> broken;  // program edge ids, sorted
  uint64_t steps = 0;
  uint64_t values_sent = 0;
  uint64_t rounds = 0;

  bool operator==(const Outcome& o) const { return hash == o.hash && broken == o.broken; }
};

// Runs `p` on `ranks` ranks (location l owned by owner[l]) with `threads` each; one rank is the
// pass of one process, without a communicator.
Outcome RunOnRanks(const Program& p, uint32_t ranks, const std::vector<uint32_t>& owner,
                   unsigned threads) {
  std::vector<RankOutcome> shares(ranks);
  if (ranks == 1) {
    shares[0] = RunShare(p, nullptr, owner, threads);
  } else {
    comm::LocalGroup::Run(ranks, [&](comm::Communicator& comm) {
      shares[comm.rank()] = RunShare(p, &comm, owner, threads);
    });
  }
  Outcome out;
  out.hash.assign(p.locations, 0);
  for (const RankOutcome& share : shares) {
    for (uint32_t loc = 0; loc < p.locations; ++loc) out.hash[loc] |= share.hash[loc];
    out.broken.insert(out.broken.end(), share.broken.begin(), share.broken.end());
    out.steps += share.stats.steps;
    out.values_sent += share.stats.values_sent;
    EXPECT_EQ(share.stats.rounds, shares[0].stats.rounds) << "every rank runs the same rounds";
  }
  out.rounds = shares[0].stats.rounds;
  std::sort(out.broken.begin(), out.broken.end());
  return out;
}

TEST(DistributedPassTest, ChainAcrossRanksTakesOneRoundPerCrossing) {
  // 0 -> 1 -> 2 -> 3, each location on its own rank: every value crosses, and each crossing
  // needs a round (the consumer can only run after the exchange), plus the last round in which
  // location 3 runs: 4 rounds, 3 values sent.
  Program p;
  p.locations = 4;
  p.edges = 3;
  p.consumer = {1, 2, 3};
  p.steps = {{0, {}, {0}}, {1, {0}, {1}}, {2, {1}, {2}}, {3, {2}, {}}};
  Outcome one = RunOnRanks(p, 1, Blocks(4, 1), 1);
  Outcome four = RunOnRanks(p, 4, Blocks(4, 4), 1);
  EXPECT_EQ(four, one);
  EXPECT_EQ(four.values_sent, 3u);
  EXPECT_EQ(four.rounds, 4u);
  EXPECT_EQ(four.steps, 4u);
  // Two ranks (0,1 | 2,3): only 1 -> 2 crosses.
  Outcome two = RunOnRanks(p, 2, Blocks(4, 2), 2);
  EXPECT_EQ(two, one);
  EXPECT_EQ(two.values_sent, 1u);
  EXPECT_EQ(two.rounds, 2u);
}

TEST(DistributedPassTest, ResultsDoNotDependOnRanksThreadsOrPlacement) {
  for (uint32_t seed : {1u, 2u, 3u}) {
    Program p = MakeProgram(seed, 12, 3000, /*contradictions=*/false);
    Outcome single = RunOnRanks(p, 1, Blocks(12, 1), 1);
    EXPECT_TRUE(single.broken.empty());
    EXPECT_EQ(single.steps, 3000u);
    for (uint32_t ranks : {2u, 3u, 4u, 12u}) {
      for (unsigned threads : {1u, 2u}) {
        EXPECT_EQ(RunOnRanks(p, ranks, Blocks(12, ranks), threads), single)
            << "seed " << seed << ", " << ranks << " ranks, " << threads << " threads, blocks";
        EXPECT_EQ(RunOnRanks(p, ranks, RoundRobin(12, ranks), threads), single)
            << "seed " << seed << ", " << ranks << " ranks, " << threads << " threads, cyclic";
      }
    }
  }
}

TEST(DistributedPassTest, StallsAreBrokenWhereOneProcessBreaksThem) {
  // The same programs as a single pass of one process (no communicator at all) break. Two of
  // the four programs under the sanitizers, where the sweep takes 35 s (AddressSanitizer).
  const std::vector<uint32_t> seeds =
      CW_SANITIZED ? std::vector<uint32_t>{11, 12} : std::vector<uint32_t>{11, 12, 13, 14};
  for (uint32_t seed : seeds) {
    Program p = MakeProgram(seed, 10, 2000, /*contradictions=*/true);
    Outcome single = RunOnRanks(p, 1, Blocks(10, 1), 1);
    ASSERT_FALSE(single.broken.empty()) << "seed " << seed << " has no contradiction to test";
    for (uint32_t ranks : {2u, 3u, 4u}) {
      for (unsigned threads : {1u, 2u}) {
        Outcome d = RunOnRanks(p, ranks, RoundRobin(10, ranks), threads);
        EXPECT_EQ(d, single) << "seed " << seed << ", " << ranks << " ranks, " << threads
                             << " threads";
        EXPECT_EQ(d.steps, 2000u);
      }
    }
  }
}

TEST(DistributedPassTest, RanksWithoutLocationsTakePart) {
  // Three locations on ranks 0 and 2; rank 1 owns nothing but joins every round.
  Program p = MakeProgram(5, 3, 300, false);
  Outcome single = RunOnRanks(p, 1, Blocks(3, 1), 1);
  EXPECT_EQ(RunOnRanks(p, 3, {0, 2, 2}, 2), single);
}

}  // namespace
}  // namespace cw::replay::testing
