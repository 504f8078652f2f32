// End to end on generated stencil traces: the generator simulates the program and computes the
// wait states from its own timeline with the definitions of docs/metrics.md; the analysis of the
// OTF2 file it wrote must find the same totals.
#include <gtest/gtest.h>

#include "bench/synthetic_trace.h"
#include "tests/common/analysis_fixture.h"

namespace cw::test {
namespace {

void Check(const bench::SyntheticTraceOptions& options, unsigned threads) {
  Result<bench::SyntheticTraceFacts> facts =
      bench::WriteSyntheticTrace(testing::MakeTempDir("synthetic"), options);
  ASSERT_TRUE(facts) << facts.error().message();
  Analysis a = AnalyzeFile(facts->anchor, threads);
  EXPECT_EQ(a.trace.RecordedEventCount(), facts->events);
  EXPECT_EQ(a.report.matching.messages, facts->messages);
  EXPECT_EQ(a.report.matching.collective_instances, facts->allreduces);
  EXPECT_EQ(a.report.matching.unmatched_sends + a.report.matching.unmatched_receives, 0u);
  // Nanosecond ticks summed in doubles: agreement to well below a nanosecond per instance.
  EXPECT_NEAR(a.Total("mpi_latesender"), facts->late_sender, 1e-9);
  EXPECT_NEAR(a.Total("mpi_latereceiver"), facts->late_receiver, 1e-9);
  EXPECT_NEAR(a.Total("mpi_wait_nxn"), facts->wait_nxn, 1e-9);
  EXPECT_NEAR(a.Total("mpi_nxn_completion"), facts->nxn_completion, 1e-9);
  EXPECT_GT(facts->late_sender, 0.0);
  EXPECT_EQ(a.report.trace.clock_violations_p2p + a.report.trace.clock_violations_collective, 0u);
  EXPECT_TRUE(a.report.diagnostics.empty());
}

TEST(SyntheticTraceTest, SixteenRanks) {
  bench::SyntheticTraceOptions o;
  o.ranks = 16;
  o.iterations = 30;
  o.imbalance = 0.4;
  Check(o, 2);
}

TEST(SyntheticTraceTest, OddGridAndSelfNeighbours) {
  // 6 ranks form a 2 x 3 grid; 2 ranks a 1 x 2 grid where a rank is its own left and right
  // neighbour (messages to itself).
  for (uint32_t ranks : {6u, 2u}) {
    SCOPED_TRACE(ranks);
    bench::SyntheticTraceOptions o;
    o.ranks = ranks;
    o.iterations = 20;
    o.seed = ranks;
    Check(o, 3);
  }
}

}  // namespace
}  // namespace cw::test
