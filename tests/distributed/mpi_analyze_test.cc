// `mpirun -np K causeway analyze` for K = 1 to 4 writes the report one process writes, with the
// root-cause and critical-path analyses and with --wait-states-only (K = 2 and 3): report.json,
// summary.txt and report.html byte for byte, report.cubex value for value (its tar headers carry
// the time of writing). On every real trace, on traces of the test programs and on inconsistent
// traces, each run under a timeout: a hang fails the test.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <initializer_list>
#include <sstream>

#include "base/parallel.h"
#include "testing/scenario.h"
#include "tests/common/cube_reader.h"
#include "tests/common/paths.h"
#include "tests/common/traced_program.h"
#include "tests/distributed/job_scenarios.h"

namespace cw::test {
namespace {

namespace fs = std::filesystem;

std::string Slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// Equal texts; else the first differing line of each (report.html is half a megabyte).
void ExpectSameText(const std::string& job, const std::string& single, const std::string& where) {
  if (job == single) return;
  std::istringstream a(job), b(single);
  std::string la, lb;
  int line = 1;
  while (std::getline(a, la) && std::getline(b, lb) && la == lb) ++line;
  ADD_FAILURE() << where << " differs at line " << line << ":\n  job:    " << la.substr(0, 300)
                << "\n  single: " << lb.substr(0, 300);
}

constexpr std::initializer_list<int> kOneToFourRanks = {1, 2, 3, 4};

// Analyses `anchor` as one process and as jobs of `rank_counts` ranks, and compares the reports.
void CheckJobsWriteOneProcessesReport(const std::string& anchor, const std::string& name,
                                      const std::string& extra = "",
                                      std::initializer_list<int> rank_counts = kOneToFourRanks) {
  const std::string dir = testing::MakeTempDir("mpi-analyze-" + name);
  const std::string options = " analyze -q " + extra + " " + anchor + " -o ";
  std::string out;
  ASSERT_EQ(RunCommand("timeout 300 " + CausewayBinary() + options + dir + "/single", &out), 0)
      << out;
  const Result<CubeFile> single_cube = ReadCubex(dir + "/single/report.cubex");
  ASSERT_TRUE(single_cube) << single_cube.error().message();
  for (int ranks : rank_counts) {
    const std::string where = name + " on " + std::to_string(ranks) + " ranks";
    const std::string job = dir + "/np" + std::to_string(ranks);
    ASSERT_EQ(RunCommand(MpirunOn(ranks) + " " + CausewayBinary() + options + job, &out), 0)
        << where << "\n"
        << out;
    for (const char* file : {"report.json", "summary.txt", "report.html"}) {
      ExpectSameText(Slurp(job + "/" + file), Slurp(dir + "/single/" + file), where + ": " + file);
    }
    const Result<CubeFile> cube = ReadCubex(job + "/report.cubex");
    ASSERT_TRUE(cube) << where << ": " << cube.error().message();
    EXPECT_EQ(cube->values, single_cube->values) << where;
    EXPECT_EQ(cube->cnodes, single_cube->cnodes) << where;
    EXPECT_EQ(cube->structure, single_cube->structure) << where;
  }
}

// mpirun binds each rank of a one- or two-rank job to one core by default: a rank's threads and
// the ideal-network replay then take turns on it. The process (np 1 is one process) or the first
// rank of the job says so, with the options that give it more CPUs; unbound, nothing is said.
TEST(MpiAnalyzeTest, ABoundFirstRankSaysHowToGiveItMoreCpus) {
  if (MachineCpuCount() < 2) GTEST_SKIP() << "one CPU: binding cannot narrow it";
  const std::string dir = testing::MakeTempDir("mpi-analyze-bound");
  const std::string command = CausewayBinary() + " analyze -q --threads 2 " +
                              RealTrace(RealTraceNames().front()) + " --partial -o ";
  for (const auto& [ranks, who] : {std::pair{1, "this process"}, {2, "analysis rank 0"}}) {
    std::string out;
    const std::string np = MpirunOn(ranks);
    ASSERT_EQ(RunCommand(np + " --bind-to core " + command + dir + "/bound" + std::to_string(ranks),
                         &out),
              0)
        << out;
    EXPECT_NE(out.find(std::string(who) + " may run on 1 of"), std::string::npos) << out;
    EXPECT_NE(out.find("--map-by slot:PE=N"), std::string::npos) << out;
    ASSERT_EQ(
        RunCommand(np + " --bind-to none " + command + dir + "/free" + std::to_string(ranks), &out),
        0)
        << out;
    EXPECT_EQ(out.find("may run on"), std::string::npos) << out;
  }
}

// The default analysis: wait states, root causes, critical path and the bottleneck analysis
// with its predicted savings.
TEST(MpiAnalyzeTest, EveryRealTrace) {
  for (const std::string& name : RealTraceNames()) {
    CheckJobsWriteOneProcessesReport(RealTrace(name), name, "--partial");
  }
}

// The same exchanges less the root-cause passes: on an even and an uneven split (the analysis
// jobs on threads, tests/distributed/job_analysis_test.cc, take every rank count).
TEST(MpiAnalyzeTest, WaitStatesOnly) {
  for (const std::string& name : RealTraceNames()) {
    CheckJobsWriteOneProcessesReport(RealTrace(name), name + "-wait-states",
                                     "--partial --wait-states-only", {2, 3});
  }
}

TEST(MpiAnalyzeTest, TracedPrograms) {
  CheckJobsWriteOneProcessesReport(TraceProgram("late_sender", 4), "late_sender");
  CheckJobsWriteOneProcessesReport(TraceProgram("collectives", 3), "collectives");
  CheckJobsWriteOneProcessesReport(TraceProgram("p2p_patterns", 4), "p2p_patterns");
  CheckJobsWriteOneProcessesReport(TraceProgram("probes", 2), "probes");
  CheckJobsWriteOneProcessesReport(TraceProgram("persistent_and_nonblocking_collectives", 3),
                                   "persistent_and_nonblocking_collectives");
  CheckJobsWriteOneProcessesReport(TraceProgram("rma_epochs", 3), "rma_epochs");
  CheckJobsWriteOneProcessesReport(TraceProgram("threads", 2), "threads");
  // Walked call paths with their call sites (the ranks gather every location's).
  CheckJobsWriteOneProcessesReport(TraceProgram("nested_compute", 2, "2"), "nested_compute");
#ifdef CW_HAVE_SHMEM_PROGRAMS
  CheckJobsWriteOneProcessesReport(TraceShmemProgram("shmem_patterns", 3), "shmem_patterns");
#endif
}

// The bottleneck analysis with baselines on the validation programs of tests/programs/bottlenecks,
// each with its finding (EveryRealTrace runs it, on by default, on the real traces).
TEST(MpiAnalyzeTest, BottleneckAnalysis) {
  const std::string baselines = testing::MakeTempDir("mpi-analyze-baselines") + "/b.txt";
  std::ofstream(baselines) << "MPI_Barrier 2 0 1e-6\nMPI_Barrier 4 0 2e-6\n"
                              "MPI_Allreduce 2 8 2e-6\nMPI_Allreduce 4 8 4e-6\n"
                              "MPI_Recv 2 8 1e-6\nMPI_Ssend 2 8 2e-6\nMPI_Win_lock 2 0 1e-6\n"
                              "MPI_Win_lock 4 0 2e-6\n";
  const std::string advice = "--advice --baselines " + baselines;
  struct Program {
    const char* name;
    int ranks;
    const char* args;     // of the program
    const char* options;  // of causeway analyze
  };
  for (const Program& p :
       {Program{"barrier_imbalance", 3, "", ""}, Program{"late_receiver", 2, "", ""},
        Program{"imbalanced_block", 2, "", ""}, Program{"contended_lock", 3, "", ""},
        Program{"serialised_sends", 4, "", " --transfer-run 3"},
        Program{"small_messages", 2, "2 5000", ""}, Program{"redundant_barrier", 2, "", ""}}) {
    CheckJobsWriteOneProcessesReport(
        TraceProgram(std::string("bottleneck_") + p.name, p.ranks, p.args), p.name,
        advice + p.options);
  }
}

TEST(MpiAnalyzeTest, InconsistentAndOneSidedTraces) {
  for (const auto& [name, anchor] : WriteJobScenarios()) {
    CheckJobsWriteOneProcessesReport(anchor, name, "--partial");
  }
}

}  // namespace
}  // namespace cw::test
