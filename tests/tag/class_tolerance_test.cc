// Behaviour classes on a noisy node: a process whose visits scatter (one descheduled iteration)
// joins its twin through the scatter allowance, a process that is slower on every iteration
// does not, and the document says why a class is not an earlier one.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "tag/document/tag_document.h"
#include "tag/output/tag_writers.h"
#include "tests/tag/tag_fixture.h"

namespace cw::test {
namespace {

using cw::testing::Scenario;

// Four ranks, ten iterations each: compute, then MPI_Barrier. Iteration i starts at
// B_i = 10 + 100 i; a rank computes c ticks and enters the barrier at B_i + c, which every rank
// leaves at B_i + 60. MPI_Init 1..2, MPI_Finalize 1010..1011, main 0..1013.
//   ranks 0 and 1: c = 20 in every iteration (rank 0, the communicator's first, lists the
//   barrier's other members in its graph: a class of its own, Sikora et al. 2016 §4.5);
//   rank 2: c = 20, but 45 in iteration 5 (descheduled for 25 ticks once);
//   rank 3: c = 25 in every iteration (5 ticks slower each time, 50 in all).
Scenario NoisyBarrierLoop() {
  Scenario s(4);
  for (int r = 0; r < 4; ++r) {
    s.rank(r).Enter(0, "main").Call(1, 2, "MPI_Init");
    for (uint64_t i = 0; i < 10; ++i) {
      const uint64_t base = 10 + 100 * i;
      uint64_t c = r == 3 ? 25 : 20;
      if (r == 2 && i == 5) c = 45;
      s.rank(r).Collective(base + c, base + 60, "MPI_Barrier", OTF2_COLLECTIVE_OP_BARRIER, 0, 0);
    }
    s.rank(r).Call(1010, 1011, "MPI_Finalize").Leave(1013, "main");
  }
  return s;
}

std::vector<std::vector<uint32_t>> Ranks(const TagRun& run,
                                         const std::vector<tag::Cluster>& clusters) {
  std::vector<std::vector<uint32_t>> ranks;
  for (const tag::Cluster& c : clusters) {
    std::vector<uint32_t>& members = ranks.emplace_back();
    for (uint32_t m : c.members) members.push_back(run.graphs.processes[m].rank);
  }
  return ranks;
}

TEST(ClassToleranceTest, ADescheduledIterationIsScatterASlowerRankIsNot) {
  const TagRun run = BuildScenarioTags(NoisyBarrierLoop());
  ASSERT_EQ(run.graphs.processes.size(), 4u);
  // Each rank's time is the whole run, 0..1013: the 2 % tolerance allows 20.26 ticks.
  for (uint32_t r = 0; r < 4; ++r) EXPECT_EQ(run.Rank(r).TotalTicks(), 1013.0) << r;
  // (Graphs are in location order, one location per rank: index = rank.)

  // Ranks 1 and 2 differ on two totals:
  //   the barrier (10 visits): 10 x (60 - 20) = 400 against 9 x 40 + (60 - 45) = 375;
  //   the flow edge from barrier to barrier (9 visits, iterations 1..9, 40 + c each):
  //   9 x 60 = 540 against 8 x 60 + 85 = 565.
  // Distance sqrt(25^2 + 25^2) = 35.36 > 20.26. Rank 1's visits do not scatter; rank 2's one
  // outlier d among n visits gives n s^2 = d^2 (m2 = (n-1)/n d^2, s^2 = m2 / (n-1)): 625 for
  // each total, a chance distance of sqrt(1250) = 35.36 and an allowance of three times that.
  tag::TimeDistance d12;
  EXPECT_EQ(tag::Compare(run.graphs.processes, 1, 2, {}, &d12), tag::Difference::kEquivalent);
  EXPECT_NEAR(d12.ticks, std::sqrt(1250.0), 1e-9);
  EXPECT_NEAR(d12.share_allowance, 20.26, 1e-9);
  EXPECT_NEAR(d12.noise_allowance, 3 * std::sqrt(1250.0), 1e-9);

  // Ranks 1 and 3: the barrier 400 against 10 x 35 = 350, the barrier-to-barrier edge 540
  // against 9 x 65 = 585, MPI_Init to the first barrier 28 (2..30) against 33 (2..35):
  // sqrt(50^2 + 45^2 + 5^2) = sqrt(4550) = 67.45. No visit scatters: no scatter allowance.
  // (Ranks 2 and 3: 375 against 350, 565 against 585, 28 against 33: sqrt(1050) = 32.40.)
  tag::TimeDistance d13;
  EXPECT_EQ(tag::Compare(run.graphs.processes, 1, 3, {}, &d13), tag::Difference::kTimes);
  EXPECT_NEAR(d13.ticks, std::sqrt(4550.0), 1e-9);
  EXPECT_EQ(d13.noise_allowance, 0.0);
  EXPECT_EQ(tag::Compare(run.graphs.processes, 0, 1, {}), tag::Difference::kStructure);

  const std::vector<tag::Cluster> classes = tag::ClusterProcesses(run.graphs.processes, {});
  EXPECT_EQ(Ranks(run, classes), (std::vector<std::vector<uint32_t>>{{0}, {1, 2}, {3}}));
  // Rank 3 meets the representatives 0 and 1, not rank 2. The tolerance alone (the seed's
  // reading) splits ranks 1 to 3: 35.36 and 32.40 are above 20.26.
  EXPECT_EQ(Ranks(run, tag::ClusterProcesses(run.graphs.processes, {.noise_sigmas = 0})),
            (std::vector<std::vector<uint32_t>>{{0}, {1}, {2}, {3}}));
  // Two sigmas allow 70.71 ticks between ranks 1 and 2: still three classes. 0.9 sigmas allow
  // 31.82: less than 35.36 (ranks 1 and 2) and than 32.40 (ranks 2 and 3), four classes.
  EXPECT_EQ(Ranks(run, tag::ClusterProcesses(run.graphs.processes, {.noise_sigmas = 2})).size(),
            3u);
  EXPECT_EQ(Ranks(run, tag::ClusterProcesses(run.graphs.processes, {.noise_sigmas = 0.9})).size(),
            4u);
}

TEST(ClassToleranceTest, TheDocumentSaysWhyAClassIsNotAnEarlierOne) {
  const TagRun run = BuildScenarioTags(NoisyBarrierLoop());
  tag::TagDocument doc;
  doc.source = "noisy";
  doc.processes = run.graphs.processes;
  tag::AnalyzeGraphs(doc);
  ASSERT_EQ(doc.clusters.size(), 3u);
  ASSERT_EQ(doc.class_contrasts.size(), 2u);
  // Class 2 (ranks 1, 2) is not class 1 (rank 0) by its structure.
  EXPECT_EQ(doc.class_contrasts[0].closest, 0u);
  EXPECT_EQ(doc.class_contrasts[0].difference, tag::Difference::kStructure);
  // Class 3 (rank 3) comes closest to class 2, by times: the distance and allowances of the
  // test above (in seconds in tag.json: the scenario's clock has one tick per second).
  const tag::ClassContrast& contrast = doc.class_contrasts[1];
  EXPECT_EQ(contrast.closest, 1u);
  EXPECT_EQ(contrast.difference, tag::Difference::kTimes);
  EXPECT_NEAR(contrast.distance.ticks, std::sqrt(4550.0), 1e-9);

  const nlohmann::json j = nlohmann::json::parse(tag::TagJson(doc));
  EXPECT_EQ(j["parameters"]["noise_sigmas"], 3.0);
  EXPECT_TRUE(j["clusters"][0]["differs_from"].is_null());
  EXPECT_EQ(j["clusters"][1]["differs_from"]["in"], "structure");
  EXPECT_FALSE(j["clusters"][1]["differs_from"].contains("distance"));
  const nlohmann::json& differs = j["clusters"][2]["differs_from"];
  EXPECT_EQ(differs["class"], 1);
  EXPECT_EQ(differs["in"], "times");
  const double tps = run.Rank(0).ticks_per_second;
  EXPECT_NEAR(differs["distance"].get<double>(), std::sqrt(4550.0) / tps, 1e-9);
  EXPECT_NEAR(differs["allowed_by_tolerance"].get<double>(), 20.26 / tps, 1e-9);
  EXPECT_EQ(differs["allowed_by_scatter"].get<double>(), 0.0);

  const std::string summary = tag::TagSummary(doc);
  EXPECT_NE(summary.find("3 behaviour classes (time tolerance 2% or 3 times the visits' scatter)"),
            std::string::npos)
      << summary;
  EXPECT_NE(summary.find("not class 1: other activities, edges or partners"), std::string::npos)
      << summary;
  EXPECT_NE(summary.find("not class 2: the same graph and counts, times "), std::string::npos)
      << summary;
}

}  // namespace
}  // namespace cw::test
