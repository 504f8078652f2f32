// Call paths of an unmodified program (causeway trace --callpaths): tests/programs/callpaths/
// nested_compute.c, built with -O1 -g and no instrumentation, traced with the stack walked at
// every MPI call and sampled between calls. Its structure is known: rank 1 waits in
// main/step/exchange/MPI_Sendrecv for rank 0, which computes 50 ms a step longer in
// main/step/prepare/smooth.
#include <fstream>
#include <iterator>
#include <map>
#include <regex>
#include <set>
#include <string>
#include <utility>

#include <nlohmann/json.hpp>

#include <gtest/gtest.h>

#include "testing/scenario.h"
#include "tests/common/paths.h"
#include "tests/common/traced_checks.h"
#include "tests/common/traced_program.h"

namespace cw::test {
namespace {

using nlohmann::json;

constexpr int kSteps = 8;

// Each call path's full name ("main/step/exchange/MPI_Sendrecv") by its id.
std::map<uint64_t, std::string> CallpathNames(const json& report) {
  std::map<uint64_t, const json*> by_id;
  for (const json& c : report["callpaths"]) by_id[c["id"].get<uint64_t>()] = &c;
  std::map<uint64_t, std::string> names;
  for (const auto& [id, c] : by_id) {
    std::string name = (*c)["region"];
    for (const json* p = c; !(*p)["parent"].is_null();) {
      p = by_id[(*p)["parent"].get<uint64_t>()];
      name = (*p)["region"].get<std::string>() + "/" + name;
    }
    names[id] = name;
  }
  return names;
}

// `metric` summed over locations, per full call path name.
std::map<std::string, double> ByCallpath(const json& report, const std::string& metric) {
  const std::map<uint64_t, std::string> names = CallpathNames(report);
  std::map<std::string, double> values;
  for (const json& v : report["values"]) {
    if (v["metric"] == metric)
      values[names.at(v["callpath"].get<uint64_t>())] += v["value"].get<double>();
  }
  return values;
}

double Under(const std::map<std::string, double>& values, const std::string& prefix) {
  double total = 0;
  for (const auto& [path, value] : values) {
    if (path == prefix || path.rfind(prefix + "/", 0) == 0) total += value;
  }
  return total;
}

TEST(CallpathsTest, SampledPathsNameTheNestedFunctionThatCausesTheWait) {
  const std::string dir = TraceProgram("nested_compute", 2, std::to_string(kSteps));
  ExpectOtf2PrintReads(dir);
  ExpectNestingSurvivesTimeOrder(dir);
  const json report = Analyze(dir);
  // The wait is where the program waits: every Late Sender at the exchange's MPI_Sendrecv,
  // 50 ms a step (within 20 %: a real run on a shared machine).
  const std::map<std::string, double> late = ByCallpath(report, "mpi_latesender");
  double total_late = 0;
  for (const auto& [path, value] : late) total_late += value;
  ASSERT_GT(total_late, 0.0);
  EXPECT_DOUBLE_EQ(Under(late, "main/step/exchange/MPI_Sendrecv"), total_late);
  EXPECT_NEAR(total_late, kSteps * 0.05, kSteps * 0.05 * 0.2);
  // Its root cause is the nested function's computation: the delay costs of
  // main/step/prepare/smooth (and what smooth calls) hold most of the waiting. The rest is the
  // sampling's resolution: the time between a call and the first sample after it is shared
  // halfway (a sample every 4-6 ms of CPU time here: a few ms a step of the 50 ms).
  const std::map<std::string, double> delay = ByCallpath(report, "delay_mpi");
  const double in_smooth = Under(delay, "main/step/prepare/smooth");
  EXPECT_GT(in_smooth, 0.75 * total_late)
      << "delay in smooth " << in_smooth << " of " << total_late;
  // main itself (between MPI_Init and the first step) causes next to nothing.
  EXPECT_LT(delay.count("main") > 0 ? delay.at("main") : 0.0, 0.05 * total_late);
}

// Each call path's call site, "file:line" (the file's base name), as report.json gives it.
std::map<std::string, std::string> CallSites(const json& report) {
  std::map<std::string, std::string> sites;
  for (const auto& [id, name] : CallpathNames(report)) {
    for (const json& c : report["callpaths"]) {
      if (c["id"].get<uint64_t>() != id || !c.contains("line")) continue;
      const std::string file = c["file"];
      sites[name] = file.substr(file.rfind('/') + 1) + ":" + std::to_string(c["line"].get<int>());
    }
  }
  return sites;
}

// The lines of tests/programs/callpaths/nested_compute.c that make each call.
void ExpectNestedComputeCallSites(const json& report) {
  const std::map<std::string, std::string> sites = CallSites(report);
  const std::map<std::string, std::string> expected = {
      {"main/MPI_Init", "nested_compute.c:43"},
      {"main/MPI_Comm_rank", "nested_compute.c:44"},
      {"main/step", "nested_compute.c:46"},
      {"main/step/prepare", "nested_compute.c:36"},
      {"main/step/prepare/smooth", "nested_compute.c:28"},
      {"main/step/exchange", "nested_compute.c:37"},
      {"main/step/exchange/MPI_Sendrecv", "nested_compute.c:31"},
      {"main/MPI_Finalize", "nested_compute.c:47"}};
  for (const auto& [path, site] : expected) {
    EXPECT_EQ(sites.count(path) ? sites.at(path) : "(none)", site) << path;
  }
}

TEST(CallpathsTest, CallSitesAreTheSourceLinesOfTheCalls) {
  const std::string dir = TraceProgram("nested_compute", 2, "2");
  ExpectNestedComputeCallSites(Analyze(dir));
  // summary.txt puts the call site beside the call path where the wait is.
  const std::string out = cw::testing::MakeTempDir("callpaths-summary");
  std::string output;
  ASSERT_EQ(RunCommand(CausewayBinary() + " analyze -q " + dir + " -o " + out, &output), 0)
      << output;
  std::ifstream summary_file(out + "/summary.txt");
  const std::string summary((std::istreambuf_iterator<char>(summary_file)),
                            std::istreambuf_iterator<char>());
  EXPECT_NE(summary.find("Where: main/step/exchange/MPI_Sendrecv (nested_compute.c:31)"),
            std::string::npos)
      << summary;
  // The functions' regions say where each function begins (OTF2's region source file and line,
  // which Cube shows): step at line 35, exchange at 30.
  std::string defs;
  ASSERT_EQ(RunCommand("otf2-print -G " + dir + "/traces.otf2", &defs), 0);
  EXPECT_NE(defs.find("Name: \"step\""), std::string::npos) << defs;
  for (const auto& [function, line] : {std::pair{"step", 35}, {"exchange", 30}, {"smooth", 21}}) {
    const size_t at = defs.find(std::string("Name: \"") + function + "\"");
    ASSERT_NE(at, std::string::npos) << function;
    const std::string region = defs.substr(at, defs.find('\n', at) - at);
    EXPECT_NE(region.find("nested_compute.c"), std::string::npos) << region;
    EXPECT_NE(region.find("Begin: " + std::to_string(line) + ","), std::string::npos) << region;
  }
}

// The program stripped, its symbols and debug information in a separate file (split_debug.sh):
// named as before through the .gnu_debuglink, or through the build-id under a debug root.
TEST(CallpathsTest, StrippedProgramsAreNamedFromTheirSeparateDebugFiles) {
  std::string output;
  const json linked = Analyze(TraceProgram("nested_compute_debuglink", 2, "2", "", &output));
  EXPECT_EQ(output.find("no symbol"), std::string::npos) << output;
  ExpectNestedComputeCallSites(linked);
  const json by_id = Analyze(TraceProgram("nested_compute_buildid", 2, "2", "", &output,
                                          "CAUSEWAY_DEBUG_DIRS=" + TestProgram("debug-root")));
  EXPECT_EQ(output.find("no symbol"), std::string::npos) << output;
  ExpectNestedComputeCallSites(by_id);
}

// Without its debug file, the stripped program's functions are named by module and the offset
// of their start (from the call-frame information), and the trace command says so once.
TEST(CallpathsTest, UnnamedFunctionsAreShownByModuleAndOffsetAndSaidOnce) {
  std::string output;
  const json report = Analyze(TraceProgram("nested_compute_buildid", 2, "2", "", &output));
  const std::string message = "functions on the call paths have no symbol";
  const size_t said = output.find(message);
  ASSERT_NE(said, std::string::npos) << output;
  EXPECT_EQ(output.find("no symbol", said + message.size()), std::string::npos) << output;
  // The exchange's call path keeps its shape: main, two functions of the program, the call.
  bool found = false;
  const std::regex exchange(
      "main/nested_compute_buildid\\+0x[0-9a-f]+/nested_compute_buildid\\+0x[0-9a-f]+/"
      "MPI_Sendrecv");
  for (const auto& [id, name] : CallpathNames(report)) found |= std::regex_match(name, exchange);
  EXPECT_TRUE(found);
}

// A Fortran program (tests/programs/callpaths/fortran_nested.f90): module procedures are named
// module::procedure, the program unit is main, and the nested function's computation causes the
// wait as in C.
TEST(CallpathsTest, FortranModuleProceduresAreNamedAndLocated) {
#ifndef CW_HAVE_FORTRAN_PROGRAMS
  GTEST_SKIP() << "no Fortran compiler";
#endif
  const json report = Analyze(TraceProgram("fortran_nested", 2));
  const std::string exchange = "main/solver::step/solver::exchange/MPI_Sendrecv";
  const std::map<std::string, double> late = ByCallpath(report, "mpi_latesender");
  double total_late = 0;
  for (const auto& [path, value] : late) total_late += value;
  EXPECT_NEAR(total_late, 4 * 0.05, 4 * 0.05 * 0.2);
  EXPECT_DOUBLE_EQ(Under(late, exchange), total_late);
  const std::map<std::string, double> delay = ByCallpath(report, "delay_mpi");
  EXPECT_GT(Under(delay, "main/solver::step/solver::prepare/solver::smooth"), 0.75 * total_late);
  // The lines of the calls, as gfortran's line table has them (a call statement continued over
  // two lines is at either).
  const std::map<std::string, std::string> sites = CallSites(report);
  EXPECT_EQ(sites.at("main/solver::step"), "fortran_nested.f90:54");
  EXPECT_EQ(sites.at("main/solver::step/solver::prepare"), "fortran_nested.f90:41");
  EXPECT_EQ(sites.at("main/solver::step/solver::exchange"), "fortran_nested.f90:42");
  EXPECT_TRUE(sites.at(exchange) == "fortran_nested.f90:35" ||
              sites.at(exchange) == "fortran_nested.f90:36")
      << sites.at(exchange);
}

// What-if on a walked function: `--compute-scale smooth=0.5` halves the computation the samples
// put in smooth (and what it calls). Rank 0's 60 ms a step become 30 (rank 1's 10 become 5, off
// the critical path): the run gets 4 x 30 ms shorter, within 25 % (the sampling's resolution
// leaves part of each interval to exchange, which the scaling does not touch).
TEST(CallpathsTest, WhatIfScalesAWalkedFunction) {
  const std::string dir = TraceProgram("nested_compute", 2, "4");
  const std::string out = cw::testing::MakeTempDir("callpaths-whatif");
  std::string output;
  ASSERT_EQ(
      RunCommand(CausewayBinary() + " whatif -q " + dir + " --compute-scale smooth=0.5 -o " + out,
                 &output),
      0)
      << output;
  std::ifstream in(out + "/whatif.json");
  const json w = json::parse(in);
  const double saved =
      w["measured_runtime"].get<double>() - w["predicted_runtime"]["median"].get<double>();
  EXPECT_NEAR(saved, 4 * 0.030, 4 * 0.030 * 0.25) << w.dump(1);
}

TEST(CallpathsTest, CallsOnlyKeepTheComputationWithTheDeepestSharedFunction) {
  // Without samples, the computation between two calls of main/step/exchange stays with
  // main/step/exchange: nothing says the program went through prepare.
  const std::string dir =
      TraceProgram("nested_compute", 2, std::to_string(kSteps), "--callpaths calls");
  const json report = Analyze(dir);
  const std::map<std::string, double> delay = ByCallpath(report, "delay_mpi");
  for (const auto& [path, value] : delay)
    EXPECT_EQ(path.find("prepare"), std::string::npos) << path;
  double total_late = 0;
  for (const auto& [path, value] : ByCallpath(report, "mpi_latesender")) total_late += value;
  EXPECT_DOUBLE_EQ(Under(delay, "main/step/exchange"), Under(delay, "main/step"));
  EXPECT_GT(Under(delay, "main/step/exchange"), 0.75 * total_late);
}

TEST(CallpathsTest, FoldedModulesKeepTheOutermostFrameOfEachRun) {
  // Folding the program's own module: main's first function, step, stands for everything
  // below it (exchange, prepare, smooth); the MPI calls it makes through them hang below it,
  // and so do the Late Sender and its cost.
  const std::string dir = TraceProgram("nested_compute", 2, std::to_string(kSteps),
                                       "--fold 'nested_comp*' --fold 'libnothing*'");
  const json report = Analyze(dir);
  std::set<std::string> paths;
  for (const auto& [id, name] : CallpathNames(report)) paths.insert(name);
  for (const std::string& path : paths) {
    for (const char* folded : {"exchange", "prepare", "smooth"})
      EXPECT_EQ(path.find(folded), std::string::npos) << path;
  }
  EXPECT_TRUE(paths.count("main/step/MPI_Sendrecv")) << ::testing::PrintToString(paths);
  EXPECT_TRUE(paths.count("main/MPI_Init")) << ::testing::PrintToString(paths);
  const std::map<std::string, double> late = ByCallpath(report, "mpi_latesender");
  double total_late = 0;
  for (const auto& [path, value] : late) total_late += value;
  EXPECT_GT(total_late, 0.0);
  EXPECT_DOUBLE_EQ(late.count("main/step/MPI_Sendrecv") ? late.at("main/step/MPI_Sendrecv") : 0,
                   total_late);
  const std::map<std::string, double> delay = ByCallpath(report, "delay_mpi");
  EXPECT_GT(Under(delay, "main/step"), 0.75 * total_late);
}

// The Perfetto timeline, the task activity graphs of a trace and compare take the walked
// functions as they take instrumented ones.
TEST(CallpathsTest, TimelineTaskGraphsAndCompareShowTheWalkedFunctions) {
  const std::string short_run = TraceProgram("nested_compute", 2, "4");
  const std::string long_run = TraceProgram("nested_compute", 2, "8");
  const std::string bin = CausewayBinary();
  std::string output;

  const std::string timeline = short_run + "/timeline.json";
  ASSERT_EQ(RunCommand(bin + " analyze " + short_run + "/traces.otf2 -o " + short_run +
                           "/report --timeline " + timeline,
                       &output),
            0)
      << output;
  std::ifstream timeline_file(timeline);
  const json slices = json::parse(timeline_file);
  const json& events = slices.is_object() ? slices["traceEvents"] : slices;
  std::map<std::string, int> smooth_by_rank, exchange_by_rank;
  for (const json& e : events) {
    if (e.value("ph", "") != "X") continue;
    const std::string rank = std::to_string(e["pid"].get<int>());
    if (e["name"] == "smooth") ++smooth_by_rank[rank];
    if (e["name"] == "exchange") ++exchange_by_rank[rank];
  }
  // Rank 0 smooths 60 ms a step, rank 1 10 ms: at 2-6 ms a sample, both get samples in it.
  EXPECT_EQ(smooth_by_rank.size(), 2u);
  EXPECT_EQ(exchange_by_rank, (std::map<std::string, int>{{"0", 4}, {"1", 4}}));

  ASSERT_EQ(
      RunCommand(bin + " tag " + short_run + "/traces.otf2 -o " + short_run + "/tag", &output), 0)
      << output;
  std::ifstream tag_summary(short_run + "/tag/summary.txt");
  const std::string tag_text((std::istreambuf_iterator<char>(tag_summary)),
                             std::istreambuf_iterator<char>());
  EXPECT_NE(tag_text.find("loop at main/step/exchange/MPI_Sendrecv, 4 iterations"),
            std::string::npos)
      << tag_text;

  ASSERT_EQ(RunCommand(bin + " compare " + short_run + "/traces.otf2 " + long_run +
                           "/traces.otf2 -o " + short_run + "/compare",
                       &output),
            0)
      << output;
  std::ifstream compare_file(short_run + "/compare/compare.json");
  const json compared = json::parse(compare_file);
  std::set<std::string> compared_paths;
  for (const json& c : compared["callpaths"]) compared_paths.insert(c["callpath"]);
  EXPECT_TRUE(compared_paths.count("main/step/exchange/MPI_Sendrecv"));
  EXPECT_TRUE(compared_paths.count("main/step/prepare/smooth") ||
              compared_paths.count("main/step/prepare/smooth/Seconds"))
      << ::testing::PrintToString(compared_paths);
}

TEST(CallpathsTest, CallsFromManyPathsInTurnKeepTheirPaths) {
  // tests/programs/callpaths/paths_in_turn.c: 12 levels of two functions each make 4096 paths to
  // MPI_Barrier, a quarter of the slots of a thread's cache of recent paths (kPathCacheSlots):
  // direct mapped, hundreds of them share a slot and evict each other. Each of 3 rounds visits
  // every path once, in an order that changes every round. So on each of the 2 ranks every path is
  // visited exactly 3 times: 6 visits per path, and no other barrier path.
  constexpr int kLevels = 12;
  constexpr int kRounds = 3;
  const std::string dir =
      TraceProgram("paths_in_turn", 2, std::to_string(kRounds) + " " + std::to_string(kLevels));
  const std::map<std::string, double> visits = ByCallpath(Analyze(dir), "visits");
  std::map<std::string, double> barriers;
  for (const auto& [path, n] : visits) {
    if (path.size() > 12 && path.compare(path.size() - 12, 12, "/MPI_Barrier") == 0)
      barriers[path] = n;
  }
  EXPECT_EQ(barriers.size(), size_t{1} << kLevels);
  for (unsigned p = 0; p < (1u << kLevels); ++p) {
    std::string path = "main";
    for (int level = 0; level < kLevels; ++level)
      path += "/l" + std::to_string(level) + ((p >> level) & 1u ? "b" : "a");
    path += "/MPI_Barrier";
    EXPECT_EQ(barriers[path], 2.0 * kRounds) << path;
  }
}

TEST(CallpathsTest, PollsFromTwoSitesThroughOneHelperKeepTheirPaths) {
  // tests/programs/callpaths/polls_from_two_sites.c: rank 0 polls with MPI_Test through one
  // helper, check(), three times from site_a and three times from site_b in turn, until rank
  // 1's message is there (rank 1 sends it when told, after 300 rounds). Every MPI_Test has the
  // same return address, in check(), and nothing else is recorded between them; the paths
  // differ above check(). Each site's MPI_Test visits are the calls that site made, as the
  // program counts them (the last one, which found the message, included); polling compaction
  // folds each run of three into one visit in time, never calls of the two paths into one.
  constexpr int kRounds = 300;
  std::string output;
  const std::string dir =
      TraceProgram("polls_from_two_sites", 2, std::to_string(kRounds), kExactCounts, &output);
  std::smatch counts;
  ASSERT_TRUE(std::regex_search(output, counts, std::regex(R"(site_a (\d+) site_b (\d+))")))
      << output;
  const double from_a = std::stod(counts[1]);
  const double from_b = std::stod(counts[2]);
  ASSERT_GE(from_b, 3.0 * kRounds) << output;
  const std::map<std::string, double> visits = ByCallpath(Analyze(dir), "visits");
  std::map<std::string, double> tests;
  for (const auto& [path, n] : visits) {
    if (path.find("MPI_Test") != std::string::npos) tests[path] = n;
  }
  EXPECT_EQ(tests.size(), 2u) << ::testing::PrintToString(tests);
  EXPECT_EQ(tests["main/site_a/check/MPI_Test"], from_a) << ::testing::PrintToString(tests);
  EXPECT_EQ(tests["main/site_b/check/MPI_Test"], from_b) << ::testing::PrintToString(tests);
}

TEST(CallpathsTest, NoneRecordsEveryCallUnderMain) {
  const std::string dir =
      TraceProgram("nested_compute", 2, std::to_string(kSteps), "--callpaths none");
  const json report = Analyze(dir);
  for (const auto& [id, name] : CallpathNames(report)) {
    EXPECT_TRUE(name == "main" ||
                (name.rfind("main/MPI_", 0) == 0 && name.find('/', 5) == std::string::npos))
        << name;
  }
}

}  // namespace
}  // namespace cw::test
