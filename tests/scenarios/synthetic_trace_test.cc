// End to end on generated stencil traces: the generator simulates the program and computes the
// wait states from its own timeline with the definitions of docs/metrics.md; the analysis of the
// OTF2 file it wrote must find the same totals.
#include <gtest/gtest.h>

#include <algorithm>

#include "bench/synthetic_trace.h"
#include "tests/common/analysis_fixture.h"
#include "tests/common/root_cause_invariants.h"

namespace cw::test {
namespace {

Analysis Check(const bench::SyntheticTraceOptions& options, unsigned threads) {
  Result<bench::SyntheticTraceFacts> facts =
      bench::WriteSyntheticTrace(testing::MakeTempDir("synthetic"), options);
  EXPECT_TRUE(facts) << facts.error().message();
  if (!facts) return {};
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
  return a;
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

TEST(SyntheticTraceTest, LongRunKeepsRootCauseInvariants) {
  // 4 ranks x 500 iterations: each rank delays its neighbours at about two thousand calls, more
  // than the sync points sort by comparison, and its roles must still come out in time order.
  bench::SyntheticTraceOptions o;
  o.ranks = 4;
  o.iterations = 500;
  o.imbalance = 0.5;
  Analysis a = Check(o, 2);
  ASSERT_TRUE(a.result.sync_points);
  size_t most_delayer_roles = 0;
  for (uint32_t loc : a.result.sync_points->participants) {
    size_t delayer_roles = 0;
    for (const analysis::SyncRole& r : a.result.sync_points->locations[loc].roles) {
      delayer_roles += r.kind == analysis::RoleKind::kDelayer ? 1 : 0;
    }
    most_delayer_roles = std::max(most_delayer_roles, delayer_roles);
  }
  EXPECT_GT(most_delayer_roles, 1000u);
  ExpectRootCauseInvariants(a);
}

}  // namespace
}  // namespace cw::test
