// Real MPI applications nobody on the project wrote, from Debian's packages, traced with 4 ranks
// and analysed: HPCC (the HPC Challenge suite, C) and LAMMPS (molecular dynamics, C++) with its
// bundled Lennard-Jones melt example. They exercise MPI functions and patterns the test programs
// do not (communicator splits, Testany loops over hundreds of thousands of calls, cancelled
// receives, probes, many flushes).
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include <gtest/gtest.h>

#include "testing/scenario.h"
#include "tests/common/analysis_fixture.h"
#include "tests/common/paths.h"
#include "tests/common/root_cause_invariants.h"

namespace cw::test {
namespace {

namespace fs = std::filesystem;

constexpr const char* kMpirun = "timeout 280 mpirun --allow-run-as-root --oversubscribe -np 4";

// Traces `command` run in `workdir`; returns the trace directory.
std::string TraceIn(const std::string& workdir, const std::string& command) {
  const std::string dir = workdir + "/trace";
  std::string out;
  EXPECT_EQ(RunCommand("cd " + workdir + " && " + CausewayBinary() + " trace -o " + dir + " -- " +
                           kMpirun + " " + command,
                       &out),
            0)
      << out;
  EXPECT_NE(out.find("Trace written to"), std::string::npos) << out;
  EXPECT_EQ(out.find("ended early"), std::string::npos) << out;
  return dir;
}

void ExpectAnalysable(const std::string& dir) {
  std::string out;
  EXPECT_EQ(RunCommand("otf2-print " + dir + "/traces.otf2 > /dev/null", &out), 0) << out;
  EXPECT_EQ(out.find("[OTF2]"), std::string::npos) << out.substr(0, 2000);
  EXPECT_EQ(RunCommand(CausewayBinary() + " analyze -q " + dir + " -o " +
                           cw::testing::MakeTempDir("app-report"),
                       &out),
            0)
      << out;
  Analysis a = AnalyzeFile(dir + "/traces.otf2", 2);
  EXPECT_GT(a.report.matching.messages, 0u);
  EXPECT_EQ(a.report.matching.unmatched_sends, 0u);
  EXPECT_EQ(a.report.matching.unmatched_receives, 0u);
  // One node, one counter: the clock condition holds, and with it every root-cause invariant.
  EXPECT_EQ(a.report.trace.clock_violations_p2p + a.report.trace.clock_violations_collective, 0u);
  ExpectRootCauseInvariants(a, InvariantOptions{});
}

TEST(TracedApplicationsTest, Hpcc) {
  // scripts/install-deps.sh (run by make test) installs it: its absence is a failure.
  ASSERT_TRUE(fs::exists("/usr/bin/hpcc")) << "hpcc is not installed (scripts/install-deps.sh)";
  const std::string work = testing::MakeTempDir("app-hpcc");
  // Debian's example input with a small matrix (N = 400 instead of 1000): the whole suite runs
  // in well under a minute on 4 ranks.
  std::ifstream example("/usr/share/doc/hpcc/examples/_hpccinf.txt");
  ASSERT_TRUE(example) << "hpcc's example input is missing";
  std::ofstream input(work + "/hpccinf.txt");
  std::string line;
  for (int n = 1; std::getline(example, line); ++n)
    input << (n == 6 ? "400          Ns" : line) << "\n";
  input.close();
  const std::string dir = TraceIn(work, "/usr/bin/hpcc");
  std::ifstream results(work + "/hpccoutf.txt");
  std::stringstream text;
  text << results.rdbuf();
  EXPECT_NE(text.str().find("PASSED"), std::string::npos);
  EXPECT_EQ(text.str().find("FAILED"), std::string::npos);
  ExpectAnalysable(dir);
}

TEST(TracedApplicationsTest, LammpsMelt) {
  const std::string example = "/usr/share/lammps/examples/melt/in.melt";
  ASSERT_TRUE(fs::exists("/usr/bin/lmp") && fs::exists(example))
      << "lammps and lammps-examples are not installed (scripts/install-deps.sh)";
  const std::string work = testing::MakeTempDir("app-lammps");
  fs::copy_file(example, work + "/in.melt");
  const std::string dir = TraceIn(work, "/usr/bin/lmp -in in.melt -log none -screen none");
  ExpectAnalysable(dir);
}

}  // namespace
}  // namespace cw::test
