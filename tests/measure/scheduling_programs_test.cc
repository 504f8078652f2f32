// Where traced ranks ran and how the scheduler treated them: real MPI programs run under
// `causeway trace` with more ranks than CPUs, beside busy processes, and on as many CPUs as
// ranks; the reports must tell scheduling from the program (trace/scheduling.h).
#include <unistd.h>

#include <algorithm>
#include <fstream>
#include <iterator>
#include <string>

#include <nlohmann/json.hpp>

#include <gtest/gtest.h>

#include "testing/temp_dir.h"
#include "tests/common/paths.h"
#include "tests/common/traced_checks.h"
#include "tests/common/traced_program.h"

namespace cw::test {
namespace {

using nlohmann::json;

// More ranks than the node's CPUs: the trace notes where each rank ran, the reports warn
// (run.oversubscribed) and give each rank's time waiting for a CPU. As many ranks as CPUs (here
// 2, the test machine has at least 2) is no oversubscription: no warning. The ring passes a
// token round all ranks; every rank is busy on the wall clock, so oversubscribed ranks wait for
// a CPU.
TEST(SchedulingProgramsTest, AnOversubscribedRunIsToldFromTheProgram) {
  const long cpus = sysconf(_SC_NPROCESSORS_ONLN);
  ASSERT_GE(cpus, 2);
  auto oversubscribed = [](const json& report) {
    for (const json& d : report["diagnostics"]) {
      if (d["name"] == "run.oversubscribed") return true;
    }
    return false;
  };
  // cpus + 1 ranks (at most 5: the machine has few cores, and the test must stay small).
  const int ranks = static_cast<int>(std::min(cpus + 1, 5L));
  if (ranks > cpus) {
    const json report = Analyze(TraceProgram("ring", ranks));
    EXPECT_TRUE(oversubscribed(report)) << report["diagnostics"].dump(1);
    const json& scheduling = report["trace"]["scheduling"];
    EXPECT_TRUE(scheduling["oversubscribed"].get<bool>());
    ASSERT_EQ(scheduling["ranks"].size(), static_cast<size_t>(ranks));
    for (const json& r : scheduling["ranks"]) {
      EXPECT_EQ(r["cpus_online"], cpus);
      // The kernel's account where it keeps one (schedstat): non-negative times.
      if (!r["waited_for_cpu"].is_null()) {
        EXPECT_GE(r["waited_for_cpu"].get<double>(), 0.0);
        EXPECT_GT(r["ran"].get<double>(), 0.0);
      }
    }
  }
  const json fits = Analyze(TraceProgram("ring", 2));
  EXPECT_FALSE(oversubscribed(fits)) << fits["diagnostics"].dump(1);
  EXPECT_FALSE(fits["trace"]["scheduling"]["oversubscribed"].get<bool>());
  // Linux always accounts the node's CPU time (/proc/stat): some passed while each rank
  // recorded, and what a hypervisor stole (0 on bare metal) is part of it.
  for (const json& r : fits["trace"]["scheduling"]["ranks"]) {
    ASSERT_TRUE(r["node_cpu_time"].is_number()) << r;
    EXPECT_GT(r["node_cpu_time"].get<double>(), 0.0);
    EXPECT_GE(r["node_cpu_stolen"].get<double>(), 0.0);
    EXPECT_LE(r["node_cpu_stolen"].get<double>(), r["node_cpu_time"].get<double>());
  }
}

// Two ranks, no more than the CPUs, but twice as many busy processes beside them as the node has
// CPUs: the ranks (busy on the wall clock, polling while they wait) can run at most a third of
// the time, far above the 10 % of trace::kContendedShare. Not oversubscribed by the run itself,
// so the reports say that other processes took the CPUs (run.cpu_contention), and the summary
// names the rank. (Without the busy processes a loaded test machine may still pass 10 %: no
// control here; the threshold's arithmetic is tests/trace/scheduling_test.cc.)
TEST(SchedulingProgramsTest, OtherProcessesTakingTheCpusAreToldFromTheProgram) {
  const long cpus = sysconf(_SC_NPROCESSORS_ONLN);
  const std::string dir = testing::MakeTempDir("traced-contended");
  std::string out;
  const int rc =
      RunCommand("for i in $(seq " + std::to_string(2 * cpus) +
                     "); do timeout 60 sh -c 'while :; do :; done' >/dev/null 2>&1 & "
                     "busy=\"$busy $!\"; done; " +
                     CausewayBinary() + " trace -o " + dir + " -- " + kMpirun + " -np 2 " +
                     TestProgram("ring") + " 20 5000; status=$?; kill $busy; exit $status",
                 &out);
  ASSERT_EQ(rc, 0) << out;
  const json report = Analyze(dir);
  bool warned = false;
  for (const json& d : report["diagnostics"]) {
    EXPECT_NE(d["name"], "run.oversubscribed");
    if (d["name"] == "run.cpu_contention") {
      warned = true;
      EXPECT_NE(d["example"].get<std::string>().find("for a CPU ("), std::string::npos) << d;
    }
  }
  EXPECT_TRUE(warned) << report["diagnostics"].dump(1);
  EXPECT_FALSE(report["trace"]["scheduling"]["oversubscribed"].get<bool>());
  EXPECT_TRUE(report["trace"]["scheduling"]["cpu_contention"].get<bool>());
  const std::string reports = testing::MakeTempDir("traced-contended-report");
  ASSERT_EQ(RunCommand(CausewayBinary() + " analyze -q " + dir + " -o " + reports, &out), 0) << out;
  std::ifstream in(reports + "/summary.txt");
  const std::string summary((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_NE(summary.find("other processes or machines took the CPUs: rank "), std::string::npos)
      << summary;
}

// The samples measure how long computation waited for a CPU (measure/runtime/sampling.h).
// cpu_bound burns 60 ms of each rank's own CPU time in each of 8 steps, then meets in a
// barrier. On cpus + 1 ranks, cpus + 1 threads want cpus CPUs while they compute: at any moment
// one is off a CPU, so over the ranks a third (on 2 CPUs) of the computation's time is spent
// runnable without a CPU, and the rank with the largest share has at least that mean. The
// barrier's waiting ranks poll, and keep the contention up. The test asks for a tenth
// (trace::kContendedShare), a third of what the arithmetic gives. The same program on as many
// ranks as CPUs, each pinned to a core, is not oversubscribed: no warning, and its samples
// still measure its computation (how much the node's other load took is not asserted).
TEST(SchedulingProgramsTest, DescheduledComputationIsMeasuredPerRank) {
  const long cpus = sysconf(_SC_NPROCESSORS_ONLN);
  ASSERT_GE(cpus, 2);
  const int ranks = static_cast<int>(std::min(cpus + 1, 5L));
  auto warned = [](const json& report) {
    for (const json& d : report["diagnostics"]) {
      if (d["name"] == "run.oversubscribed") return d["example"].get<std::string>();
    }
    return std::string();
  };
  auto measured = [](const json& rank) {
    return rank["computation_measured"].is_number() ? rank["computation_measured"].get<double>()
                                                    : -1.0;
  };
  if (ranks > cpus) {
    const std::string dir = TraceProgram("cpu_bound", ranks, "8 60");
    const json report = Analyze(dir);
    const std::string warning = warned(report);
    EXPECT_NE(warning.find("the ranks' computation was descheduled "), std::string::npos)
        << warning;
    double most = 0;
    for (const json& r : report["trace"]["scheduling"]["ranks"]) {
      ASSERT_GT(measured(r), 0.0) << r;
      // 8 x 60 ms of CPU time at least, and the spans are a part of the run's wall time.
      EXPECT_LE(measured(r), report["trace"]["duration"].get<double>()) << r;
      const double descheduled = r["computation_descheduled"].get<double>();
      EXPECT_GE(descheduled, 0.0);
      EXPECT_LE(descheduled, measured(r));
      most = std::max(most, descheduled / measured(r));
    }
    EXPECT_GE(most, 0.10) << report["trace"]["scheduling"].dump(1);
    std::string out;
    const std::string reports = testing::MakeTempDir("scheduling-descheduled-report");
    ASSERT_EQ(RunCommand(CausewayBinary() + " analyze -q " + dir + " -o " + reports, &out), 0)
        << out;
    std::ifstream in(reports + "/summary.txt");
    const std::string summary((std::istreambuf_iterator<char>(in)),
                              std::istreambuf_iterator<char>());
    EXPECT_NE(summary.find("         the ranks' computation was descheduled "), std::string::npos)
        << summary;
  }
  const json pinned = Analyze(
      TraceProgram("cpu_bound", 2, "8 60", "", nullptr, "OMPI_MCA_hwloc_base_binding_policy=core"));
  EXPECT_EQ(warned(pinned), "");
  for (const json& r : pinned["trace"]["scheduling"]["ranks"]) {
    EXPECT_EQ(r["cpus_allowed"], 1) << r;  // pinned
    EXPECT_GT(measured(r), 0.0) << r;
  }
}

}  // namespace
}  // namespace cw::test
