// The root-cause analyses on 200 random MPI programs with consistent clocks
// (testing/random_mpi_scenario.h): the invariants of root_cause_invariants.h hold on every one,
// and Scalasca's semantics change only what docs/metrics.md says they change.
#include <gtest/gtest.h>

#include <string>

#include "testing/random_mpi_scenario.h"
#include "tests/common/analysis_fixture.h"
#include "tests/common/root_cause_invariants.h"

namespace cw::test {
namespace {

using analysis::Semantics;

constexpr uint32_t kPrograms = 200;

TEST(RandomScenariosTest, RootCauseInvariantsHoldOnEveryProgram) {
  for (uint32_t seed = 0; seed < kPrograms; ++seed) {
    SCOPED_TRACE("random program " + std::to_string(seed));
    const Analysis a = AnalyzeScenario(testing::RandomMpiScenario(seed), 2);
    ASSERT_TRUE(a.result.critical_path);
    ExpectRootCauseInvariants(a);
    if (HasFailure()) return;  // one program's report is enough to debug
  }
}

// Under Scalasca's semantics the wait states stay (no probes in these programs), the critical
// path is at least the window (it starts at MPI_Init's Enter, never later than the window), and
// no delay cost exceeds the waiting time it explains (capped and dropped costs only shrink them).
TEST(RandomScenariosTest, ScalascaSemanticsKeepWaitStatesAndNeverAddCosts) {
  for (uint32_t seed = 0; seed < kPrograms; ++seed) {
    SCOPED_TRACE("random program " + std::to_string(seed));
    const testing::Scenario program = testing::RandomMpiScenario(seed);
    const Analysis own = AnalyzeScenario(program, 2);
    const Analysis scalasca = AnalyzeScenario(program, 2, Semantics::kScalasca);
    for (const char* wait : {"mpi_latesender", "mpi_barrier_wait", "mpi_wait_nxn",
                             "mpi_latebroadcast", "mpi_earlyreduce", "mpi_finalize_wait"}) {
      EXPECT_EQ(own.Total(wait), scalasca.Total(wait)) << wait;
    }
    ASSERT_TRUE(scalasca.result.critical_path);
    const analysis::CriticalPathResult& path = *scalasca.result.critical_path;
    EXPECT_GE(path.length + path.untracked, path.window.length());
    EXPECT_LE(scalasca.Total("delay_latesender_aggregate"),
              scalasca.Total("mpi_latesender") * (1 + 1e-12));
    EXPECT_LE(scalasca.Total("delay_collective"), own.Total("delay_collective") * (1 + 1e-12));
    EXPECT_EQ(scalasca.Total("delay_finalize_aggregate"), 0.0);
    EXPECT_EQ(scalasca.Total("mpi_wait_direct_collective"), 0.0);
    if (HasFailure()) return;
  }
}

}  // namespace
}  // namespace cw::test
