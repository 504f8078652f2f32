// The automatic bottleneck analysis on every real Score-P trace: well-formed findings, the same
// on any thread count, and the bottlenecks of the traces whose programs are known.
#include <gtest/gtest.h>

#include <algorithm>

#include <nlohmann/json.hpp>

#include "report/json_writer.h"
#include "tests/common/analysis_fixture.h"
#include "tests/common/paths.h"

namespace cw::analysis {
namespace {

using test::Analysis;

Analysis AdviseOn(const std::string& anchor, unsigned threads) {
  AnalysisOptions options;
  options.threads = threads;
  options.advice = true;
  return test::AnalyzeFileWith(anchor, options);
}

void ExpectWellFormed(const Analysis& a) {
  const Advice& advice = *a.result.advice;
  const uint32_t callpaths = static_cast<uint32_t>(a.trace.call_tree.size());
  const uint32_t locations = a.trace.location_count();
  double previous = 1e300;
  for (const AdviceFinding& f : advice.findings) {
    SCOPED_TRACE(std::string(AdvicePatternName(f.pattern)) + " at " +
                 a.trace.CallpathName(f.callpath));
    EXPECT_LT(f.callpath, callpaths);
    EXPECT_FALSE(f.locations.empty());
    EXPECT_TRUE(std::is_sorted(f.locations.begin(), f.locations.end()));
    for (uint32_t l : f.locations) EXPECT_LT(l, locations);
    for (const AdviceCause& c : f.causes) {
      EXPECT_LT(c.location, locations);
      EXPECT_GT(c.instances, 0u);
      EXPECT_LE(c.instances, f.bottleneck_instances);
    }
    EXPECT_LE(f.bottleneck_time, f.time);
    EXPECT_GE(ExcessTime(f), 0.0);
    EXPECT_LE(ExcessTime(f), previous + 1e-9);  // ranked
    previous = ExcessTime(f);
    if (f.filter != DetectionFilter::kNone) {
      uint64_t counted = 0;
      for (uint64_t n : f.pattern_counts) counted += n;
      EXPECT_EQ(counted, f.bottleneck_instances);
      EXPECT_LE(f.bottleneck_instances, f.instances);
      EXPECT_GT(f.bottleneck_instances, 0u);
    }
    EXPECT_FALSE(f.hints.empty());
  }
  EXPECT_EQ(advice.load_balance.processes.size(), [&] {
    uint32_t n = 0;
    for (uint32_t l = 0; l < locations; ++l) n += a.trace.location(l).empty() ? 0u : 1u;
    return n;
  }());
}

TEST(AdviceRealTracesTest, EveryTraceGetsWellFormedFindingsOnAnyThreadCount) {
  for (const std::string& name : test::RealTraceNames()) {
    SCOPED_TRACE(name);
    const std::string anchor = test::RealTrace(name) + "/traces.otf2";
    Analysis one = AdviseOn(anchor, 1);
    ASSERT_TRUE(one.result.advice.has_value());
    ExpectWellFormed(one);
    Analysis two = AdviseOn(anchor, 2);
    EXPECT_EQ(nlohmann::json::parse(report::ToJson(one.report))["advice"],
              nlohmann::json::parse(report::ToJson(two.report))["advice"]);
  }
}

TEST(AdviceRealTracesTest, CasitaLateSenderChainAndBarrier) {
  // gen_mpi.c (real_traces_test.cc has its wait states): rank 0 computes 10x longer, then a
  // chain of blocking messages 0 -> 1 -> 2 -> 3, then a barrier rank 0 enters last. The
  // barrier's waiting members wait for rank 0; rank 0's computation is the imbalance.
  Analysis a = AdviseOn(test::RealTrace("4_mpi_ls_barr") + "/traces.otf2", 2);
  std::vector<std::string> found;
  for (const AdviceFinding& f : a.result.advice->findings) {
    found.push_back(std::string(AdvicePatternName(f.pattern)) + " at " +
                    a.trace.CallpathName(f.callpath));
  }
  auto has = [&](const std::string& s) {
    return std::find(found.begin(), found.end(), s) != found.end();
  };
  std::string all;
  for (const std::string& f : found) all += f + "\n";
  EXPECT_TRUE(has("wait_on_group at main/barrier/MPI_Barrier")) << all;
}

}  // namespace
}  // namespace cw::analysis
