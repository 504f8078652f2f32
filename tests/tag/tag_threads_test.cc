// Task activity graphs of processes with OpenMP threads, built from hand-built traces: one graph
// per process, whose computation holds what the team computed. 1 tick = 1 s.
#include <gtest/gtest.h>

#include "tests/tag/tag_fixture.h"

namespace cw::test {
namespace {

using cw::testing::Scenario;
using tag::EdgeKind;

// Rank 0's master: main 0..20, MPI_Init 0..1, a team of 2 from 2 to 8 (the parallel region
// 2..7 with its implicit barrier 5..7), MPI_Barrier 9..10 and MPI_Finalize 16..17. Its OpenMP
// thread runs its part of the region 2..7 (barrier 6..7). Thread 2 of rank 0 calls MPI itself
// (MPI_THREAD_MULTIPLE): a barrier on MPI_COMM_SELF 3..4 in its part of the region.
Scenario TeamAndMpiThread() {
  Scenario s(1);
  s.thread(0, 0)
      .Enter(0, "main")
      .Call(0, 1, "MPI_Init")
      .Fork(2, 3)
      .TeamBegin(2)
      .Enter(2, "!$omp parallel")
      .Call(5, 7, "!$omp implicit barrier")
      .Leave(7, "!$omp parallel")
      .TeamEnd(7)
      .Join(8)
      .Collective(9, 10, "MPI_Barrier", OTF2_COLLECTIVE_OP_BARRIER, 0, 0)
      .Call(16, 17, "MPI_Finalize")
      .Leave(20, "main");
  s.thread(0, 1)
      .TeamBegin(2)
      .Enter(2, "!$omp parallel")
      .Call(6, 7, "!$omp implicit barrier")
      .Leave(7, "!$omp parallel")
      .TeamEnd(7);
  s.thread(0, 2)
      .TeamBegin(2)
      .Enter(2, "!$omp parallel")
      .Call(3, 4, "MPI_Comm_rank")
      .Call(6, 7, "!$omp implicit barrier")
      .Leave(7, "!$omp parallel")
      .TeamEnd(7);
  return s;
}

TEST(TagThreadsTest, OpenMpThreadsAreTheirProcesssComputation) {
  TagRun run = BuildScenarioTags(TeamAndMpiThread());
  // The master's graph and the graph of the thread that called MPI; the OpenMP thread that
  // made no MPI call has none of its own.
  ASSERT_EQ(run.graphs.processes.size(), 2u);
  // The master computes from MPI_Init's end (1) to MPI_Barrier (9), the team's region included.
  EXPECT_EQ(run.Local(0, EdgeKind::kFlow, "main/MPI_Init", "main/MPI_Barrier")->time.total, 8.0);
}

}  // namespace
}  // namespace cw::test
