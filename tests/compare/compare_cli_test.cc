// `causeway compare` on the command line: report directories and traces side by side, and the
// clear answers to bad input (a run that is neither, a single run, runs of different programs,
// labels that do not match the runs).
#include <gtest/gtest.h>

#include <fstream>
#include <string>

#include <nlohmann/json.hpp>

#include "testing/scenario.h"
#include "tests/common/analysis_fixture.h"
#include "tests/common/paths.h"

namespace cw::test {
namespace {

using nlohmann::json;

// A trace of `ranks` processes, each computing `work` s in `solve` and meeting in a barrier.
std::string WriteRun(int ranks, uint64_t work, const std::string& root = "main") {
  cw::testing::Scenario s(ranks);
  for (int r = 0; r < ranks; ++r) {
    s.rank(r)
        .Enter(0, root)
        .Call(0, work, "solve")
        .Collective(work, work + 1, "MPI_Barrier", OTF2_COLLECTIVE_OP_BARRIER, 0, 0)
        .Leave(work + 2, root);
  }
  return s.WriteOrDie(cw::testing::MakeTempDir("compare-run"));
}

TEST(CompareCliTest, ReportsAndTracesSideBySide) {
  // 2 processes: 10 s of solve; 4: 5 s. A report directory and a trace.
  const std::string report = cw::testing::MakeTempDir("compare-report");
  std::string out;
  ASSERT_EQ(RunCommand(CausewayBinary() + " analyze -q " + WriteRun(2, 10) + " -o " + report, &out),
            0)
      << out;
  const std::string dir = cw::testing::MakeTempDir("compare-out");
  ASSERT_EQ(RunCommand(CausewayBinary() + " compare -q " + report + " " + WriteRun(4, 5) +
                           " --label two,four -o " + dir,
                       &out),
            0)
      << out;
  std::ifstream in(dir + "/compare.json");
  const json c = json::parse(in);
  ASSERT_EQ(c.at("runs").size(), 2u);
  EXPECT_EQ(c["runs"][0].at("label"), "two");
  EXPECT_EQ(c["runs"][1].at("label"), "four");
  // Runtimes 12 s and 7 s: E(4) = (12 / 7) / 2.
  EXPECT_NEAR(c["runs"][1].at("efficiency").get<double>(), 12.0 / 7 / 2, 1e-9);
  bool solve = false;
  for (const json& p : c.at("callpaths")) {
    if (p.at("callpath") != "main/solve") continue;
    solve = true;
    EXPECT_NEAR(p.at("efficiency")[1].get<double>(), 1.0, 1e-9);  // 10 s -> 5 s on twice as many
  }
  EXPECT_TRUE(solve);
  std::ifstream summary(dir + "/summary.txt");
  EXPECT_TRUE(summary.good());
}

TEST(CompareCliTest, BadInputGetsAClearError) {
  std::string out;
  const std::string run = WriteRun(2, 10);
  // Neither a trace nor a report.
  const std::string empty = cw::testing::MakeTempDir("compare-empty");
  EXPECT_NE(RunCommand(CausewayBinary() + " compare " + run + " " + empty, &out), 0);
  EXPECT_NE(out.find("neither a report directory"), std::string::npos) << out;
  // A report.json that is not causeway's.
  std::ofstream(empty + "/report.json") << "{\"format\": \"something else\"}";
  EXPECT_NE(RunCommand(CausewayBinary() + " compare " + run + " " + empty, &out), 0);
  EXPECT_NE(out.find("not a causeway report"), std::string::npos) << out;
  // One run.
  EXPECT_NE(RunCommand(CausewayBinary() + " compare " + run, &out), 0);
  EXPECT_NE(out.find("at least two runs"), std::string::npos) << out;
  // Labels that do not match.
  EXPECT_NE(RunCommand(CausewayBinary() + " compare " + run + " " + run + " --label a", &out), 0);
  EXPECT_NE(out.find("1 labels for 2 runs"), std::string::npos) << out;
  // Runs of different programs: compared, with a warning.
  const std::string dir = cw::testing::MakeTempDir("compare-programs");
  EXPECT_EQ(RunCommand(CausewayBinary() + " compare -q " + run + " " + WriteRun(4, 5, "other") +
                           " -o " + dir,
                       &out),
            0)
      << out;
  std::ifstream in(dir + "/compare.json");
  const json c = json::parse(in);
  ASSERT_EQ(c.at("warnings").size(), 1u);
  EXPECT_NE(c["warnings"][0].get<std::string>().find("different programs"), std::string::npos);
}

}  // namespace
}  // namespace cw::test
