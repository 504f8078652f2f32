// `causeway analyze --advice` and `--baselines` from the command line.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "testing/scenario.h"
#include "tests/common/analysis_fixture.h"
#include "tests/common/paths.h"

namespace cw {
namespace {

std::string Slurp(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

TEST(AdviceCliTest, AnalyzeWritesTheBottlenecks) {
  const std::string dir = testing::MakeTempDir("advice-cli");
  const std::string anchor = test::LateSecondSend().WriteOrDie(dir);
  std::string out;
  ASSERT_EQ(test::RunCommand(test::CausewayBinary() + " analyze -q --advice " + anchor + " -o " +
                                 dir + "/report",
                             &out),
            0)
      << out;
  const nlohmann::json report = nlohmann::json::parse(Slurp(dir + "/report/report.json"));
  // The Late Sender with its root cause, b's imbalance (advice_test.cc), whose fix the replay
  // predicts to save 4 s (predicted_saving_test.cc).
  ASSERT_EQ(report["advice"]["findings"].size(), 1u);
  EXPECT_EQ(report["advice"]["findings"][0]["pattern"], "late_sender");
  EXPECT_EQ(report["advice"]["findings"][0]["predicted_saving"], 4.0);
  const std::string summary = Slurp(dir + "/report/summary.txt");
  EXPECT_NE(summary.find("Bottlenecks and what to do"), std::string::npos) << summary;
  EXPECT_NE(summary.find("saves: 4.00 s (predicted)"), std::string::npos) << summary;
  EXPECT_NE(summary.find("root:  main/b on rank 0 computes 8.00 s against a mean of 4.00 s"),
            std::string::npos)
      << summary;
  EXPECT_NE(summary.find("late_sender, caused by rank 0 in main/MPI_Send"), std::string::npos)
      << summary;

  // Baselines: a stricter deviation bound finds nothing without them, the baseline of
  // MPI_Recv (0.5 s: mean 11/3 is 7.3 times it) finds the receive again.
  const std::string baselines = dir + "/machine.baselines";
  std::ofstream(baselines) << "MPI_Recv 2 8 0.5\n";
  ASSERT_EQ(test::RunCommand(test::CausewayBinary() + " analyze -q --deviation-high 5 " +
                                 "--deviation-low 0.1 --baselines " + baselines + " " + anchor +
                                 " -o " + dir + "/with-baselines",
                             &out),
            0)
      << out;
  const nlohmann::json with = nlohmann::json::parse(Slurp(dir + "/with-baselines/report.json"));
  EXPECT_EQ(with["advice"]["baselines"], baselines);
  ASSERT_EQ(with["advice"]["findings"].size(), 1u);
  EXPECT_EQ(with["advice"]["findings"][0]["filter"], "baseline");
  EXPECT_EQ(with["advice"]["findings"][0]["expected"], 0.5);
  EXPECT_EQ(with["advice"]["parameters"]["deviation_high"], 5.0);

  // A malformed baselines file stops the analysis before reading, naming its line.
  std::ofstream(baselines) << "MPI_Recv 2 8\n";
  EXPECT_EQ(test::RunCommand(test::CausewayBinary() + " analyze -q --baselines " + baselines + " " +
                                 anchor + " -o " + dir + "/bad",
                             &out),
            1)
      << out;
  EXPECT_NE(out.find("machine.baselines:1"), std::string::npos) << out;
}

TEST(AdviceCliTest, AWaitWithoutImbalanceNamesTheDelayAnalysisRootCauses) {
  // Ranks that take turns being late (predicted_saving_test.cc derives the numbers): a on each
  // rank caused 4 s of the Late Sender waiting out of its 8 s, and shortening it so saves 6 s.
  const std::string dir = testing::MakeTempDir("advice-cli-delay");
  const std::string anchor = test::TakingTurns().WriteOrDie(dir);
  std::string out;
  ASSERT_EQ(test::RunCommand(
                test::CausewayBinary() + " analyze -q " + anchor + " -o " + dir + "/report", &out),
            0)
      << out;
  const nlohmann::json report = nlohmann::json::parse(Slurp(dir + "/report/report.json"));
  const nlohmann::json& findings = report["advice"]["findings"];
  ASSERT_EQ(findings.size(), 1u);
  EXPECT_EQ(findings[0]["pattern"], "late_sender");
  EXPECT_EQ(findings[0]["predicted_saving"], 6.0);
  ASSERT_EQ(findings[0]["root_causes"].size(), 2u);
  for (const nlohmann::json& root : findings[0]["root_causes"]) {
    EXPECT_EQ(root["source"], "delay");
    EXPECT_EQ(root["delay"], 4.0);
    EXPECT_EQ(root["time"], 8.0);
    EXPECT_EQ(root["mean"], 4.0);
  }
  const std::string summary = Slurp(dir + "/report/summary.txt");
  for (const char* rank : {"rank 0", "rank 1"}) {
    EXPECT_NE(summary.find(std::string("root:  main/a on ") + rank +
                           ": its excess time caused 4.00 s of this kind of waiting (delay "
                           "analysis; it computes 8.00 s there)"),
              std::string::npos)
        << summary;
  }
  EXPECT_NE(summary.find("saves: 6.00 s (predicted)"), std::string::npos) << summary;
}

}  // namespace
}  // namespace cw
