// OpenMP threads recorded through OMPT (src/measure/runtime/omp_hooks.cc) in a hybrid program
// that GCC built (tests/programs/openmp/omp_teams.c), and analysed: every thread a location of
// its rank, Score-P's regions and records, and the waits the program was written to have.
#include <cmath>
#include <filesystem>
#include <map>
#include <regex>
#include <set>
#include <string>

#include <nlohmann/json.hpp>

#include <gtest/gtest.h>

#include "tests/common/paths.h"
#include "tests/common/traced_checks.h"
#include "tests/common/traced_program.h"

namespace cw::test {
namespace {

using nlohmann::json;

// Idle threads sleep: Open MPI's ranks in MPI_Barrier between the rounds, and libomp's threads in
// barriers and at locks (they would spin for 200 ms first and take the 2 cores from the threads
// whose sleeps end).
const std::string kQuietThreads = std::string(kIdleRanksYield) + " OMP_WAIT_POLICY=passive";

// The program's construct lines, as rank 0 printed them ("parallel line 35").
int LineOf(const std::string& output, const std::string& construct) {
  std::smatch m;
  const std::regex line(construct + " line ([0-9]+)");
  return std::regex_search(output, m, line) ? std::stoi(m[1]) : -1;
}

// The value of `metric` summed over every location and every call path whose region's name
// begins with `prefix`.
double TotalAt(const json& report, const std::string& metric, const std::string& prefix) {
  std::map<uint64_t, std::string> regions;
  for (const json& c : report["callpaths"]) regions[c["id"].get<uint64_t>()] = c["region"];
  double total = 0;
  for (const json& v : report["values"]) {
    if (v["metric"] == metric && regions[v["callpath"].get<uint64_t>()].rfind(prefix, 0) == 0)
      total += v["value"].get<double>();
  }
  return total;
}

// Waits made of sleeps: each of `parts` may be off by a sleeping thread's wake-up latency, which
// grows to a few milliseconds when other tests load the 2 cores (ctest -j2); the programmed
// structure is checked exactly by the instance counts.
void ExpectSleptWait(double measured, double programmed, int parts) {
  EXPECT_NEAR(measured, programmed, 0.1 * programmed + 0.003 * parts);
}

std::string NativeOutput(const std::string& program) {
  std::string out;
  EXPECT_EQ(RunCommand(kQuietThreads + " " + kMpirun + " -np 2 " + TestProgram(program), &out), 0)
      << out;
  return out;
}

// Traces `program` (omp_teams.c as GCC or clang built it) and checks its records, regions and
// waits; returns the report.
json ExpectProgrammedWaits(const std::string& program) {
  std::string output;
  const std::string dir = TraceProgram(program, 2, "", kExactCounts, &output, kQuietThreads);
  // The program computes what it computes natively (GCC's runs on LLVM's runtime when traced).
  const std::string result = "threads 3, critical sections 9, locks 9, loop 6";
  EXPECT_NE(output.find(result), std::string::npos) << output;
  EXPECT_NE(NativeOutput(program).find(result), std::string::npos);
  ExpectOtf2PrintReads(dir);

  // Each rank: its master and two OpenMP threads. Records per rank (3 rounds): a fork and a
  // join per round; a team begin and end per thread and round; a lock acquisition and release
  // per thread, round and kind (critical section, omp_set_lock).
  const json info = Info(dir);
  EXPECT_EQ(info["locations"].size(), 6u);
  // Score-P's location ids, thread << 32 | rank (Scalasca reads a thread's number from them).
  std::set<uint64_t> ids;
  for (const json& loc : info["locations"]) ids.insert(loc["otf2_id"].get<uint64_t>());
  EXPECT_EQ(ids, (std::set<uint64_t>{0, 1, uint64_t{1} << 32 | 0, uint64_t{1} << 32 | 1,
                                     uint64_t{2} << 32 | 0, uint64_t{2} << 32 | 1}));
  EXPECT_EQ(Count(info, "THREAD_FORK"), 2u * 3u);
  EXPECT_EQ(Count(info, "THREAD_JOIN"), 2u * 3u);
  EXPECT_EQ(Count(info, "THREAD_TEAM_BEGIN"), 2u * 3u * 3u);
  EXPECT_EQ(Count(info, "THREAD_TEAM_END"), 2u * 3u * 3u);
  EXPECT_EQ(Count(info, "THREAD_ACQUIRE_LOCK"), 2u * 3u * 3u * 2u);
  EXPECT_EQ(Count(info, "THREAD_RELEASE_LOCK"), 2u * 3u * 3u * 2u);

  // Regions named by the construct's source line, as Score-P names them.
  json report = Analyze(dir);
  const std::string at = " @omp_teams.c:";
  const std::string parallel = "!$omp parallel" + at + std::to_string(LineOf(output, "parallel"));
  const std::string barrier = "!$omp barrier" + at + std::to_string(LineOf(output, "barrier"));
  const std::string critical = "!$omp critical" + at + std::to_string(LineOf(output, "critical"));
  std::set<std::string> regions;
  for (const json& c : report["callpaths"]) regions.insert(c["region"].get<std::string>());
  for (const std::string& name : {parallel, barrier, critical, std::string("omp_set_lock"),
                                  "!$omp implicit barrier" + at, "!$omp critical sblock" + at}) {
    bool found = false;
    for (const std::string& r : regions) found |= r.rfind(name, 0) == 0;
    EXPECT_TRUE(found) << name << " is not among the regions";
  }

  // The waits of omp_teams.c's header, on 2 ranks x 3 rounds:
  //   explicit barriers: B1 (40 + 20 ms) and B2 (20 + 10 ms) per round, 4 waits: 540 ms;
  //   critical section and lock: 10 + 20 ms each per round, 2 waits each: 180 ms each;
  //   the implicit barrier closing the region: 20 + 10 ms per round, 2 waits: 180 ms.
  // Every one of those waits is an instance: each rank and round has 4 at the explicit barriers
  // and 2 in each of the others.
  const json& instances = report["instance_counts"];
  EXPECT_EQ(instances["omp_ebarrier_wait"].get<uint64_t>(), 24u);
  EXPECT_EQ(instances["omp_ibarrier_wait"].get<uint64_t>(), 12u);
  EXPECT_EQ(instances["omp_lock_contention_critical"].get<uint64_t>(), 12u);
  EXPECT_EQ(instances["omp_lock_contention_api"].get<uint64_t>(), 12u);
  ExpectSleptWait(TotalAt(report, "omp_ebarrier_wait", barrier), 0.36, 12);
  ExpectSleptWait(TotalAt(report, "omp_ebarrier_wait", "!$omp barrier"), 0.54, 24);
  ExpectSleptWait(TotalAt(report, "omp_lock_contention_critical", critical), 0.18, 12);
  ExpectSleptWait(TotalAt(report, "omp_lock_contention_api", "omp_set_lock"), 0.18, 12);
  ExpectSleptWait(TotalAt(report, "omp_ibarrier_wait", "!$omp implicit barrier"), 0.18, 12);
  // The threads' waits are in their master's call paths.
  for (const json& c : report["callpaths"]) {
    EXPECT_EQ(CallPathName(report, c["id"].get<uint64_t>()).rfind("main", 0), 0u);
  }
  return report;
}

TEST(TracedOpenMpTest, ThreadsOfAGccProgramAreRecordedWithTheirProgrammedWaits) {
  ExpectProgrammedWaits("omp_teams");
}

// Clang's program calls LLVM's runtime itself, which also reports its worksharing loop.
TEST(TracedOpenMpTest, ThreadsOfAClangProgramAreRecordedWithTheirProgrammedWaits) {
  if (!std::filesystem::exists(TestProgram("omp_teams_clang")))
    GTEST_SKIP() << "no clang to build omp_teams_clang";
  const json report = ExpectProgrammedWaits("omp_teams_clang");
  bool loop = false;
  for (const json& c : report["callpaths"])
    loop |= c["region"].get<std::string>().rfind("!$omp for @omp_teams.c:", 0) == 0;
  EXPECT_TRUE(loop);
}

// The value of `metric` summed over every location and every call path below `path` (itself
// included), by the call paths' names.
double BelowPath(const json& report, const std::string& metric, const std::string& path) {
  double total = 0;
  for (const json& v : report["values"]) {
    if (v["metric"] == metric &&
        CallPathName(report, v["callpath"].get<uint64_t>()).rfind(path, 0) == 0)
      total += v["value"].get<double>();
  }
  return total;
}

// omp_two_callers.c: spread()'s parallel region, called from solve() and from setup(). The
// fork's stack walk puts each team below the functions that forked it, on both threads: per
// rank and round, each thread spends 40 ms in solve's team (thread 1 sleeping, thread 0
// sleeping 20 and waiting 20 in the implicit barrier) and 80 ms in setup's.
TEST(TracedOpenMpTest, TeamsRunBelowTheFunctionsThatForkedThem) {
  std::string output;
  const std::string dir =
      TraceProgram("omp_two_callers", 2, "", kExactCounts, &output, kQuietThreads);
  EXPECT_NE(output.find("threads seen 12"), std::string::npos) << output;
  const json report = Analyze(dir);
  std::string solve, setup;  // the region's call paths
  for (const json& c : report["callpaths"]) {
    const std::string name = CallPathName(report, c["id"].get<uint64_t>());
    if (c["region"].get<std::string>().rfind("!$omp parallel @omp_two_callers.c:", 0) != 0)
      continue;
    if (name.rfind("main/solve/spread/", 0) == 0) solve = name;
    if (name.rfind("main/setup/spread/", 0) == 0) setup = name;
    EXPECT_TRUE(name == solve || name == setup) << name;
  }
  ASSERT_FALSE(solve.empty());
  ASSERT_FALSE(setup.empty());
  // 2 ranks x 3 rounds x 2 threads, 40 and 80 ms each.
  ExpectSleptWait(BelowPath(report, "time", solve), 12 * 0.04, 12);
  ExpectSleptWait(BelowPath(report, "time", setup), 12 * 0.08, 12);
  // The masters' waits: 20 and 40 ms per rank and round.
  ExpectSleptWait(BelowPath(report, "omp_ibarrier_wait", solve), 6 * 0.02, 6);
  ExpectSleptWait(BelowPath(report, "omp_ibarrier_wait", setup), 6 * 0.04, 6);
  // Each thread filled both teams; every thread's time is its master's.
  EXPECT_LT(MetricTotal(report, "omp_limited_parallelism"), 0.003 * 12);
  std::map<std::string, double> time_of_rank;
  std::map<uint64_t, std::string> group;
  for (const json& l : report["locations"]) group[l["id"].get<uint64_t>()] = l["group"];
  std::map<uint64_t, double> time;
  for (const json& v : report["values"]) {
    if (v["metric"] == "time") time[v["location"].get<uint64_t>()] += v["value"].get<double>();
  }
  ASSERT_EQ(time.size(), 4u);
  for (const auto& [loc, t] : time) {
    auto [it, first] = time_of_rank.try_emplace(group[loc], t);
    if (!first) {
      EXPECT_NEAR(t, it->second, 1e-6) << "location " << loc;
    }
  }
}

// omp_compute.c with the default --callpaths sampled: each thread's samples in kernel() nest
// below the parallel region, in the function GCC outlined its body to, on the master as on the
// worker; the implicit barrier stays right below the region (the runtime enters it after the
// outlined function returned), and nothing nests below it: the master waits there about 30 ms
// per round, in the runtime, and the samples of that wait are the barrier's time.
TEST(TracedOpenMpTest, SamplesInsideAParallelRegionNestBelowIt) {
  std::string output;
  const std::string dir = TraceProgram("omp_compute", 2, "", "", &output, kQuietThreads);
  const std::string result = "result 0.810000";
  EXPECT_NE(output.find(result), std::string::npos) << output;
  EXPECT_NE(NativeOutput("omp_compute").find(result), std::string::npos);
  const json report = Analyze(dir);
  std::string region;  // main/spread/!$omp parallel @omp_compute.c:LINE
  for (const json& c : report["callpaths"]) {
    if (c["region"].get<std::string>().rfind("!$omp parallel @omp_compute.c:", 0) == 0)
      region = CallPathName(report, c["id"].get<uint64_t>());
  }
  ASSERT_EQ(region.rfind("main/spread/!$omp parallel @omp_compute.c:", 0), 0u) << region;
  std::map<uint64_t, double> in_kernel;  // by location
  bool barrier_below_region = false;
  for (const json& v : report["values"]) {
    const std::string path = CallPathName(report, v["callpath"].get<uint64_t>());
    if (v["metric"] == "time" && path == region + "/spread._omp_fn.0/kernel")
      in_kernel[v["location"].get<uint64_t>()] += v["value"].get<double>();
    barrier_below_region |= path.rfind(region + "/!$omp implicit barrier @", 0) == 0;
    const size_t barrier = path.find("/!$omp implicit barrier @");
    if (barrier != std::string::npos) {
      EXPECT_EQ(path.find('/', barrier + 1), std::string::npos) << path;
    }
  }
  EXPECT_TRUE(barrier_below_region);
  // Both threads of both ranks computed in kernel() for tens of milliseconds per round.
  ASSERT_EQ(in_kernel.size(), 4u) << report["callpaths"];
  for (const auto& [location, seconds] : in_kernel) EXPECT_GT(seconds, 0.01) << location;
}

// omp_teams.c with the default --callpaths sampled: its threads spin for tens of milliseconds in
// barriers, critical sections and omp_set_lock, where the runtime, not the program, runs.
// Samples taken there are those constructs' time: no function opens below a barrier or a lock
// routine, and below a critical construct only its body (the sblock).
TEST(TracedOpenMpTest, SamplesWhileAThreadWaitsOpenNothingBelowTheConstruct) {
  // Waiting threads spin (OMP_WAIT_POLICY=active): they take CPU time, and samples, there.
  std::string output;
  const std::string dir = TraceProgram("omp_teams", 2, "", "", &output,
                                       std::string(kIdleRanksYield) + " OMP_WAIT_POLICY=active");
  EXPECT_NE(output.find("threads 3, critical sections 9, locks 9, loop 6"), std::string::npos);
  // The threads sleep in their own code (no CPU time, no sample): the samples are the waits'.
  const size_t samples = output.find(" stack samples");
  ASSERT_NE(samples, std::string::npos) << output;
  EXPECT_GT(std::stoul(output.substr(output.rfind(' ', samples - 1) + 1)), 0u) << output;
  const json report = Analyze(dir);
  for (const json& c : report["callpaths"]) {
    const std::string path = CallPathName(report, c["id"].get<uint64_t>());
    for (const char* waiting : {"barrier @", "omp_set_lock/", "omp_unset_lock/"}) {
      const size_t at = path.find(waiting);
      if (at != std::string::npos) {
        EXPECT_EQ(path.find('/', at), std::string::npos) << path;
      }
    }
    const size_t critical = path.find("!$omp critical @");
    if (critical != std::string::npos && path.find('/', critical) != std::string::npos) {
      EXPECT_NE(path.find("/!$omp critical sblock @", critical), std::string::npos) << path;
    }
  }
}

// The names of the report's diagnostics about the trace itself: all but those about the machine
// the run had (run.*: CPU contention when other tests load the 2 cores).
std::set<std::string> TraceDiagnostics(const json& report) {
  std::set<std::string> names;
  for (const json& d : report["diagnostics"]) {
    const std::string name = d["name"];
    if (name.rfind("run.", 0) != 0) names.insert(name);
  }
  return names;
}

// omp_serial.c, per rank (its header): 70 parallel regions of one thread and one of two; 100
// lock acquisitions while the process has one OpenMP thread (phase 1), then 5 by a POSIX thread
// of the program's, 60 in teams of one thread and 2 in the team of two.
TEST(TracedOpenMpTest, TeamsOfOneThreadAndSoloLocksAreLeftOutUnlessAsked) {
  const std::string result = "critical sections 72, locks 95, iterations 160, singles 10";
  EXPECT_NE(NativeOutput("omp_serial").find(result), std::string::npos);

  // By default: only the team of two is a fork (one per rank, its two threads' parts); the
  // locks of phases 2 to 4 are recorded, 67 per rank, those of phase 1 are not.
  std::string output;
  std::string dir = TraceProgram("omp_serial", 2, "", kExactCounts, &output, kQuietThreads);
  EXPECT_NE(output.find(result), std::string::npos) << output;
  EXPECT_NE(output.find("  140 OpenMP parallel regions had a team of one thread and were not "
                        "recorded"),
            std::string::npos)
      << output;
  EXPECT_NE(output.find("  200 OpenMP lock acquisitions (critical sections, omp_set_lock) were "
                        "not recorded while their process had one OpenMP thread"),
            std::string::npos)
      << output;
  // Every construct the thread entered in a team of one thread it left there too.
  EXPECT_EQ(output.find("left open"), std::string::npos) << output;
  json info = Info(dir);
  EXPECT_EQ(Count(info, "THREAD_FORK"), 2u);
  EXPECT_EQ(Count(info, "THREAD_JOIN"), 2u);
  EXPECT_EQ(Count(info, "THREAD_TEAM_BEGIN"), 2u * 2u);
  EXPECT_EQ(Count(info, "THREAD_TEAM_END"), 2u * 2u);
  EXPECT_EQ(Count(info, "THREAD_ACQUIRE_LOCK"), 2u * 67u);
  EXPECT_EQ(Count(info, "THREAD_RELEASE_LOCK"), 2u * 67u);
  json report = Analyze(dir);
  EXPECT_TRUE(TraceDiagnostics(report).empty()) << report["diagnostics"];
  // The MPI calls inside the teams of one thread are recorded, below the function GCC outlined
  // the region's body to.
  EXPECT_EQ(TotalAt(report, "visits", "MPI_Barrier"), 2 * 40);
  bool in_body = false;
  for (const json& c : report["callpaths"]) {
    const std::string path = CallPathName(report, c["id"].get<uint64_t>());
    in_body |= path == "main/alone/alone._omp_fn.0/MPI_Barrier";
    // No construct of a team of one thread: the only parallel region is two_threads'.
    if (c["region"].get<std::string>().rfind("!$omp parallel", 0) == 0) {
      EXPECT_EQ(path.rfind("main/two_threads/!$omp parallel @omp_serial.c:", 0), 0u) << path;
    }
    // Nor any barrier or single: those of the teams of one thread and the orphaned ones.
    EXPECT_EQ(c["region"].get<std::string>().rfind("!$omp barrier", 0), std::string::npos);
    EXPECT_EQ(c["region"].get<std::string>().rfind("!$omp single", 0), std::string::npos);
  }
  EXPECT_TRUE(in_body) << report["callpaths"];

  // --openmp-serial record: every team (71 forks per rank) and every acquisition (167).
  dir = TraceProgram("omp_serial", 2, "", kExactCounts + std::string(" --openmp-serial record"),
                     &output, kQuietThreads);
  EXPECT_NE(output.find(result), std::string::npos) << output;
  EXPECT_EQ(output.find("not recorded"), std::string::npos) << output;
  info = Info(dir);
  EXPECT_EQ(Count(info, "THREAD_FORK"), 2u * 71u);
  EXPECT_EQ(Count(info, "THREAD_TEAM_BEGIN"), 2u * 72u);
  EXPECT_EQ(Count(info, "THREAD_TEAM_END"), 2u * 72u);
  EXPECT_EQ(Count(info, "THREAD_ACQUIRE_LOCK"), 2u * 167u);
  EXPECT_EQ(Count(info, "THREAD_RELEASE_LOCK"), 2u * 167u);
  report = Analyze(dir);
  EXPECT_TRUE(TraceDiagnostics(report).empty()) << report["diagnostics"];
  EXPECT_EQ(TotalAt(report, "visits", "MPI_Barrier"), 2 * 40);
  // In each of the 40 teams of one thread per rank, two barriers: the explicit one and the one
  // GCC's statically scheduled loop ends with (a call of GOMP_barrier, as the explicit one);
  // and 10 times per rank the orphaned barrier, single, and the barrier GCC ends the single
  // with (the same call again). GCC's single reaches libomp without its address.
  std::map<std::string, double> barriers;  // visits by region
  std::string single;
  for (const json& c : report["callpaths"]) {
    const std::string region = c["region"];
    if (region.rfind("!$omp barrier @omp_serial.c:", 0) == 0)
      barriers[region] = TotalAt(report, "visits", region);
    if (region.rfind("!$omp single", 0) == 0) single = region;
  }
  std::multiset<double> visits;
  for (const auto& [region, v] : barriers) visits.insert(v);
  EXPECT_EQ(visits, (std::multiset<double>{2 * 10, 2 * 10, 2 * 40, 2 * 40})) << report["callpaths"];
  ASSERT_FALSE(single.empty());
  EXPECT_EQ(TotalAt(report, "visits", single), 2 * 10);
  EXPECT_EQ(TotalAt(report, "visits", "alone._omp_fn.0"), 2 * 40);
}

TEST(TracedOpenMpTest, OpenMpOffRecordsNoThread) {
  std::string output;
  const std::string dir = TraceProgram(
      "omp_teams", 2, "", kExactCounts + std::string(" --openmp off"), &output, kQuietThreads);
  EXPECT_NE(output.find("threads 3, critical sections 9, locks 9, loop 6"), std::string::npos)
      << output;
  const json info = Info(dir);
  EXPECT_EQ(info["locations"].size(), 2u);
  EXPECT_EQ(Count(info, "THREAD_FORK"), 0u);
}

}  // namespace
}  // namespace cw::test
