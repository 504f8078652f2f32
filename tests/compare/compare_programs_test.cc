// `causeway compare` end to end: a bundled MPI program (tests/programs/scaling.c) traced at 2,
// 3, 4, 6 and 8 processes (more than the cores: small steps), the traces compared as they are
// (analysed on the way); the call path built to scale badly, the all-to-all exchange whose data
// per process grows with the process count, is ranked first and scales worst, the computation
// divided among the processes scales well. Measured on a busy 2-core machine, the exchange's
// growth must stand above scheduling noise, which the barrier before it takes and which grows
// with the oversubscription too: each rank sends 2 MiB to every other one per step on 2
// processes, 8 MiB on 8 (with 4 MiB per pair on every count, a busy core made the barrier's
// extrapolation pass the exchange's in 2 runs of 3; at 256 KiB the exchange's times stayed flat
// enough for a constant fit), and 160 ms of work per step keeps the wake-up latency of 8
// oversubscribed ranks (a few ms per step on a busy machine) small beside main's share of 20 ms
// (with 80 ms, two busy cores took main's efficiency on 8 processes to 0.696).
#include <gtest/gtest.h>

#include <fstream>
#include <string>

#include <nlohmann/json.hpp>

#include "testing/scenario.h"
#include "tests/common/paths.h"
#include "tests/common/traced_program.h"

namespace cw::test {
namespace {

using nlohmann::json;

TEST(CompareProgramsTest, TheAllToAllIsRankedFirst) {
  std::string runs;
  for (int processes : {2, 3, 4, 6, 8})
    runs += " " + TraceProgram("scaling", processes, "10 160 2097152");
  const std::string out = cw::testing::MakeTempDir("compare-scaling");
  std::string output;
  ASSERT_EQ(RunCommand(CausewayBinary() + " compare" + runs + " -o " + out, &output), 0) << output;
  std::ifstream in(out + "/compare.json");
  const json c = json::parse(in);
  ASSERT_EQ(c.at("runs").size(), 5u);
  EXPECT_EQ(c.at("kind"), "scalability");
  EXPECT_EQ(c.at("target_processes"), 32);  // 4 x the largest run
  const json& first = c.at("callpaths")[0];
  EXPECT_EQ(first.at("callpath"), "main/MPI_Alltoall") << c.at("callpaths").dump(1);
  EXPECT_TRUE(first.at("model").is_string());
  EXPECT_TRUE(first.at("predicted").is_number());
  // It scales worst: its efficiency on 8 processes is the lowest; main's computation, divided
  // among the processes, stays near 1.
  for (const json& p : c.at("callpaths")) {
    if (p.at("callpath") == "main") {
      EXPECT_GT(p.at("efficiency")[4].get<double>(), 0.7);
    }
    if (p.at("callpath") == "main/MPI_Alltoall") {
      EXPECT_LT(p.at("efficiency")[4].get<double>(), 0.5);
    }
  }
  EXPECT_NE(output.find("Call paths that scale worst"), std::string::npos) << output;
  EXPECT_NE(output.find(" 1. main/MPI_Alltoall"), std::string::npos) << output;
}

}  // namespace
}  // namespace cw::test
