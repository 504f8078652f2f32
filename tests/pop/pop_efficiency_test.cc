// The POP efficiencies on a hand-built run (one tick is one second).
#include <gtest/gtest.h>

#include "tests/common/analysis_fixture.h"

namespace cw::test {
namespace {

constexpr double kEps = 1e-12;

TEST(PopEfficiencyTest, LoadBalanceAndCommunicationEfficiency) {
  // rank 0: Init [0,1] compute [1,7] Send [7,8] Finalize [8,10]
  // rank 1: Init [0,1] compute [1,3] Recv [3,8] Finalize [8,10]
  // rank 2: Init [0,1] compute [1,5] setup [5,6] Finalize [6,10]
  // Useful computation (time outside MPI, user regions and main alike): 6, 2 and 5 s; runtime
  // 10 s. LB = avg 13/3 / max 6 = 13/18; CommE = 6/10; PE = LB * CommE = 13/30.
  testing::Scenario s(3);
  for (int r = 0; r < 3; ++r) s.rank(r).Enter(0, "main").Call(0, 1, "MPI_Init");
  s.rank(0).Call(1, 7, "compute").Send(7, 8, 1, 0, 8).Call(8, 10, "MPI_Finalize");
  s.rank(1).Call(1, 3, "compute").Recv(3, 8, 0, 0, 8).Call(8, 10, "MPI_Finalize");
  s.rank(2).Call(1, 5, "compute").Call(5, 6, "setup").Call(6, 10, "MPI_Finalize");
  for (int r = 0; r < 3; ++r) s.rank(r).Leave(10, "main");
  Analysis a = AnalyzeScenario(s);
  const report::PopSummary& pop = a.report.pop;
  EXPECT_NEAR(pop.runtime, 10.0, kEps);
  ASSERT_EQ(pop.computation.size(), 3u);
  EXPECT_NEAR(pop.computation[0].second, 6.0, kEps);
  EXPECT_NEAR(pop.computation[1].second, 2.0, kEps);
  EXPECT_NEAR(pop.computation[2].second, 5.0, kEps);
  EXPECT_EQ(pop.max_location, 0u);
  EXPECT_NEAR(pop.load_balance, 13.0 / 18, kEps);
  EXPECT_NEAR(pop.communication_efficiency, 0.6, kEps);
  EXPECT_NEAR(pop.parallel_efficiency, 13.0 / 30, kEps);
  // On an ideal network the send and the receive cost nothing: rank 0 sends at 7 and enters
  // MPI_Finalize at 7, rank 1 leaves its receive at max(3, 7) = 7 and enters at 7, rank 2 at
  // 6. MPI_Finalize (collective) keeps its measured cost after the last arrival, 10 - 8 = 2:
  // everyone leaves at 7 + 2 = 9, so T_ideal = 9. Serialisation = max C / T_ideal = 6/9,
  // transfer = T_ideal / T = 0.9, and their product is the communication efficiency 0.6.
  ASSERT_TRUE(pop.serialisation_efficiency.has_value());
  ASSERT_TRUE(pop.transfer_efficiency.has_value());
  EXPECT_NEAR(*pop.ideal_runtime, 9.0, kEps);
  EXPECT_NEAR(*pop.serialisation_efficiency, 6.0 / 9, kEps);
  EXPECT_NEAR(*pop.transfer_efficiency, 0.9, kEps);
  EXPECT_NEAR(*pop.serialisation_efficiency * *pop.transfer_efficiency,
              pop.communication_efficiency, kEps);
  // The computation per rank is the comp metric of the report.
  for (const auto& [location, seconds] : pop.computation) {
    EXPECT_NEAR(seconds, a.LocationTotal("comp", location), kEps);
  }
}

TEST(PopEfficiencyTest, HybridProgramsSplitIntoMpiAndOpenMpEfficiency) {
  // Two ranks of a master and one OpenMP thread; a team from 3 to 11 on each (no management
  // time: fork, team begin, team end and join coincide).
  //   rank 0 master: Init [0,1] compute [1,3] team: compute [3,7] barrier [7,11]; Send [11,12]
  //                  compute [12,18] Finalize [18,20]
  //   rank 0 thread: team: compute [3,10] barrier [10,11]
  //   rank 1 master: Init [0,1] compute [1,3] team: compute [3,10] barrier [10,11]; Recv [11,14]
  //                  compute [14,16] Finalize [16,20]
  //   rank 1 thread: team: compute [3,5] barrier [5,11]
  // Useful computation 12, 7, 11 and 2 s; runtime 20 s: LB = avg 8 / max 12 = 2/3, CommE =
  // 12/20, PE = 8/20. The masters' MPI time is 1 + 1 + 2 = 4 and 1 + 3 + 4 = 8 s, so their time
  // outside MPI is O = 16 and 12 s: MPI LB = avg 14 / max 16 = 7/8, MPI CommE = 16/20, MPI PE =
  // 14/20; OpenMP LB = (2/3) / (7/8) = 16/21, OpenMP CommE = 12/16 (maximum computation over
  // maximum time outside MPI), OpenMP PE = (8/20) / (14/20) = 4/7.
  testing::Scenario s(2);
  for (int r = 0; r < 2; ++r) {
    testing::RankScript& master = s.thread(r, 0);
    testing::RankScript& worker = s.thread(r, 1);
    master.Enter(0, "main").Call(0, 1, "MPI_Init").Fork(3, 2).TeamBegin(3);
    master.Enter(3, "!$omp parallel").Call(r == 0 ? 7 : 10, 11, "!$omp implicit barrier");
    master.Leave(11, "!$omp parallel").TeamEnd(11).Join(11);
    worker.TeamBegin(3).Enter(3, "!$omp parallel");
    worker.Call(r == 0 ? 10 : 5, 11, "!$omp implicit barrier").Leave(11, "!$omp parallel");
    worker.TeamEnd(11);
  }
  s.rank(0).Send(11, 12, 1, 0, 8).Call(18, 20, "MPI_Finalize").Leave(20, "main");
  s.rank(1).Recv(11, 14, 0, 0, 8).Call(16, 20, "MPI_Finalize").Leave(20, "main");
  Analysis a = AnalyzeScenario(s);
  const report::PopSummary& pop = a.report.pop;
  EXPECT_NEAR(pop.runtime, 20.0, kEps);
  ASSERT_EQ(pop.computation.size(), 4u);
  EXPECT_NEAR(pop.computation[0].second, 12.0, kEps);
  EXPECT_NEAR(pop.computation[1].second, 11.0, kEps);
  EXPECT_NEAR(pop.computation[2].second, 7.0, kEps);
  EXPECT_NEAR(pop.computation[3].second, 2.0, kEps);
  EXPECT_NEAR(pop.load_balance, 2.0 / 3, kEps);
  EXPECT_NEAR(pop.communication_efficiency, 0.6, kEps);
  EXPECT_NEAR(pop.parallel_efficiency, 0.4, kEps);
  ASSERT_TRUE(pop.hybrid.has_value());
  const report::PopHybridSummary& h = *pop.hybrid;
  ASSERT_EQ(h.outside_mpi.size(), 2u);
  EXPECT_NEAR(h.outside_mpi[0].second, 16.0, kEps);
  EXPECT_NEAR(h.outside_mpi[1].second, 12.0, kEps);
  EXPECT_EQ(h.max_master, h.outside_mpi[0].first);
  EXPECT_NEAR(h.mpi_load_balance, 7.0 / 8, kEps);
  EXPECT_NEAR(h.mpi_communication_efficiency, 0.8, kEps);
  EXPECT_NEAR(h.mpi_parallel_efficiency, 0.7, kEps);
  EXPECT_NEAR(h.omp_load_balance, 16.0 / 21, kEps);
  EXPECT_NEAR(h.omp_communication_efficiency, 0.75, kEps);
  EXPECT_NEAR(h.omp_parallel_efficiency, 4.0 / 7, kEps);
  EXPECT_NEAR(h.mpi_parallel_efficiency * h.omp_parallel_efficiency, pop.parallel_efficiency, kEps);
}

TEST(PopEfficiencyTest, PureMpiProgramsHaveNoHybridModel) {
  testing::Scenario s(2);
  for (int r = 0; r < 2; ++r) s.rank(r).Enter(0, "main").Call(0, 1, "MPI_Init").Leave(4, "main");
  EXPECT_FALSE(AnalyzeScenario(s).report.pop.hybrid.has_value());
}

}  // namespace
}  // namespace cw::test
