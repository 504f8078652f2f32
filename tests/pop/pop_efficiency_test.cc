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

}  // namespace
}  // namespace cw::test
