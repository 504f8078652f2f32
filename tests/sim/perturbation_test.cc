// Parsing of the what-if changes, and the random durations of noise.
#include <cmath>
#include <random>

#include <gtest/gtest.h>

#include "sim/distribution.h"
#include "sim/perturbation.h"
#include "sim/whatif.h"

namespace cw::sim {
namespace {

TEST(PerturbationTest, RankSets) {
  RankSet s = *ParseRankSet("0-3,8");
  EXPECT_TRUE(s.Contains(0));
  EXPECT_TRUE(s.Contains(3));
  EXPECT_FALSE(s.Contains(4));
  EXPECT_TRUE(s.Contains(8));
  EXPECT_EQ(s.Describe(), "ranks 0-3,8");
  EXPECT_TRUE(RankSet().all());
  EXPECT_FALSE(ParseRankSet("").has_value());
  EXPECT_FALSE(ParseRankSet("a").has_value());
  EXPECT_FALSE(ParseRankSet("4-2").has_value());
}

TEST(PerturbationTest, ComputeScales) {
  ComputeScale all = *ParseComputeScale("0.5");
  EXPECT_EQ(all.region, "");
  EXPECT_EQ(all.factor, 0.5);
  EXPECT_TRUE(all.ranks.all());
  ComputeScale region = *ParseComputeScale("solve=2@1");
  EXPECT_EQ(region.region, "solve");
  EXPECT_EQ(region.factor, 2);
  EXPECT_TRUE(region.ranks.Contains(1));
  EXPECT_FALSE(region.ranks.Contains(0));
  // Region names may hold '=' (C++ operators): the factor follows the last one.
  EXPECT_EQ(ParseComputeScale("operator==3")->region, "operator=");
  EXPECT_FALSE(ParseComputeScale("solve=").has_value());
  EXPECT_FALSE(ParseComputeScale("=2").has_value());
}

TEST(DistributionTest, ParametricFamiliesHaveTheirMeans) {
  std::mt19937_64 rng(7);
  for (const char* spec : {"const:2us", "uniform:min=1us,max=3us", "exp:mean=2us",
                           "normal:mean=2us,sd=0.1us", "lognormal:mean=2us,sigma=0.5"}) {
    Distribution d = *ParseDistribution(spec);
    EXPECT_NEAR(d.Mean(), 2e-6, 1e-12) << spec;
    double sum = 0;
    const int n = 200000;
    for (int i = 0; i < n; ++i) {
      double x = d.Draw(rng);
      ASSERT_GE(x, 0) << spec;
      sum += x;
    }
    EXPECT_NEAR(sum / n, 2e-6, 0.03 * 2e-6) << spec;
  }
}

TEST(DistributionTest, EmpiricalDrawsOnlyItsSamplesAndSeedsRepeat) {
  Distribution d = *EmpiricalDistribution({1e-6, 5e-6}, "test");
  std::mt19937_64 a(3), b(3);
  for (int i = 0; i < 100; ++i) {
    double x = d.Draw(a);
    EXPECT_TRUE(x == 1e-6 || x == 5e-6);
    EXPECT_EQ(x, d.Draw(b));
  }
  EXPECT_FALSE(EmpiricalDistribution({}, "empty").has_value());
}

TEST(DistributionTest, SpecErrorsNameTheProblem) {
  EXPECT_FALSE(ParseDistribution("exp").has_value());
  EXPECT_FALSE(ParseDistribution("exp:2us").has_value());
  EXPECT_FALSE(ParseDistribution("uniform:min=3us,max=1us").has_value());
  EXPECT_FALSE(ParseDistribution("lognormal:mean=0us,sigma=1").has_value());
  EXPECT_FALSE(ParseDistribution("normal:mean=1us,sd=1us,sd=2us").has_value());
}

TEST(NetworkEstimateTest, LatencyAndTimePerByteFromLowPercentiles) {
  // One tick per nanosecond. Small messages of 2000 + 100 i ns (i = 0..10): the 10th percentile
  // of the 11 values is the second, 2100 ns. Large ones of 1 MiB take the latency plus
  // 1 + 0.1 i ns per byte: the 10th percentile is again the second, 1.1 ns per byte.
  std::vector<TransferSample> samples;
  for (int i = 0; i <= 10; ++i) samples.push_back({64, static_cast<uint64_t>(2000 + 100 * i)});
  for (int i = 0; i <= 10; ++i) {
    samples.push_back({1 << 20, static_cast<uint64_t>(2100 + (1 << 20) * (1 + 0.1 * i))});
  }
  NetworkEstimate e = EstimateNetwork(samples, 1e9);
  ASSERT_TRUE(e.latency.has_value());
  EXPECT_NEAR(*e.latency, 2100e-9, 1e-15);
  ASSERT_TRUE(e.per_byte.has_value());
  EXPECT_NEAR(*e.per_byte, 1.1e-9, 1e-14);
  EXPECT_FALSE(EstimateNetwork({}, 1e9).latency.has_value());
}

}  // namespace
}  // namespace cw::sim
