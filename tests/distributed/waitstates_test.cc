// Wait states on K analysis ranks (threads standing in for an MPI job): each rank analyses the
// locations it owns from its share of the trace and the graph; every value of every metric, call
// path and owned location must be the single process's, bit for bit.
#include <gtest/gtest.h>

#include <mutex>

#include "analysis/waitstates/waitstate_analysis.h"
#include "comm/local_group.h"
#include "job_read/owned_locations.h"
#include "match/matcher.h"
#include "testing/scenario.h"
#include "tests/common/paths.h"

namespace cw::job_read {
namespace {

void CheckDistributedWaitStates(const std::string& anchor, uint32_t ranks) {
  otf2::ReadOptions options;
  options.allow_partial = true;
  Result<trace::Trace> single_trace = otf2::ReadTrace(anchor, options);
  ASSERT_TRUE(single_trace) << anchor;
  const match::SyncGraph single_graph = match::MatchTrace(*single_trace, 2);
  analysis::WaitStateOptions single_options;
  single_options.threads = 2;
  const analysis::WaitStateResult single =
      analysis::AnalyzeWaitStates(*single_trace, single_graph, single_options);
  const trace::Partition partition = trace::PartitionLocations(single_trace->defs, ranks);
  const std::string where = anchor + " on " + std::to_string(ranks) + " ranks";
  std::mutex mutex;
  std::vector<uint64_t> offered(analysis::kMetricCount, 0);
  comm::LocalGroup::Run(ranks, [&](comm::Communicator& comm) {
    Result<trace::Trace> mine = ReadOwnedLocations(anchor, options, partition, comm);
    ASSERT_TRUE(mine) << where;
    const match::SyncGraph graph = match::MatchOwnedLocations(*mine, partition, comm, 2);
    analysis::WaitStateOptions wait_options;
    wait_options.threads = 2;
    wait_options.sync_edges = false;  // the root-cause analyses do not run across ranks yet
    wait_options.comm = &comm;
    wait_options.partition = &partition;
    const analysis::WaitStateResult result =
        analysis::AnalyzeWaitStates(*mine, graph, wait_options);
    std::lock_guard<std::mutex> lock(mutex);
    for (size_t m = 0; m < offered.size(); ++m) offered[m] += result.instance_counts[m];
    for (uint32_t loc : partition.owned[comm.rank()]) {
      for (int m = 0; m < analysis::kMetricCount; ++m) {
        const auto metric = static_cast<analysis::MetricId>(m);
        for (uint32_t cp = 0; cp < single_trace->call_tree.size(); ++cp) {
          ASSERT_EQ(result.severities[loc].Get(metric, cp), single.severities[loc].Get(metric, cp))
              << where << ", location " << loc << ", metric " << m << ", call path " << cp;
        }
      }
    }
  });
  for (size_t m = 0; m < offered.size(); ++m) {
    EXPECT_EQ(offered[m], single.instance_counts[m]) << where << ", instances of metric " << m;
  }
}

TEST(DistributedWaitStatesTest, EveryRealTraceGivesTheSameValuesOnTwoToFourRanks) {
  for (const std::string& name : test::RealTraceNames()) {
    for (uint32_t ranks = 2; ranks <= 4; ++ranks) {
      CheckDistributedWaitStates(test::RealTrace(name), ranks);
    }
  }
}

}  // namespace
}  // namespace cw::job_read
