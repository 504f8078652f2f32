// The causeway command as users run it: help, exit codes and messages for bad input, files.
#include <filesystem>
#include <fstream>
#include <iterator>

#include <nlohmann/json.hpp>

#include <gtest/gtest.h>

#include "testing/scenario.h"
#include "tests/common/paths.h"

namespace cw::test {
namespace {

namespace fs = std::filesystem;

int Causeway(const std::string& args, std::string* output) {
  return RunCommand(CausewayBinary() + " " + args, output);
}

std::string SmallTrace(const std::string& name) {
  testing::Scenario s(2);
  s.rank(0).Enter(0, "main").Send(10, 11, 1, 0, 8).Leave(20, "main");
  s.rank(1).Enter(0, "main").Recv(4, 12, 0, 0, 8).Leave(20, "main");
  return s.WriteOrDie(testing::MakeTempDir(name));
}

TEST(CliTest, HelpOnEverySubcommand) {
  std::string out;
  EXPECT_EQ(Causeway("--help", &out), 0);
  EXPECT_NE(out.find("analyze"), std::string::npos);
  EXPECT_NE(out.find("info"), std::string::npos);
  EXPECT_EQ(Causeway("analyze --help", &out), 0);
  EXPECT_NE(out.find("--threads"), std::string::npos);
  EXPECT_NE(out.find("--output"), std::string::npos);
  EXPECT_EQ(Causeway("info --help", &out), 0);
  EXPECT_NE(out.find("--json"), std::string::npos);
}

TEST(CliTest, UsageErrorsExitWithOne) {
  std::string out;
  EXPECT_EQ(Causeway("", &out), 1);
  EXPECT_EQ(Causeway("analyze", &out), 1);  // no trace
  EXPECT_EQ(Causeway("analyze --no-such-option x", &out), 1);
  EXPECT_EQ(Causeway("analyze --threads 0 x", &out), 1);
  EXPECT_EQ(Causeway("analyze --semantics scout x", &out), 1);
  EXPECT_NE(out.find("scalasca"), std::string::npos) << out;  // names what it accepts
  EXPECT_EQ(Causeway("frobnicate", &out), 1);
}

TEST(CliTest, MissingPath) {
  std::string out;
  EXPECT_EQ(Causeway("analyze /nonexistent/trace", &out), 2);
  EXPECT_NE(out.find("no such file or directory: /nonexistent/trace"), std::string::npos) << out;
}

TEST(CliTest, DirectoryWithoutAnchor) {
  std::string dir = testing::MakeTempDir("cli-noanchor");
  std::string out;
  EXPECT_EQ(Causeway("analyze " + dir, &out), 2);
  EXPECT_NE(out.find("holds no OTF2 anchor"), std::string::npos) << out;
}

TEST(CliTest, FileThatIsNotOtf2) {
  std::string dir = testing::MakeTempDir("cli-nototf2");
  std::ofstream(dir + "/results.otf2") << "not a trace";
  std::string out;
  EXPECT_EQ(Causeway("info " + dir + "/results.otf2", &out), 2);
  EXPECT_NE(out.find("is not an OTF2 anchor file"), std::string::npos) << out;
}

TEST(CliTest, MissingEventFilesAndPartialAnalysis) {
  std::string anchor = SmallTrace("cli-missing");
  fs::remove(fs::path(anchor).parent_path() / "traces" / "1.evt");
  std::string out;
  EXPECT_EQ(Causeway("analyze -q " + anchor + " -o " + testing::MakeTempDir("cli-out"), &out), 2);
  EXPECT_NE(out.find("location 1"), std::string::npos) << out;
  EXPECT_NE(out.find("--partial"), std::string::npos) << out;
  std::string report = testing::MakeTempDir("cli-partial");
  EXPECT_EQ(Causeway("analyze --partial " + anchor + " -o " + report, &out), 0) << out;
  EXPECT_NE(out.find("otf2.truncated_location"), std::string::npos) << out;
}

TEST(CliTest, TruncatedEventFile) {
  std::string anchor = SmallTrace("cli-truncated");
  fs::path evt = fs::path(anchor).parent_path() / "traces" / "0.evt";
  fs::resize_file(evt, fs::file_size(evt) - 5);
  std::string out;
  EXPECT_EQ(Causeway("analyze -q " + anchor + " -o " + testing::MakeTempDir("cli-out"), &out), 2);
  EXPECT_NE(out.find("location 0"), std::string::npos) << out;
}

TEST(CliTest, AnalyzeWritesTheReportDirectory) {
  std::string anchor = SmallTrace("cli-ok");
  std::string report = testing::MakeTempDir("cli-report") + "/nested/out";
  std::string out;
  ASSERT_EQ(Causeway("analyze --threads 2 " + anchor + " -o " + report, &out), 0) << out;
  EXPECT_NE(out.find("Late Sender"), std::string::npos) << out;
  std::ifstream json_file(report + "/report.json");
  ASSERT_TRUE(json_file);
  nlohmann::json j = nlohmann::json::parse(json_file);
  EXPECT_EQ(j["format"], "causeway-report");
  std::ifstream summary(report + "/summary.txt");
  ASSERT_TRUE(summary);
  EXPECT_TRUE(fs::exists(report + "/report.cubex"));
}

// --semantics scalasca says so in report.json and summary.txt; the default says causeway.
TEST(CliTest, AnalyzeNamesTheSemanticsOfItsRootCauseMetrics) {
  const std::string anchor = SmallTrace("cli-semantics");
  for (const std::string semantics : {"causeway", "scalasca"}) {
    const std::string report = testing::MakeTempDir("cli-semantics-" + semantics);
    const std::string flag = semantics == "causeway" ? "" : " --semantics scalasca";
    std::string out;
    ASSERT_EQ(Causeway("analyze -q" + flag + " " + anchor + " -o " + report, &out), 0) << out;
    std::ifstream json_file(report + "/report.json");
    ASSERT_TRUE(json_file);
    EXPECT_EQ(nlohmann::json::parse(json_file)["semantics"], semantics);
    std::ifstream summary_file(report + "/summary.txt");
    const std::string summary((std::istreambuf_iterator<char>(summary_file)),
                              std::istreambuf_iterator<char>());
    EXPECT_EQ(summary.find("Metrics: Scalasca 2.6's definitions") != std::string::npos,
              semantics == "scalasca")
        << summary;
  }
}

TEST(CliTest, MemoryLimitRefusesBeforeReading) {
  std::string anchor = SmallTrace("cli-memlimit");
  std::string report = testing::MakeTempDir("cli-memlimit-report") + "/out";
  std::string out;
  // Two locations of 5 declared events (Enter, Enter MPI, send/receive, Leave MPI, Leave): the
  // estimate is 32 MiB fixed + 2 x 256 KiB + 10 x 44 B = 34079160 B = 32.5 MiB.
  EXPECT_EQ(Causeway("analyze -q " + anchor + " -o " + report + " --memory-limit 1MiB", &out), 4)
      << out;
  EXPECT_NE(out.find("needs about 32.5 MiB of memory, more than --memory-limit 1 MiB"),
            std::string::npos)
      << out;
  EXPECT_FALSE(fs::exists(report));  // refused before anything was read or written
  EXPECT_EQ(Causeway("analyze -q " + anchor + " -o " + report + " --memory-limit 40MB", &out), 0)
      << out;
  EXPECT_EQ(Causeway("analyze -q " + anchor + " --memory-limit lots", &out), 1) << out;
  EXPECT_NE(out.find("--memory-limit"), std::string::npos) << out;
}

TEST(CliTest, WhatIfRefusesToRunAsSeveralRanksOfAnMpiJob) {
  // What a launcher sets in each of 3 ranks: each would replay the whole trace into the same
  // files. (`analyze` divides its work between the ranks: tests/distributed/mpi_analyze_test.)
  std::string anchor = SmallTrace("cli-job");
  std::string report = testing::MakeTempDir("cli-job-report") + "/out";
  std::string out;
  EXPECT_EQ(RunCommand("PMI_SIZE=3 " + CausewayBinary() + " whatif " + anchor +
                           " --network ideal -o " + report,
                       &out),
            1)
      << out;
  EXPECT_NE(out.find("started as one of 3 ranks"), std::string::npos) << out;
  EXPECT_FALSE(fs::exists(report));
  // A job of one rank is one process.
  EXPECT_EQ(RunCommand("OMPI_COMM_WORLD_SIZE=1 " + CausewayBinary() + " analyze -q " + anchor +
                           " -o " + report,
                       &out),
            0)
      << out;
}

TEST(CliTest, TimeCorrectReportsViolationsBeforeAndAfter) {
  // Rank 1's receive record (9) precedes rank 0's send record (10): one violation. Uncorrected,
  // the report counts it and suggests the option; corrected, none is left.
  testing::Scenario s(2);
  s.rank(0).Enter(0, "main").Send(10, 11, 1, 0, 8).Leave(20, "main");
  s.rank(1).Enter(0, "main").Recv(4, 9, 0, 0, 8).Leave(20, "main");
  std::string anchor = s.WriteOrDie(testing::MakeTempDir("cli-clc"));
  std::string out;
  std::string plain = testing::MakeTempDir("cli-clc-plain");
  ASSERT_EQ(Causeway("analyze " + anchor + " -o " + plain, &out), 0) << out;
  EXPECT_NE(out.find("--time-correct"), std::string::npos) << out;
  std::string corrected = testing::MakeTempDir("cli-clc-corrected");
  ASSERT_EQ(Causeway("analyze --time-correct " + anchor + " -o " + corrected, &out), 0) << out;
  EXPECT_NE(out.find("1 point-to-point, 0 probe and 0 collective violations as recorded; 0 after"),
            std::string::npos)
      << out;
  std::ifstream json_file(corrected + "/report.json");
  nlohmann::json j = nlohmann::json::parse(json_file);
  EXPECT_EQ(j["trace"]["time_corrected"], true);
  EXPECT_EQ(j["trace"]["clock_violations"]["p2p"], 0);
  EXPECT_EQ(j["clock_correction"]["violations_before"]["p2p"], 1);
  EXPECT_EQ(j["clock_correction"]["violations_after"]["p2p"], 0);
}

TEST(CliTest, DefaultReportDirectoryIsNamedAfterTheTrace) {
  std::string anchor = SmallTrace("cli-default");
  std::string cwd = testing::MakeTempDir("cli-cwd");
  std::string out;
  ASSERT_EQ(RunCommand("cd " + cwd + " && " + CausewayBinary() + " analyze -q " +
                           fs::path(anchor).parent_path().string(),
                       &out),
            0)
      << out;
  std::string expected = cwd + "/causeway-" + fs::path(anchor).parent_path().filename().string();
  EXPECT_TRUE(fs::exists(expected + "/report.json")) << expected;
}

TEST(CliTest, UnwritableOutputExitsWithThree) {
  std::string anchor = SmallTrace("cli-unwritable");
  std::string blocker = testing::MakeTempDir("cli-blocker") + "/file";
  std::ofstream(blocker) << "x";
  std::string out;
  EXPECT_EQ(Causeway("analyze -q " + anchor + " -o " + blocker + "/report", &out), 3) << out;
  EXPECT_NE(out.find(blocker), std::string::npos) << out;
}

TEST(CliTest, InfoDescribesTheTrace) {
  std::string anchor = SmallTrace("cli-info");
  std::string out;
  ASSERT_EQ(Causeway("info " + anchor, &out), 0) << out;
  EXPECT_NE(out.find("MPI_SEND"), std::string::npos) << out;
  EXPECT_NE(out.find("Locations    2"), std::string::npos) << out;
  EXPECT_NE(out.find("Regions      3 visited"), std::string::npos) << out;
  // Its regions with their visits and exclusive time, most first: main 19 s on rank 0 (0..20
  // less the 1 s send) and 12 s on rank 1 (less the 8 s receive), MPI_Recv 8 s, MPI_Send 1 s.
  ASSERT_EQ(Causeway("info --json " + anchor, &out), 0) << out;
  const nlohmann::json regions = nlohmann::json::parse(out)["regions"];
  ASSERT_EQ(regions.size(), 3u) << regions;
  const char* names[] = {"main", "MPI_Recv", "MPI_Send"};
  const double seconds[] = {31, 8, 1};
  const uint64_t visits[] = {2, 1, 1};
  for (size_t i = 0; i < 3; ++i) {
    EXPECT_EQ(regions[i]["name"], names[i]);
    EXPECT_EQ(regions[i]["visits"], visits[i]);
    EXPECT_DOUBLE_EQ(regions[i]["exclusive"].get<double>(), seconds[i]);
  }
  EXPECT_EQ(regions[1]["paradigm"], "MPI");
}

TEST(CliTest, WhatIfRejectsNonsenseWithTheReason) {
  const std::string trace = SmallTrace("cli-whatif-bad");
  struct Case {
    const char* options;
    const char* message;
  };
  for (const Case& c : {
           Case{"--latency 5parsecs", "unknown unit 'parsecs'"},
           Case{"--latency -1us", "must be finite and not negative"},
           Case{"--bandwidth 0GB/s", "greater than zero"},
           Case{"--eager-limit 1.5", "whole number of bytes"},
           Case{"--network fast", "'measured' or 'ideal'"},
           Case{"--network ideal --latency 1us", "cannot be combined"},
           Case{"--noise gamma:mean=1us", "unknown family 'gamma'"},
           Case{"--noise exp:mean=1us,sd=2us", "unknown parameter 'sd'"},
           Case{"--noise const:1us --noise-file /x", "not both"},
           Case{"--ranks 3-1 --noise const:1us", "runs backwards"},
           Case{"--ranks 0", "give --noise too"},
           Case{"--compute-scale solve=-2", "non-negative number"},
           Case{"--noise-file /nonexistent/samples", "cannot open noise samples"},
       }) {
    std::string out;
    int rc = Causeway(
        "whatif -q " + trace + " -o " + testing::MakeTempDir("cli-whatif-out") + " " + c.options,
        &out);
    EXPECT_NE(rc, 0) << c.options;
    EXPECT_NE(out.find(c.message), std::string::npos) << c.options << ": " << out;
  }
}

TEST(CliTest, WhatIfWritesItsPrediction) {
  // Rank 0 sends at 10..11, rank 1 receives 4..12 (ready at 10, cost 2); both end at 20. With
  // computation x2 rank 0 sends 20..21 and ends 21 + 2 x 9 = 39; rank 1 enters its receive at
  // 8, leaves at max(8, 20) + 2 = 22 and ends 22 + 2 x 8 = 38.
  const std::string trace = SmallTrace("cli-whatif");
  const std::string dir = testing::MakeTempDir("cli-whatif-out");
  std::string out;
  ASSERT_EQ(Causeway("whatif " + trace + " -o " + dir + " --compute-scale 2", &out), 0) << out;
  EXPECT_NE(out.find("predicted"), std::string::npos) << out;
  std::ifstream in(dir + "/whatif.json");
  nlohmann::json w = nlohmann::json::parse(in);
  EXPECT_EQ(w["format"], "causeway-whatif");
  EXPECT_EQ(w["measured_runtime"].get<double>(), 20.0);
  EXPECT_EQ(w["predicted_runtime"]["mean"].get<double>(), 39.0);
  EXPECT_TRUE(fs::exists(dir + "/summary.txt"));
  // The locations by their ranks, as in analyze's reports: rank 0 ends at 39, rank 1 at 38.
  EXPECT_EQ(w["locations"][0]["rank"].get<int>(), 0);
  EXPECT_EQ(w["locations"][1]["name"], "Master thread");
  EXPECT_NE(out.find("  rank 0: 20 s -> 39 s\n"), std::string::npos) << out;
  EXPECT_NE(out.find("  rank 1: 20 s -> 38 s\n"), std::string::npos) << out;
}

TEST(CliTest, WhatIfWritesTheSimulatedTraceForAnalyze) {
  const std::string trace = SmallTrace("cli-whatif-trace");
  const std::string dir = testing::MakeTempDir("cli-whatif-trace-out");
  std::string out;
  ASSERT_EQ(Causeway("whatif -q " + trace + " -o " + dir + " --network ideal --write-trace", &out),
            0)
      << out;
  std::ifstream in(dir + "/whatif.json");
  nlohmann::json w = nlohmann::json::parse(in);
  EXPECT_EQ(w["simulated_trace"]["path"], dir + "/simulated/traces.otf2");
  EXPECT_EQ(w["simulated_trace"]["records"], 10);  // 5 records per rank, none left out
  EXPECT_EQ(w["simulated_trace"]["left_out"], 0);
  ASSERT_EQ(Causeway("analyze -q " + dir + "/simulated -o " + dir + "/report", &out), 0) << out;
  EXPECT_TRUE(fs::exists(dir + "/report/report.json"));
}

TEST(CliTest, TimelinesFromAnalyzeAndExport) {
  const std::string trace = SmallTrace("cli-timeline");
  const std::string dir = testing::MakeTempDir("cli-timeline-out");
  std::string out;
  ASSERT_EQ(Causeway("export chrome " + trace + " -o " + dir + "/export.json", &out), 0) << out;
  EXPECT_NE(out.find("1 message arrows"), std::string::npos) << out;
  ASSERT_EQ(Causeway("analyze -q " + trace + " -o " + dir + "/report --timeline " + dir +
                         "/analyze.json --timeline-ranks 1",
                     &out),
            0)
      << out;
  std::ifstream in(dir + "/analyze.json");
  nlohmann::json j = nlohmann::json::parse(in);
  for (const nlohmann::json& e : j["traceEvents"]) EXPECT_EQ(e["tid"], 1) << e.dump();
  // Bad options fail before any work, naming the option.
  EXPECT_EQ(Causeway("export chrome " + trace + " -o " + dir + "/x.json --ranks 5-2", &out), 1);
  EXPECT_NE(out.find("--ranks: rank range '5-2' runs backwards"), std::string::npos) << out;
  EXPECT_EQ(Causeway("analyze -q " + trace + " --timeline x.json --timeline-window 2:1", &out), 1);
  EXPECT_NE(out.find("--timeline-window"), std::string::npos) << out;
  EXPECT_EQ(Causeway("export vampir " + trace + " -o " + dir + "/x", &out), 1);
  EXPECT_NE(out.find("unknown export format 'vampir'"), std::string::npos) << out;
}

}  // namespace
}  // namespace cw::test
