// The time tree: each call path's exclusive time goes to one category and all its ancestors.
#include <gtest/gtest.h>

#include "tests/common/analysis_fixture.h"

namespace cw::test {
namespace {

// One rank, 100 s: main [0,100] holds MPI_Init [0,10], compute [10,40], MPI_Comm_rank [40,41],
// MPI_Send [41,43], MPI_Barrier [43,50], MPI_Wtime [50,51], MPI_Finalize [90,100]. main itself
// keeps 100 - (10+30+1+2+7+1+10) = 39 s of computation.
Analysis OneRank() {
  testing::Scenario s(1);
  s.rank(0)
      .Enter(0, "main")
      .Call(0, 10, "MPI_Init")
      .Call(10, 40, "compute")
      .Call(40, 41, "MPI_Comm_rank")
      .Send(41, 43, 0, 0, 8)
      .Collective(43, 50, "MPI_Barrier", OTF2_COLLECTIVE_OP_BARRIER, 0, 0)
      .Call(50, 51, "MPI_Wtime")
      .Call(90, 100, "MPI_Finalize")
      .Leave(100, "main");
  return AnalyzeScenario(s);
}

TEST(TimeTreeTest, CategoriesAndInclusiveParents) {
  Analysis a = OneRank();
  EXPECT_EQ(a.Total("time"), 100.0);
  EXPECT_EQ(a.Total("execution"), 100.0);
  EXPECT_EQ(a.Total("comp"), 69.0);  // main 39 + compute 30
  EXPECT_EQ(a.Value("comp", "main", 0), 39.0);
  EXPECT_EQ(a.Value("comp", "main/compute", 0), 30.0);
  EXPECT_EQ(a.Total("mpi"), 31.0);
  EXPECT_EQ(a.Total("mpi_init_exit"), 20.0);
  EXPECT_EQ(a.Total("mpi_mgmt_comm"), 1.0);
  EXPECT_EQ(a.Total("mpi_management"), 21.0);
  EXPECT_EQ(a.Total("mpi_point2point"), 2.0);
  EXPECT_EQ(a.Total("mpi_communication"), 2.0);
  EXPECT_EQ(a.Total("mpi_sync_collective"), 7.0);
  EXPECT_EQ(a.Total("mpi_synchronization"), 7.0);
  // MPI_Wtime belongs to no sub-category: its second stays in the bare "mpi" node.
  EXPECT_EQ(a.Value("mpi", "main/MPI_Wtime", 0), 1.0);
  EXPECT_EQ(a.Value("mpi_management", "main/MPI_Wtime", 0), 0.0);
  EXPECT_EQ(a.Total("overhead"), 0.0);
}

TEST(TimeTreeTest, ExclusiveAlongTheCallTree) {
  Analysis a = OneRank();
  // time at a call path is its own time, not its children's.
  EXPECT_EQ(a.Value("time", "main", 0), 39.0);
  EXPECT_EQ(a.Value("time", "main/MPI_Barrier", 0), 7.0);
}

TEST(TimeTreeTest, Visits) {
  testing::Scenario s(1);
  s.rank(0).Enter(0, "main").Call(1, 2, "f").Call(3, 4, "f").Call(5, 6, "f").Leave(9, "main");
  Analysis a = AnalyzeScenario(s);
  EXPECT_EQ(a.Value("visits", "main/f", 0), 3.0);
  EXPECT_EQ(a.Value("visits", "main", 0), 1.0);
  EXPECT_EQ(a.Total("visits"), 4.0);
}

TEST(TimeTreeTest, MeasurementGapsAreComputation) {
  // main [0, 10] with measurement off from 2 to 6: the 4 s appear under main/MEASUREMENT OFF.
  testing::Scenario s(1);
  s.rank(0).Enter(0, "main").MeasurementOnOff(2, false).MeasurementOnOff(6, true).Leave(10, "main");
  Analysis a = AnalyzeScenario(s);
  EXPECT_EQ(a.Value("comp", "main/MEASUREMENT OFF", 0), 4.0);
  EXPECT_EQ(a.Value("comp", "main", 0), 6.0);
  EXPECT_EQ(a.Total("time"), 10.0);
}

}  // namespace
}  // namespace cw::test
