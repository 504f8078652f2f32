// The location partition of an MPI analysis job: hand-built definitions with known event counts,
// the expected owners derived beside each case.
#include "trace/partition.h"

#include <gtest/gtest.h>

#include <random>

#include "analysis/pipeline/memory_estimate.h"

namespace cw::trace {
namespace {

using Owners = std::vector<uint32_t>;

// `processes[p]` = {node, thread event counts...}: one location group per process (MPI rank p),
// one location per thread.
Definitions MakeDefs(const std::vector<std::pair<uint32_t, std::vector<uint64_t>>>& processes) {
  Definitions defs;
  for (uint32_t p = 0; p < processes.size(); ++p) {
    LocationGroup group;
    group.system_tree_parent = processes[p].first;
    group.rank = p;
    defs.location_groups.push_back(group);
    for (uint64_t events : processes[p].second) {
      Location loc;
      loc.group = p;
      loc.event_count = events;
      loc.otf2_id = defs.locations.size();
      defs.locations.push_back(loc);
    }
  }
  return defs;
}

TEST(PartitionTest, OneRankOwnsEverything) {
  Definitions defs = MakeDefs({{0, {5}}, {1, {7}}, {0, {1}}});
  Partition p = PartitionLocations(defs, 1);
  EXPECT_EQ(p.owner, (Owners{0, 0, 0}));
  EXPECT_EQ(p.owned[0], (Owners{0, 1, 2}));
  EXPECT_EQ(p.weight[0], 13u);
}

TEST(PartitionTest, WholeNodesWhenBalanced) {
  // Ranks 0,2,4,6 on node 0 and 1,3,5,7 on node 1 (round-robin placement), 100 events each.
  // Whole nodes give 400 + 400, as good as any split: each analysis rank gets one node's
  // processes although their MPI ranks are not contiguous.
  Definitions defs = MakeDefs({{0, {100}},
                               {1, {100}},
                               {0, {100}},
                               {1, {100}},
                               {0, {100}},
                               {1, {100}},
                               {0, {100}},
                               {1, {100}}});
  Partition p = PartitionLocations(defs, 2);
  EXPECT_EQ(p.granularity, Partition::Granularity::kNode);
  EXPECT_EQ(p.owner, (Owners{0, 1, 0, 1, 0, 1, 0, 1}));
  EXPECT_EQ(p.weight, (std::vector<uint64_t>{400, 400}));
}

TEST(PartitionTest, ProcessesWhenWholeNodesUnbalance) {
  // Node 0 holds three processes of 100 events, node 1 one: whole nodes give 300 + 100, cutting
  // between processes 200 + 200, so the cut falls inside node 0.
  Definitions defs = MakeDefs({{0, {100}}, {0, {100}}, {0, {100}}, {1, {100}}});
  Partition p = PartitionLocations(defs, 2);
  EXPECT_EQ(p.granularity, Partition::Granularity::kProcess);
  EXPECT_EQ(p.owner, (Owners{0, 0, 1, 1}));
  EXPECT_EQ(p.weight, (std::vector<uint64_t>{200, 200}));
}

TEST(PartitionTest, BalancesByEventCount) {
  // One heavy process (1000 events) and ten of 100 on one node: the best two-way cut is the heavy
  // process alone (1000) against the ten others (1000).
  std::vector<std::pair<uint32_t, std::vector<uint64_t>>> procs{{0, {1000}}};
  for (int i = 0; i < 10; ++i) procs.push_back({0, {100}});
  Partition p = PartitionLocations(MakeDefs(procs), 2);
  EXPECT_EQ(p.owned[0], (Owners{0}));
  EXPECT_EQ(p.weight, (std::vector<uint64_t>{1000, 1000}));
  // Three ranks: 1000 | 500 | 500.
  Partition three = PartitionLocations(MakeDefs(procs), 3);
  EXPECT_EQ(three.weight, (std::vector<uint64_t>{1000, 500, 500}));
  EXPECT_EQ(three.owned[1], (Owners{1, 2, 3, 4, 5}));
}

TEST(PartitionTest, ThreadsOfAProcessSplitOnlyWhenRanksExceedProcesses) {
  // Two processes of two threads (40+10 and 30+20 events).
  Definitions defs = MakeDefs({{0, {40, 10}}, {0, {30, 20}}});
  Partition two = PartitionLocations(defs, 2);
  EXPECT_EQ(two.owner, (Owners{0, 0, 1, 1}));
  // Three ranks need a split process: locations alone weigh 40,10,30,20; the best bottleneck of
  // three contiguous runs is 40 (40 | 10+30 | 20: one thread of each process on rank 1).
  Partition three = PartitionLocations(defs, 3);
  EXPECT_EQ(three.granularity, Partition::Granularity::kLocation);
  EXPECT_EQ(three.weight, (std::vector<uint64_t>{40, 40, 20}));
  EXPECT_EQ(three.owner, (Owners{0, 1, 1, 2}));
  // Four ranks: one location each.
  Partition four = PartitionLocations(defs, 4);
  EXPECT_EQ(four.owner, (Owners{0, 1, 2, 3}));
}

TEST(PartitionTest, ThreadsOfAnOpenMpProcessAreNeverSplit) {
  // The same two processes with an OpenMP parallel region in the definitions: their threads
  // synchronise at every barrier, so three and four ranks keep each process whole (40+10 on
  // rank 0, 30+20 on rank 1) and leave the others empty.
  Definitions defs = MakeDefs({{0, {40, 10}}, {0, {30, 20}}});
  Region parallel;
  parallel.paradigm = Paradigm::kOpenMp;
  parallel.role = RegionRole::kParallel;
  defs.regions.push_back(parallel);
  for (uint32_t ranks : {3u, 4u}) {
    Partition p = PartitionLocations(defs, ranks);
    EXPECT_EQ(p.granularity, Partition::Granularity::kProcess) << ranks;
    EXPECT_EQ(p.owner, (Owners{0, 0, 1, 1})) << ranks;
    EXPECT_TRUE(p.owned[2].empty()) << ranks;
  }
}

TEST(PartitionTest, MoreRanksThanLocationsLeavesTheLastRanksEmpty) {
  Partition p = PartitionLocations(MakeDefs({{0, {3}}, {0, {4}}}), 4);
  EXPECT_EQ(p.owner, (Owners{0, 1}));
  EXPECT_TRUE(p.owned[2].empty());
  EXPECT_TRUE(p.owned[3].empty());
}

TEST(PartitionTest, UndeclaredCountsSpreadEvenly) {
  // A writer that declared no event counts: every location weighs 1.
  Partition p = PartitionLocations(MakeDefs({{0, {0}}, {0, {0}}, {0, {0}}, {0, {0}}}), 2);
  EXPECT_EQ(p.weight, (std::vector<uint64_t>{2, 2}));
}

TEST(PartitionTest, EveryLocationOwnedOnceOnRandomSystems) {
  std::mt19937 rng(42);
  for (int round = 0; round < 200; ++round) {
    std::vector<std::pair<uint32_t, std::vector<uint64_t>>> procs;
    uint32_t nprocs = 1 + static_cast<uint32_t>(rng() % 20);
    for (uint32_t p = 0; p < nprocs; ++p) {
      std::vector<uint64_t> threads(1 + rng() % 3);
      for (uint64_t& t : threads) t = rng() % 1000;
      procs.push_back({static_cast<uint32_t>(rng() % 4), threads});
    }
    Definitions defs = MakeDefs(procs);
    uint32_t ranks = 1 + static_cast<uint32_t>(rng() % 12);
    Partition p = PartitionLocations(defs, ranks);
    ASSERT_EQ(p.owned.size(), ranks);
    std::vector<int> seen(defs.locations.size(), 0);
    uint64_t total = 0;
    for (uint32_t r = 0; r < ranks; ++r) {
      uint64_t w = 0;
      for (uint32_t loc : p.owned[r]) {
        ++seen[loc];
        EXPECT_EQ(p.owner[loc], r);
        w += LocationWeight(defs.locations[loc]);
      }
      EXPECT_TRUE(std::is_sorted(p.owned[r].begin(), p.owned[r].end()));
      EXPECT_EQ(p.weight[r], w);
      total += w;
      // No rank is left empty while there are locations to give it.
      if (ranks <= defs.locations.size()) {
        EXPECT_FALSE(p.owned[r].empty());
      }
    }
    for (int s : seen) EXPECT_EQ(s, 1);
    // No rank is heavier than its fair share plus the heaviest process.
    uint64_t heaviest_process = 0;
    for (const auto& proc : procs) {
      uint64_t w = 0;
      for (uint64_t t : proc.second) w += std::max<uint64_t>(t, 1);
      heaviest_process = std::max(heaviest_process, w);
    }
    if (ranks <= nprocs) {
      for (uint64_t w : p.weight) EXPECT_LE(w, (total + ranks - 1) / ranks + heaviest_process);
    }
  }
}

TEST(MemoryEstimateTest, LinearInOwnedEvents) {
  // Model: fixed 1000 B, 100 B per location, 10 B per event (2 with wait states only); in a job
  // 50 B per location of the trace on the first rank and 30 B on every rank.
  analysis::MemoryModel model{1000, 100, 10, 2, 50, 30};
  Definitions defs = MakeDefs({{0, {50}}, {0, {70}}, {1, {30}}, {1, {50}}});
  std::vector<uint32_t> all{0, 1, 2, 3};
  // 1000 + 4*100 + 10*200 = 3400; wait states only: 1000 + 400 + 2*200 = 1800.
  EXPECT_EQ(analysis::EstimateAnalysisBytes(defs, all, true, model), 3400u);
  EXPECT_EQ(analysis::EstimateAnalysisBytes(defs, all, false, model), 1800u);
  // One rank is one process, without a job's costs: 3400.
  EXPECT_EQ(analysis::EstimatePerRankBytes(defs, 1, true, model), 3400u);
  // Two ranks own a node each (120 and 80 events): the first 1000 + 200 + 1200 + 4*50 + 30 =
  // 2630, the second 1000 + 200 + 800 + 30 = 2030.
  EXPECT_EQ(analysis::EstimatePerRankBytes(defs, 2, true, model), 2630u);
  // Limit 2630 needs two ranks; 2629 needs the process split of three ranks (one location of 50
  // or 70 events on the first, at most 1000 + 100 + 700 + 200 + 30 = 2030; 30+50 on another,
  // 1000 + 200 + 800 + 30 = 2030); 1100 fits nowhere: one location alone needs 1600.
  EXPECT_EQ(analysis::RanksNeeded(defs, 3400, true, model), 1u);
  EXPECT_EQ(analysis::RanksNeeded(defs, 2630, true, model), 2u);
  EXPECT_EQ(analysis::RanksNeeded(defs, 2629, true, model), 3u);
  EXPECT_EQ(analysis::RanksNeeded(defs, 1100, true, model), 0u);
}

}  // namespace
}  // namespace cw::trace
