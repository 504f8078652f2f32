// Wait states on K analysis ranks (threads standing in for an MPI job): each rank analyses the
// locations it owns from its share of the trace and the graph; every value of every metric, call
// path and owned location must be the single process's, bit for bit.
#include <gtest/gtest.h>

#include <algorithm>
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

// Two processes of three OpenMP threads each: a team per process, whose thread 2 on rank 1
// leaves its part early (limited parallelism), then MPI between the masters. A process's threads
// stay on one analysis rank however many there are (3 and 4 ranks leave some with nothing).
std::string WriteHybridOpenMpScenario() {
  testing::Scenario s(2);
  for (int r = 0; r < 2; ++r) {
    testing::RankScript& master = s.thread(r, 0);
    master.Enter(0, "main").Fork(2, 3).TeamBegin(2).Enter(2, "!$omp parallel");
    master.Call(3 + static_cast<uint64_t>(r), 6, "!$omp implicit barrier");
    master.Leave(6, "!$omp parallel").TeamEnd(6).Join(7);
    for (int k = 1; k <= 2; ++k) {
      testing::RankScript& t = s.thread(r, k);
      const uint64_t end = r == 1 && k == 2 ? 4 : 6;
      t.TeamBegin(2).Enter(2, "!$omp parallel");
      t.Call(std::min<uint64_t>(end, 3 + static_cast<uint64_t>(k)), end, "!$omp implicit barrier");
      t.Leave(end, "!$omp parallel").TeamEnd(end);
    }
  }
  s.rank(0).Send(8, 9, 1, 0, 64);
  s.rank(1).Recv(8, 10, 0, 0, 64);
  // The same region again, forked in solve: a worker's owner hangs this team under main/solve.
  for (int r = 0; r < 2; ++r) {
    testing::RankScript& master = s.thread(r, 0);
    master.Enter(12, "solve").Fork(12, 3).TeamBegin(12).Enter(12, "!$omp parallel");
    master.Leave(14, "!$omp parallel").TeamEnd(14).Join(15).Leave(15, "solve");
    for (int k = 1; k <= 2; ++k) {
      testing::RankScript& t = s.thread(r, k);
      t.TeamBegin(12)
          .Enter(12, "!$omp parallel")
          .Leave(12 + static_cast<uint64_t>(k), "!$omp parallel");
      t.TeamEnd(12 + static_cast<uint64_t>(k));
    }
    master.Leave(16, "main");
  }
  return s.WriteOrDie(testing::MakeTempDir("distributed-hybrid"));
}

TEST(DistributedWaitStatesTest, OpenMpThreadsGiveTheSameValuesOnTwoToFourRanks) {
  const std::string anchor = WriteHybridOpenMpScenario();
  // Each worker's second team runs under solve, as its master forked it.
  Result<trace::Trace> t = otf2::ReadTrace(anchor, otf2::ReadOptions{});
  ASSERT_TRUE(t);
  uint32_t in_solve = trace::kNone;
  for (uint32_t cp = 0; cp < t->call_tree.size(); ++cp) {
    if (t->CallpathName(cp) == "main/solve/!$omp parallel") in_solve = cp;
  }
  ASSERT_NE(in_solve, trace::kNone);
  for (uint32_t loc = 0; loc < t->location_count(); ++loc) {
    bool found = false;
    for (const auto& p : t->location(loc).profile()) found |= p.callpath == in_solve;
    EXPECT_TRUE(found) << "location " << loc;
  }
  for (uint32_t ranks = 2; ranks <= 4; ++ranks) {
    const trace::Partition partition = trace::PartitionLocations(t->defs, ranks);
    for (uint32_t loc = 0; loc < t->location_count(); ++loc) {
      const uint32_t master = t->defs.locations[loc].group == t->defs.locations[0].group ? 0 : 1;
      EXPECT_EQ(partition.owner[loc], partition.owner[master]) << "location " << loc;
    }
    CheckDistributedWaitStates(anchor, ranks);
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
