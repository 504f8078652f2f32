// causeway against Scalasca 2.6 on the traces Scalasca could analyse: every metric both tools
// compute must agree per location (Scalasca's values, decoded from its Cube report, are in
// ../shared/peer-results/scalasca/<trace>/trace.metrics.json). Under `--semantics scalasca` the
// only difference left is Scalasca's Late Receiver defect; under causeway's own semantics the
// deliberate differences of docs/metrics.md are taken out first.
#include <cmath>
#include <fstream>
#include <map>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include <gtest/gtest.h>

#include "analysis/metrics/metric_catalog.h"
#include "tests/common/analysis_fixture.h"
#include "tests/common/paths.h"

namespace cw::test {
namespace {

using nlohmann::json;

// Scalasca metrics causeway does not compute, with the reason. A metric missing from both this
// list and causeway's catalog fails the test, so nothing is skipped silently.
const std::set<std::string>& NotComputed() {
  static const std::set<std::string> names = {
      // Scalasca's profile-based load-imbalance heuristic (zero for MPI-only runs here).
      "imbalance", "imbalance_above", "imbalance_above_single", "imbalance_below",
      "imbalance_below_bypass", "imbalance_below_singularity",
      // MPI one-sided counts and Wait for Progress (a passive target that is not calling MPI:
      // the trace does not say when the library made progress). Scalasca 2.6 ignores OTF2 RMA
      // records, so it reports them as zero.
      "mpi_rma_sync_wait_for_progress", "mpi_rma_comm_wait_for_progress", "syncs_rma",
      "syncs_rma_active", "syncs_rma_passive", "mpi_rma_pairsync_count",
      "mpi_rma_pairsync_unneeded_count", "comms_rma_atomics",
      // File operation counts and Cube's derived duplicate of bytes_rcvd.
      "mpi_file_ops", "mpi_file_iops", "mpi_file_irops", "mpi_file_iwops", "mpi_file_cops",
      "mpi_file_crops", "mpi_file_cwops", "bytes_received"};
  return names;
}

// Metrics both tools compute under different definitions (docs/metrics.md, "Differs from
// Scalasca"): causeway counts a process's time inside the analysis window only (from the last
// process's MPI_Init to the last process's MPI_Finalize), where Scalasca counts its whole trace,
// and follows the thesis' per-call-path imbalance indicator. Scenario tests check them exactly.
const std::set<std::string>& DefinedDifferently() {
  static const std::set<std::string> names = {
      "critical_path_imbalance",   "performance_impact",          "performance_impact_criticalpath",
      "critical_path_activities",  "critical_imbalance_impact",   "intra_partition_imbalance",
      "inter_partition_imbalance", "non_critical_path_activities"};
  return names;
}

// causeway-only children that Scalasca's parents lack: delay costs of Early Scan and Wait at
// Finalize, and the classification of collective wait states.
const std::map<std::string, std::vector<std::string>>& CausewayOnlyChildren() {
  static const std::map<std::string, std::vector<std::string>> children = {
      {"delay", {"delay_scan_aggregate", "delay_finalize_aggregate"}},
      {"delay_mpi", {"delay_scan_aggregate", "delay_finalize_aggregate"}},
      {"delay_collective", {"delay_scan_aggregate", "delay_finalize_aggregate"}},
      {"waitstates_direct_vs_indirect",
       {"mpi_wait_direct_collective", "mpi_wait_indirect_collective"}},
      {"mpi_wait_direct", {"mpi_wait_direct_collective"}},
      {"mpi_wait_indirect", {"mpi_wait_indirect_collective"}},
      {"waitstates_propagating_vs_terminal",
       {"mpi_wait_propagating_collective", "mpi_wait_terminal_collective"}},
      {"mpi_wait_propagating", {"mpi_wait_propagating_collective"}},
      {"mpi_wait_terminal", {"mpi_wait_terminal_collective"}}};
  return children;
}

// Late Receiver delay costs, and the parents that include them. Scalasca 2.6 computes the
// completion time of a Late Receiver synchronisation with the wrong sign, prunes the whole call
// from the next interval and, finding no excess time left, drops the wait's costs; causeway
// charges every wait in full. So causeway's values are at least Scalasca's, and the parents
// agree once that surplus is taken out.
const std::set<std::string>& IncludesLateReceiverCosts() {
  static const std::set<std::string> names = {"delay", "delay_mpi", "delay_p2p"};
  return names;
}

void CompareWithScalasca(const std::string& name, analysis::Semantics semantics) {
  SCOPED_TRACE(name + " under " + std::string(analysis::SemanticsName(semantics)) + " semantics");
  const bool own = semantics == analysis::Semantics::kCauseway;
  std::ifstream in(ScalascaResult(name, "trace.metrics.json"));
  ASSERT_TRUE(in) << "missing Scalasca results for " << name;
  json scalasca = json::parse(in);
  Analysis a = AnalyzeFile(RealTrace(name), 2, false, semantics);
  std::vector<uint32_t> location_of_rank;
  for (uint32_t loc = 0; loc < a.report.locations.size(); ++loc) {
    ASSERT_TRUE(a.report.locations[loc].rank);
    uint32_t rank = *a.report.locations[loc].rank;
    if (location_of_rank.size() <= rank) location_of_rank.resize(rank + 1);
    location_of_rank[rank] = loc;
  }
  auto theirs_at = [&](const std::string& metric, size_t rank) {
    return scalasca["metrics"][metric]["per_location"][rank].get<double>();
  };

  // Scalasca's critical path starts at MPI_Init's Enter on the location it reaches; causeway's
  // at the last process's arrival in MPI_Init. The difference is that launch skew.
  ASSERT_TRUE(a.result.critical_path && !a.result.critical_path->segments.empty());
  const uint32_t path_start = a.result.critical_path->segments.front().location;
  const uint32_t init = a.result.waitstates.sync.init_call.at(path_start);
  ASSERT_NE(init, trace::kNone);
  const double skew = a.trace.Seconds(static_cast<uint64_t>(a.result.critical_path->window.begin) -
                                      a.trace.location(path_start).time(init));

  int compared = 0;
  for (const auto& [metric, data] : scalasca["metrics"].items()) {
    if (!analysis::FindMetric(metric)) {
      EXPECT_TRUE(NotComputed().contains(metric))
          << "Scalasca metric " << metric << " is neither computed nor listed";
      continue;
    }
    if (!data.contains("per_location") || (own && DefinedDifferently().contains(metric))) continue;
    const json& theirs = data["per_location"];
    ASSERT_EQ(theirs.size(), location_of_rank.size()) << metric;
    for (size_t rank = 0; rank < theirs.size(); ++rank) {
      const uint32_t loc = location_of_rank[rank];
      double expected = theirs[rank].get<double>();
      double ours = a.LocationTotal(metric, loc);
      auto found = CausewayOnlyChildren().find(metric);
      if (own && found != CausewayOnlyChildren().end()) {
        for (const std::string& child : found->second) ours -= a.LocationTotal(child, loc);
      }
      double lr_surplus = a.LocationTotal("delay_latereceiver_aggregate", loc) -
                          theirs_at("delay_latereceiver_aggregate", rank);
      // Both tools subtract the same integer timestamps; differences come only from Cube's
      // float storage and summation order.
      double tolerance = 1e-9 + 1e-9 * std::fabs(expected);
      if (metric == "delay_latereceiver" || metric == "delay_latereceiver_aggregate") {
        EXPECT_GE(ours, expected - tolerance) << metric << " on rank " << rank;
        continue;
      }
      if (IncludesLateReceiverCosts().contains(metric)) ours -= lr_surplus;
      if (own && metric == "critical_path" && loc == path_start) ours += skew;
      EXPECT_NEAR(ours, expected, tolerance) << metric << " on rank " << rank;
    }
    ++compared;
  }
  EXPECT_GE(compared, 100);
  if (!own) {
    // Scalasca follows neither Wait at Finalize nor Early Scan and classifies point-to-point
    // waits only: those causeway-only children are empty, not merely taken out.
    for (const auto& [parent, children] : CausewayOnlyChildren()) {
      for (const std::string& child : children) EXPECT_EQ(a.Total(child), 0.0) << child;
    }
    EXPECT_EQ(a.report.semantics, "scalasca");
  }
}

using analysis::Semantics;

TEST(ScalascaAgreementTest, CasitaLateSenderAndBarrier) {
  CompareWithScalasca("4_mpi_ls_barr", Semantics::kCauseway);
}
TEST(ScalascaAgreementTest, PipitPingPong) {
  CompareWithScalasca("ping-pong-otf2", Semantics::kCauseway);
}
TEST(ScalascaAgreementTest, PipitPingPongWithPapiMetrics) {
  CompareWithScalasca("ping-pong-otf2-papi", Semantics::kCauseway);
}

// Under Scalasca's semantics nothing is taken out but the Late Receiver surplus: the critical
// path from MPI_Init's Enter, the performance impact and critical-path imbalance of Scalasca's
// definitions, and the delay and classification metrics without the waits Scalasca does not
// follow all equal Scalasca's values.
TEST(ScalascaAgreementTest, CasitaLateSenderAndBarrierUnderScalascaSemantics) {
  CompareWithScalasca("4_mpi_ls_barr", Semantics::kScalasca);
}
TEST(ScalascaAgreementTest, PipitPingPongUnderScalascaSemantics) {
  CompareWithScalasca("ping-pong-otf2", Semantics::kScalasca);
}
TEST(ScalascaAgreementTest, PipitPingPongWithPapiMetricsUnderScalascaSemantics) {
  CompareWithScalasca("ping-pong-otf2-papi", Semantics::kScalasca);
}

}  // namespace
}  // namespace cw::test
