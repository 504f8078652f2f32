// Real OpenSHMEM programs (tests/programs/shmem_*) run under `causeway trace` with oshrun: the
// records must reproduce every call the programs made, in Score-P's SHMEM conventions, and a
// crash or shmem_global_exit must lose nothing recorded before it.
#include <algorithm>
#include <cstdio>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "measure/wrappers/shmem_functions.gen.h"
#include "report/json_writer.h"
#include "testing/scenario.h"
#include "tests/common/analysis_fixture.h"
#include "tests/common/paths.h"
#include "tests/common/root_cause_invariants.h"
#include "tests/common/traced_checks.h"
#include "tests/common/traced_program.h"

namespace cw::test {
namespace {

// Every routine the installed OpenSHMEM library offers through its profiling interface (a weak
// shmem_X beside a strong pshmem_X) is wrapped, except the library's own extensions (shmemx_).
TEST(TracedShmemProgramsTest, EveryProfiledRoutineOfTheLibraryIsWrapped) {
  std::string symbols;
  ASSERT_EQ(RunCommand("nm -D --defined-only " CW_OSHMEM_LIBRARY, &symbols), 0) << symbols;
  std::set<std::string> strong, weak;
  std::istringstream lines(symbols);
  std::string address, type, name;
  while (lines >> address >> type >> name) (type == "T" ? strong : weak).insert(name);
  std::set<std::string> wrapped;
  for (const measure::ShmemFunctionInfo& f : measure::kShmemFunctions) wrapped.insert(f.name);
  size_t profiled = 0;
  for (const std::string& routine : weak) {
    if (strong.count("p" + routine) == 0 || routine.rfind("shmemx_", 0) == 0) continue;
    ++profiled;
    EXPECT_TRUE(wrapped.count(routine)) << routine << " is not wrapped";
  }
  // Open MPI 4.1's oshmem: about 900 routines (a check that the symbol table was read).
  EXPECT_GT(profiled, 800u);
}

// The values of `metric` at call path `path` on PEs 0..pes-1, smallest first (for waits whose
// PE is decided at run time, as who gets a contended lock first).
std::vector<double> SortedOverPes(const json& report, const std::string& metric,
                                  const std::string& path, uint64_t pes) {
  std::vector<double> values;
  for (uint64_t pe = 0; pe < pes; ++pe) values.push_back(ValueAt(report, metric, path, pe));
  std::sort(values.begin(), values.end());
  return values;
}

// tests/programs/shmem_needed_barrier.c: PE 0's local store into symmetric memory before the
// first barrier of each round is what PE 1 gets after it. The trace shows no transfer before
// that barrier, but the barrier is needed (the program exits with 1 if PE 1 reads a stale
// value): the analysis says "possibly redundant", names symmetric memory as what to check, and
// predicts no saving from removing it.
TEST(TracedShmemProgramsTest, ANeededBarrierIsNeverToldToBeRemoved) {
  const json report = Analyze(TraceShmemProgram("shmem_needed_barrier", 2));
  const json& advice = report["advice"];
  ASSERT_TRUE(advice.is_object());
  bool possibly = false;
  for (const json& f : advice["findings"]) {
    const std::string path = CallPathName(report, f["callpath"].get<uint64_t>());
    EXPECT_NE(f["pattern"], "redundant_barrier") << path;
    for (const json& hint : f["hints"])
      EXPECT_EQ(hint.get<std::string>().rfind("remove the barrier", 0), std::string::npos);
    if (f["pattern"] != "possibly_redundant_barrier") continue;
    possibly = true;
    EXPECT_EQ(path, "main/publish/shmem_barrier_all");
    EXPECT_EQ(f["unseen"], json::array({"symmetric_memory"}));
    EXPECT_TRUE(f["predicted_saving"].is_null());
    EXPECT_FALSE(f["no_prediction"].get<std::string>().empty());
  }
  EXPECT_TRUE(possibly) << advice["findings"].dump(1);
}

// tests/programs/shmem_patterns.c on 3 PEs; the counts follow its phases A-F.
TEST(TracedShmemProgramsTest, EveryCallOfThePatternsIsRecorded) {
  const std::string dir = TraceShmemProgram("shmem_patterns", 3, "", kExactCounts);
  ExpectOtf2PrintReads(dir);
  ExpectNestingSurvivesTimeOrder(dir);
  const json info = Info(dir);
  // Gets: 500 shmem_int_g on PEs 1 and 2 (D), 2 shmem_getmem on PE 0 (E), and per PE an iget
  // and a get_nbi (F): 1000 + 2 + 6.
  EXPECT_EQ(Count(info, "RMA_GET"), 1008u);
  // Puts: PE 0's shmem_int_p (B); per PE in F a put, an iput, two nbi puts and a put and an nbi
  // put on a context: 1 + 3 x 6.
  EXPECT_EQ(Count(info, "RMA_PUT"), 19u);
  // Atomics: fetch_add, inc, compare_swap, fetch and fadd per PE.
  EXPECT_EQ(Count(info, "RMA_ATOMIC"), 15u);
  // Every transfer is completed once: blocking ones by their own call, the nbi ones by the
  // quiet (or the context's quiet) after them.
  EXPECT_EQ(Count(info, "RMA_OP_COMPLETE_BLOCKING"), 1008u + 19u + 15u);
  // Per PE 8 barrier_all, broadcast, collect, fcollect, sum_to_all, alltoall and sync_all (14),
  // and shmem_barrier on the active set {0, 1} on PEs 0 and 1: 3 x 14 + 2.
  EXPECT_EQ(Count(info, "RMA_COLLECTIVE_BEGIN"), 44u);
  EXPECT_EQ(Count(info, "RMA_COLLECTIVE_END"), 44u);
  // Locks: each PE's set_lock (a request and an acquisition) and clear_lock (C), and PE 0's
  // successful test_lock and its clear_lock (F).
  EXPECT_EQ(Count(info, "RMA_REQUEST_LOCK"), 3u);
  EXPECT_EQ(Count(info, "RMA_ACQUIRE_LOCK"), 4u);
  EXPECT_EQ(Count(info, "RMA_RELEASE_LOCK"), 4u);
  EXPECT_EQ(Count(info, "RMA_TRY_LOCK"), 0u);
  EXPECT_EQ(Count(info, "RMA_WAIT_CHANGE"), 1u);  // PE 1's wait_until (B)
  // Regions: per PE main, shmem_init, my_pe, n_pes, 2 mallocs, 8 barrier_all, 2 frees,
  // finalize, set_lock and clear_lock (19), and in F 8 transfer and ordering calls, 5 context
  // calls, 5 atomics, 6 collectives and a test (25): 44; PE 0 also int_p, 2 getmem, test_lock,
  // clear_lock and the active-set barrier (6); PE 1 wait_until, 500 int_g and the barrier
  // (502); PE 2 500 int_g. And per PE the six phase regions.
  EXPECT_EQ(Count(info, "ENTER"), 3u * (44u + 6u) + 6u + 502u + 500u);
  EXPECT_EQ(Count(info, "LEAVE"), Count(info, "ENTER"));
  // The symmetric heap's window over all PEs, and the active set {0, 1}'s.
  EXPECT_EQ(info["definitions"]["rma_windows"].get<uint64_t>(), 2u);
  const json report = Analyze(dir);
  // Each programmed wait, at its phase's call path (within 5 % or 20 ms; ExpectWait).
  // A: PEs 1 and 2 wait 100 ms in the barrier for PE 0.
  const std::string a = "main/phase_A/shmem_barrier_all";
  ExpectWait(ValueAt(report, "shmem_barrier_wait", a, 0), 0.0);
  ExpectWait(ValueAt(report, "shmem_barrier_wait", a, 1), 0.1);
  ExpectWait(ValueAt(report, "shmem_barrier_wait", a, 2), 0.1);
  // B: PE 1 waits 100 ms for its flag, PE 2 100 ms in the barrier.
  ExpectWait(ValueAt(report, "shmem_wait_on_value", "main/phase_B/shmem_int_wait_until", 1), 0.1);
  ExpectWait(ValueAt(report, "shmem_barrier_wait", "main/phase_B/shmem_barrier_all", 2), 0.1);
  // C: whichever PEs get the lock second and third wait 50 and 100 ms for it (until the holder
  // before them began to release it). The barrier after the chain also holds the hand-overs'
  // latency, which the program does not set: only its order is checked.
  const std::vector<double> lock =
      SortedOverPes(report, "shmem_lock_contention", "main/phase_C/shmem_set_lock", 3);
  ExpectWait(lock[0], 0.0);
  ExpectWait(lock[1], 0.05);
  ExpectWait(lock[2], 0.1);
  const std::vector<double> after =
      SortedOverPes(report, "shmem_barrier_wait", "main/phase_C/shmem_barrier_all", 3);
  EXPECT_LT(after[0], 0.02);
  EXPECT_GT(after[1], 0.04);
  EXPECT_GT(after[2], after[1] + 0.04);
  EXPECT_EQ(MetricTotal(report, "mpi"), 0.0);
  EXPECT_GT(MetricTotal(report, "shmem_rma"), 0.0);
  EXPECT_GT(MetricTotal(report, "shmem_collective"), 0.0);
  EXPECT_EQ(MetricTotal(report, "comms_rma_gets"), 1008.0);
  EXPECT_EQ(MetricTotal(report, "comms_rma_puts"), 19.0);
  EXPECT_EQ(report["matching"]["collective_instances"].get<uint64_t>(), 15u);
  for (uint64_t pe : {1u, 2u}) {
    EXPECT_EQ(ValueAt(report, "visits", "main/phase_D/shmem_int_g", pe), 500.0);
  }
  EXPECT_EQ(ValueAt(report, "visits", "main/phase_F/shmem_ctx_putmem_nbi", 0), 1.0);
}

TEST(TracedShmemProgramsTest, TaskActivityGraphsShowTheRoutines) {
  // causeway tag offline: OpenSHMEM routines are activities as MPI calls are, and the barriers
  // and collectives of tests/programs/shmem_patterns.c link the PEs.
  const std::string dir = TraceShmemProgram("shmem_patterns", 3);
  const std::string out = testing::MakeTempDir("shmem-tag");
  std::string text;
  ASSERT_EQ(RunCommand(CausewayBinary() + " tag -q " + dir + " -o " + out, &text), 0) << text;
  std::ifstream in(out + "/tag.json");
  const json tag = json::parse(in);
  for (const json& p : tag["processes"]) {
    SCOPED_TRACE(p["rank"].dump());
    bool barrier = false, put = false;
    for (const json& n : p["nodes"]) {
      const std::string name = n["name"];
      barrier = barrier || (name == "shmem_barrier_all" && n["kind"] == "mpi");
      put = put || (name.rfind("shmem_", 0) == 0 && name.find("put") != std::string::npos);
    }
    EXPECT_TRUE(barrier);
    EXPECT_TRUE(put);
  }
  EXPECT_GT(tag["ptag_edges"].size(), 0u);
}

TEST(TracedShmemProgramsTest, FortranThroughIsoCBinding) {
#ifndef CW_HAVE_SHMEM_FORTRAN
  GTEST_SKIP() << "no Fortran compiler";
#endif
  const std::string dir = TraceShmemProgram("shmem_fortran", 2, "", kExactCounts);
  ExpectOtf2PrintReads(dir);
  const json info = Info(dir);
  // 3 barriers per PE, PE 0's put and PE 1's wait_until, each PE's lock and unlock.
  EXPECT_EQ(Count(info, "RMA_COLLECTIVE_END"), 6u);
  EXPECT_EQ(Count(info, "RMA_PUT"), 1u);
  EXPECT_EQ(Count(info, "RMA_OP_COMPLETE_BLOCKING"), 1u);
  EXPECT_EQ(Count(info, "RMA_WAIT_CHANGE"), 1u);
  EXPECT_EQ(Count(info, "RMA_REQUEST_LOCK"), 2u);
  EXPECT_EQ(Count(info, "RMA_ACQUIRE_LOCK"), 2u);
  EXPECT_EQ(Count(info, "RMA_RELEASE_LOCK"), 2u);
  // main, init, my_pe, 3 barriers, set_lock, clear_lock, finalize per PE; the put or the wait.
  EXPECT_EQ(Count(info, "ENTER"), 2u * 9u + 2u);
  // PE 1 waits 100 ms in the first barrier and 100 ms for its flag; the second PE to take the
  // lock waits 50 ms for it, and the first waits 50 ms for the second in the last barrier.
  const json report = Analyze(dir);
  // The first barrier: PE 1's earliest wait instance. The last: whichever PE got the lock first
  // waits 50 ms for the other, so the barrier waits add up to 150 ms.
  double first_time = 1e300, first_wait = 0;
  for (const json& i : report["instances"]) {
    if (i["metric"] == "shmem_barrier_wait" && i["location"] == 1 &&
        i["time"].get<double>() < first_time) {
      first_time = i["time"].get<double>();
      first_wait = i["value"].get<double>();
    }
  }
  ExpectWait(first_wait, 0.1);
  ExpectWait(MetricTotal(report, "shmem_barrier_wait"), 0.15, 3);
  ExpectInstances(report, "shmem_wait_on_value", 1, 0.1);
  ExpectInstances(report, "shmem_lock_contention", 1, 0.05);
}

// The root-cause invariants on the traced OpenSHMEM programs: the delay costs of every pattern
// (one-sided ones included) sum to its waiting, the critical path spans the run, and the
// results do not depend on the thread count.
// shmem_thread_collectives.c on 2 PEs: a thread of each PE (not the main one) calls
// shmem_barrier_all 5 times, PE 0's after 100 ms: the 5 barriers are complete instances of the
// "All PEs" window (the thread's calls are its PE's) and PE 1's thread waits 100 ms in the first.
TEST(TracedShmemProgramsTest, CollectivesFromAThreadAreItsPes) {
  std::string output;
  const std::string dir = TraceShmemProgram("shmem_thread_collectives", 2, "", "", &output);
  EXPECT_NE(output.find("counter 10 on 2 PEs"), std::string::npos) << output;
  const json report = Analyze(dir);
  EXPECT_EQ(report["matching"]["collective_instances"].get<uint64_t>(), 5u);
  EXPECT_EQ(report["matching"]["incomplete_collectives"].get<uint64_t>(), 0u);
  ExpectWait(MetricTotal(report, "shmem_barrier_wait"), 0.1);
  for (const json& d : report["diagnostics"]) EXPECT_NE(d["severity"], "error") << d;
}

TEST(TracedShmemProgramsTest, RootCauseInvariantsHold) {
  std::vector<std::tuple<const char*, int, const char*>> programs = {{"shmem_patterns", 3, ""},
                                                                     {"shmem_ring", 4, "5 2000"}};
#ifdef CW_HAVE_SHMEM_FORTRAN
  programs.emplace_back("shmem_fortran", 2, "");
#endif
  for (const auto& [program, pes, args] : programs) {
    SCOPED_TRACE(program);
    const std::string dir = TraceShmemProgram(program, pes, args);
    ExpectOtf2PrintReads(dir);
    Analysis a = AnalyzeFile(dir + "/traces.otf2", 2);
    EXPECT_EQ(a.report.trace.clock_violations_p2p + a.report.trace.clock_violations_collective, 0u);
    ExpectRootCauseInvariants(a, InvariantOptions{});
    // The one-sided waits are followed: their delay costs explain them.
    EXPECT_NEAR(a.Total("delay_shmem_barrier_wait_aggregate"), a.Total("shmem_barrier_wait"), 1e-9);
    EXPECT_NEAR(a.Total("delay_shmem_lock_contention_aggregate"), a.Total("shmem_lock_contention"),
                1e-9);
    EXPECT_NEAR(a.Total("delay_shmem_wait_on_value_aggregate"), a.Total("shmem_wait_on_value"),
                1e-9);
    const std::string one = report::ToJson(AnalyzeFile(dir + "/traces.otf2", 1).report);
    EXPECT_EQ(one, report::ToJson(a.report));
    EXPECT_EQ(one, report::ToJson(AnalyzeFile(dir + "/traces.otf2", 4).report));
  }
}

// PE 0 puts 100 values into PE 1 and ends badly; PE 1 has waited for the last one and is killed
// in its barrier. Both sides' records up to then are in a readable trace.
void ExpectEverythingUpToTheEnd(const std::string& mode, const std::string& ending) {
  const std::string dir = testing::MakeTempDir("traced-shmem-crash-" + mode);
  std::string out;
  RunCommand(std::string(kShmemEnvironment) + " " + CausewayBinary() + " trace -o " + dir + " -- " +
                 kOshrun + " -np 2 " + TestProgram("shmem_crash") + " " + mode + " 100",
             &out);
  EXPECT_NE(out.find("Trace written to"), std::string::npos) << out;
  EXPECT_NE(out.find("rank 0 ended early (" + ending), std::string::npos) << out;
  ExpectOtf2PrintReads(dir);
  const json info = Info(dir);
  EXPECT_EQ(Count(info, "RMA_PUT"), 100u);
  EXPECT_EQ(Count(info, "RMA_OP_COMPLETE_BLOCKING"), 100u);
  EXPECT_EQ(Count(info, "RMA_WAIT_CHANGE"), 1u);
  EXPECT_EQ(Count(info, "RMA_COLLECTIVE_BEGIN"), 1u);  // PE 1's barrier, never completed
  const json report = Analyze(dir);
  EXPECT_EQ(ValueAt(report, "visits", "main/shmem_int_p", 0), 100.0);
  // The report says how PE 0 ended.
  const json& endings = report["trace"]["rank_endings"];
  ASSERT_EQ(endings.size(), 2u) << report["trace"];
  EXPECT_EQ(endings[0]["ending"].get<std::string>().rfind(ending, 0), 0u) << endings;
}

TEST(TracedShmemProgramsTest, SegfaultKeepsEveryEvent) {
  ExpectEverythingUpToTheEnd("segv", "signal 11");
}
TEST(TracedShmemProgramsTest, GlobalExitKeepsEveryEvent) {
  ExpectEverythingUpToTheEnd("global_exit", "abort");
}

}  // namespace
}  // namespace cw::test
