// Real MPI programs (tests/programs) run under `causeway trace` with mpirun, read back and
// analysed: the tracer's records must reproduce the calls the programs made and the waits they
// were written to produce, and nothing may be lost on a flush, a crash or an abort.
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <string>

#include <nlohmann/json.hpp>

#include <gtest/gtest.h>

#include "otf2/trace_reader.h"
#include "report/json_writer.h"
#include "testing/scenario.h"
#include "tests/common/analysis_fixture.h"
#include "tests/common/paths.h"
#include "tests/common/root_cause_invariants.h"
#include "tests/common/traced_checks.h"
#include "tests/common/traced_program.h"

namespace cw::test {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

class TracedWithTimer : public ::testing::TestWithParam<const char*> {};

// Both timers: the time-stamp counter (the default where it runs at a constant rate) and
// CLOCK_MONOTONIC.
INSTANTIATE_TEST_SUITE_P(Timers, TracedWithTimer, ::testing::Values("tsc", "monotonic"));

TEST_P(TracedWithTimer, LateSender) {
  const std::string dir = TraceProgram("late_sender", 2, "", kExactCounts, nullptr,
                                       std::string("CAUSEWAY_TIMER=") + GetParam());
  ExpectOtf2PrintReads(dir);
  ExpectNestingSurvivesTimeOrder(dir);
  // Each rank: main and MPI_Init (4 events), MPI_Comm_rank (2: Score-P's default groups
  // record it), 2 iterations of three calls with one record each (9 events per iteration), the
  // barrier (Enter, begin, end, Leave) and MPI_Finalize (2): 4 + 2 + 18 + 4 + 2 = 30 per rank.
  const json info = Info(dir);
  EXPECT_EQ(info["events"].get<uint64_t>(), 60u);
  EXPECT_EQ(Count(info, "MPI_SEND"), 2u);
  EXPECT_EQ(Count(info, "MPI_RECV"), 2u);
  EXPECT_EQ(Count(info, "MPI_ISEND"), 2u);
  EXPECT_EQ(Count(info, "MPI_ISEND_COMPLETE"), 2u);
  EXPECT_EQ(Count(info, "MPI_IRECV_REQUEST"), 2u);
  EXPECT_EQ(Count(info, "MPI_IRECV"), 2u);
  EXPECT_EQ(Count(info, "MPI_COLLECTIVE_END"), 2u);
  // Rank 0 computes 200 ms before each of its 4 sends; rank 1 is already receiving each time:
  // 4 x 0.2 s of Late Sender, within 5 % or 20 ms (a real run adds jitter).
  const json report = Analyze(dir);
  ExpectInstances(report, "mpi_latesender", 4, 0.2);
  EXPECT_EQ(report["matching"]["unmatched_sends"].get<uint64_t>(), 0u);
  EXPECT_EQ(report["matching"]["unmatched_receives"].get<uint64_t>(), 0u);
}

// The invariants every analysis keeps on every trace, on traces causeway recorded itself: delay
// costs add up to the waiting, the critical path spans the run (the ranks share one node's
// clock, so the clock condition holds), and results do not depend on the thread count.
TEST(TracedProgramsTest, RootCauseInvariantsHoldOnTracedPrograms) {
  for (const char* program :
       {"late_sender", "many_events", "probes", "persistent_and_nonblocking_collectives",
        "collectives", "p2p_patterns", "instrumented", "rma_epochs"}) {
    SCOPED_TRACE(program);
    const std::string dir =
        TraceProgram(program, 3, program == std::string("many_events") ? "500" : "");
    Analysis a = AnalyzeFile(dir + "/traces.otf2", 2);
    EXPECT_EQ(a.report.trace.clock_violations_p2p + a.report.trace.clock_violations_collective, 0u);
    ExpectRootCauseInvariants(a, InvariantOptions{});
    const std::string one = report::ToJson(AnalyzeFile(dir + "/traces.otf2", 1).report);
    EXPECT_EQ(one, report::ToJson(a.report));
    EXPECT_EQ(one, report::ToJson(AnalyzeFile(dir + "/traces.otf2", 4).report));
  }
}

TEST(TracedProgramsTest, ProbesCarryWhatTheyFound) {
  const std::string dir = TraceProgram("probes", 2);
  ExpectOtf2PrintReads(dir);
  const json report = Analyze(dir);
  // All three probes are linked from their recorded attributes, none inferred.
  const json& probes = report["matching"]["probes"];
  EXPECT_EQ(probes["linked"].get<uint64_t>(), 3u);
  EXPECT_EQ(probes["inferred"].get<uint64_t>(), 0u);
  EXPECT_EQ(probes["unlinked"].get<uint64_t>(), 0u);
  // Rank 0 computes 100 ms before each send: the blocking probes wait for it, the receives that
  // follow them do not; the polled MPI_Improbe found its message after the send had started.
  ExpectWait(MetricTotal(report, "mpi_latesender", "MPI_Probe"), 0.1);
  ExpectWait(MetricTotal(report, "mpi_latesender", "MPI_Mprobe"), 0.1);
  EXPECT_EQ(MetricTotal(report, "mpi_latesender", "MPI_Recv"), 0.0);
  EXPECT_EQ(MetricTotal(report, "mpi_latesender", "MPI_Mrecv"), 0.0);
  EXPECT_EQ(MetricTotal(report, "mpi_latesender", "MPI_Improbe"), 0.0);
  EXPECT_EQ(MetricTotal(report, "mpi_latesender", "MPI_Wait"), 0.0);
  EXPECT_EQ(report["matching"]["messages"].get<uint64_t>(), 3u);
}

TEST(TracedProgramsTest, PersistentRequestsAndNonBlockingCollectives) {
  const std::string dir = TraceProgram("persistent_and_nonblocking_collectives", 3);
  ExpectOtf2PrintReads(dir);
  // Each of the 3 starts of the persistent send and receive is an Isend / IrecvRequest,
  // completed in MPI_Wait; each of 3 ranks starts 2 non-blocking collectives and completes them
  // in MPI_Waitall.
  const json info = Info(dir);
  EXPECT_EQ(Count(info, "MPI_ISEND"), 3u);
  EXPECT_EQ(Count(info, "MPI_ISEND_COMPLETE"), 3u);
  EXPECT_EQ(Count(info, "MPI_IRECV_REQUEST"), 3u);
  EXPECT_EQ(Count(info, "MPI_IRECV"), 3u);
  EXPECT_EQ(Count(info, "NON_BLOCKING_COLLECTIVE_REQUEST"), 6u);
  EXPECT_EQ(Count(info, "NON_BLOCKING_COLLECTIVE_COMPLETE"), 6u);
  const json report = Analyze(dir);
  EXPECT_EQ(report["matching"]["messages"].get<uint64_t>(), 3u);
  ExpectWait(MetricTotal(report, "mpi_latesender", "MPI_Wait"), 0.3, 3);
  ExpectInstances(report, "mpi_latesender", 3, 0.1);
  // Rank 2 takes no part in the 300 ms of persistent messages: it starts its MPI_Iallreduce and
  // MPI_Ibarrier at once and waits in its MPI_Waitall for ranks 0 and 1 to start theirs, once
  // for both operations; ranks 0 and 1 start last and do not wait.
  ExpectWait(ValueAt(report, "mpi_wait_senders", "main/MPI_Waitall", 2), 0.3, 3);
  for (uint64_t rank : {0u, 1u}) {
    ExpectWait(ValueAt(report, "mpi_wait_senders", "main/MPI_Waitall", rank), 0.0);
  }
  EXPECT_EQ(report["matching"]["collective_instances"].get<uint64_t>(), 2u);
}

TEST(TracedProgramsTest, OneSidedCommunication) {
  // 3 ranks on 2 cores: while rank 0 computes its 100 ms, rank 2 polls in a barrier; unless it
  // yields (kIdleRanksYield), rank 1 can be off the CPU until rank 0 is done and ask for the
  // lock too late to wait for it (1 ms measured now and then on a loaded machine).
  const std::string dir = TraceProgram("rma_epochs", 3, "", "", nullptr, kIdleRanksYield);
  ExpectOtf2PrintReads(dir);
  // Phases A-F of tests/programs/rma_epochs.c: puts 3 (B) + 2 (C) + 2 (D, D2) + 3 MPI_Rput
  // (E); gets 3 (B); atomics 4 per rank (E); each operation completed once, by the call that
  // ends its epoch. Window creation, two fences and the free: 4 RMA collectives per rank.
  // Locks: ranks 0 and 1 in C, every rank's lock_all in E. Group syncs: post, wait, start and
  // complete, twice.
  const json info = Info(dir);
  EXPECT_EQ(Count(info, "RMA_PUT"), 10u);
  EXPECT_EQ(Count(info, "RMA_GET"), 3u);
  EXPECT_EQ(Count(info, "RMA_ATOMIC"), 12u);
  EXPECT_EQ(Count(info, "RMA_OP_COMPLETE_BLOCKING"), 25u);
  EXPECT_EQ(Count(info, "RMA_WIN_CREATE"), 3u);
  EXPECT_EQ(Count(info, "RMA_WIN_DESTROY"), 3u);
  EXPECT_EQ(Count(info, "RMA_COLLECTIVE_BEGIN"), 12u);
  EXPECT_EQ(Count(info, "RMA_COLLECTIVE_END"), 12u);
  EXPECT_EQ(Count(info, "RMA_REQUEST_LOCK"), 5u);
  EXPECT_EQ(Count(info, "RMA_ACQUIRE_LOCK"), 5u);
  EXPECT_EQ(Count(info, "RMA_RELEASE_LOCK"), 5u);
  EXPECT_EQ(Count(info, "RMA_GROUP_SYNC"), 8u);
  EXPECT_EQ(info["definitions"]["rma_windows"].get<uint64_t>(), 1u);
  const json report = Analyze(dir);
  // Puts and gets of 4 bytes each, on the window of MPI_COMM_WORLD.
  EXPECT_EQ(MetricTotal(report, "comms_rma_puts"), 10.0);
  EXPECT_EQ(MetricTotal(report, "comms_rma_gets"), 3.0);
  EXPECT_EQ(MetricTotal(report, "bytes_put"), 40.0);
  EXPECT_EQ(MetricTotal(report, "bytes_get"), 12.0);
  // Phases A, B and F, 100 ms each: ranks 0 and 2 wait at the window's creation, ranks 0 and 1
  // at the closing fence, ranks 1 and 2 at the free.
  ExpectInstances(report, "mpi_rma_wait_at_create", 2, 0.1);
  ExpectInstances(report, "mpi_rma_wait_at_fence", 2, 0.1);
  ExpectInstances(report, "mpi_rma_wait_at_free", 2, 0.1);
  ExpectWait(MetricTotal(report, "mpi_rma_wait_at_fence", "MPI_Win_fence"), 0.2, 2);
  // B: both waited at the fence for rank 2's transfers to them (a put to 0, a get from 1).
  ExpectInstances(report, "mpi_rma_early_fence", 2, 0.1);
  // C: rank 1 waits ~100 ms for rank 0's exclusive lock on rank 2, in MPI_Win_lock or, if the
  // library acquires locks lazily, in the put or MPI_Win_unlock.
  SCOPED_TRACE("lock competition, then late post");
  ExpectWait(MetricTotal(report, "mpi_rma_sync_lock_competition") +
                 MetricTotal(report, "mpi_rma_comm_lock_competition"),
             0.1);
  // D: rank 1 waits ~100 ms for rank 0's post (in start, put or complete); D2: rank 0 waits
  // ~100 ms in MPI_Win_wait for rank 1's complete, after its put.
  ExpectWait(
      MetricTotal(report, "mpi_rma_sync_late_post") + MetricTotal(report, "mpi_rma_comm_late_post"),
      0.1);
  ExpectInstances(report, "mpi_rma_early_wait", 1, 0.1);
  ExpectInstances(report, "mpi_rma_late_complete", 1, 0.1);
  EXPECT_EQ(MetricTotal(report, "mpi_rma_early_wait", "MPI_Win_wait"),
            MetricTotal(report, "mpi_rma_early_wait"));
  // Window creation, two fences and the free; seven barriers.
  EXPECT_EQ(report["matching"]["collective_instances"].get<uint64_t>(), 11u);
  for (uint64_t rank : {0u, 1u, 2u}) {
    EXPECT_EQ(ValueAt(report, "visits", "main/MPI_Win_fence", rank), 2.0);
    EXPECT_EQ(ValueAt(report, "visits", "main/MPI_Compare_and_swap", rank), 1.0);
  }
}

TEST(TracedProgramsTest, PointToPointWaitStates) {
  const std::string dir = TraceProgram("p2p_patterns", 2);
  ExpectOtf2PrintReads(dir);
  const json report = Analyze(dir);
  // tests/programs/p2p_patterns.c: a synchronous send waits 100 ms for its receiver; a receive
  // waits 100 ms for a message sent after one it could have taken (wrong order, same source);
  // MPI_Waitall waits 100 ms for its two messages.
  ExpectWait(MetricTotal(report, "mpi_latereceiver", "MPI_Ssend"), 0.1);
  ExpectWait(MetricTotal(report, "mpi_latesender", "MPI_Recv"), 0.1);
  ExpectWait(MetricTotal(report, "mpi_lswo_same"), 0.1);
  ExpectWait(MetricTotal(report, "mpi_latesender", "MPI_Waitall"), 0.1);
  EXPECT_EQ(report["matching"]["messages"].get<uint64_t>(), 5u);
}

TEST(TracedProgramsTest, EachThreadIsRecordedOnItsOwnLocation) {
  std::string output;
  const std::string dir = TraceProgram("threads", 2, "", kExactCounts, &output);
  ExpectOtf2PrintReads(dir);
  EXPECT_EQ(output.find("MPI calls from threads other than"), std::string::npos) << output;
  // Per rank, the main thread: main, MPI_Init_thread, MPI_Comm_rank, MPI_Comm_dup, 5 barriers,
  // MPI_Comm_free, MPI_Finalize (11 regions); the second thread: its start routine `exchange`
  // (its own stack's walked frame) and in it 10 MPI_Sendrecv, each a send and a receive.
  const json info = Info(dir);
  EXPECT_EQ(Count(info, "ENTER"), 2u * (11u + 1u + 10u));
  EXPECT_EQ(Count(info, "LEAVE"), 2u * (11u + 1u + 10u));
  EXPECT_EQ(Count(info, "MPI_COLLECTIVE_END"), 2u * 5u);
  EXPECT_EQ(Count(info, "MPI_SEND"), 2u * 10u);
  EXPECT_EQ(Count(info, "MPI_RECV"), 2u * 10u);
  ASSERT_EQ(info["locations"].size(), 4u);
  for (const json& location : info["locations"]) {
    const bool main_thread = location["name"] == "Master thread";
    EXPECT_EQ(location["name"], main_thread ? "Master thread" : "Thread 1");
    EXPECT_EQ(location["events"].get<uint64_t>(), main_thread ? 32u : 42u) << location;
  }
  // The threads' call path begins at their start routine (locations 1 and 3: rank 0's and rank
  // 1's second thread).
  const json walked = Analyze(dir);
  for (uint64_t location : {1u, 3u}) {
    EXPECT_EQ(ValueAt(walked, "visits", "exchange/MPI_Sendrecv", location), 10.0);
  }
  // The threads' messages match (their communicator is moved to the threads' locations), and
  // rank 1's thread waits ~100 ms in its first exchange for rank 0's.
  const json report = Analyze(dir);
  EXPECT_EQ(report["matching"]["messages"].get<uint64_t>(), 20u);
  EXPECT_EQ(report["matching"]["unmatched_sends"].get<uint64_t>(), 0u);
  EXPECT_EQ(report["matching"]["collective_instances"].get<uint64_t>(), 5u);
  ExpectInstances(report, "mpi_latesender", 1, 0.1);
  EXPECT_EQ(MetricTotal(report, "mpi_latesender", "MPI_Sendrecv"),
            MetricTotal(report, "mpi_latesender"));
}

// 300 threads one after the other on each rank, more than the 255 slots for threads: each new
// thread goes on in the location of the one that ended, nothing is dropped, and every message
// matches.
TEST(TracedProgramsTest, ThreadsThatEndFreeTheirSlots) {
  std::string output;
  // Stack walks at the calls, no samples: creating and joining 300 threads takes the main thread
  // a few milliseconds of CPU time, in which a sample would add walked frames to its count
  // (under a sanitizer, most runs).
  const std::string dir = TraceProgram("thread_churn", 2, "", kExactCounts, &output);
  EXPECT_EQ(output.find("were not recorded"), std::string::npos) << output;
  // The first thread takes slot 1, the 299 after it reuse it, on each of the 2 ranks.
  EXPECT_NE(output.find("598 threads began calling MPI after another thread"), std::string::npos)
      << output;
  // Per rank, the main thread: main, MPI_Init_thread, MPI_Comm_rank, MPI_Comm_dup, the barrier,
  // MPI_Comm_free, MPI_Finalize (7 regions, 14 events, and the barrier's begin and end: 16); the
  // thread location: 300 MPI_Sendrecv, each Enter, send, receive, Leave, all in the threads'
  // start routine `task`, one walked frame entered once for the threads that share the location
  // (a walk cannot tell one thread's task from the next one's): 1200 + 2.
  const json info = Info(dir);
  ASSERT_EQ(info["locations"].size(), 4u);
  for (const json& location : info["locations"]) {
    const bool main_thread = location["name"] == "Master thread";
    EXPECT_EQ(location["events"].get<uint64_t>(), main_thread ? 16u : 1202u) << location;
  }
  EXPECT_EQ(Count(info, "MPI_SEND"), 2u * 300u);
  const json report = Analyze(dir);
  EXPECT_EQ(report["matching"]["messages"].get<uint64_t>(), 600u);
  EXPECT_EQ(report["matching"]["unmatched_sends"].get<uint64_t>(), 0u);
  EXPECT_EQ(report["matching"]["unmatched_receives"].get<uint64_t>(), 0u);
}

// Polling compaction: rank 1 polls with MPI_Test for 50 ms, then with MPI_Iprobe for 50 ms,
// hundreds of thousands of calls each. The trace holds a few records of them (a run is cut only
// where a gap exceeds 1 us, when the rank was descheduled), the call paths' visits count every
// call the program says it made, the polling time is the calls' time, and the probe that found
// the message is still a record of its own, linked to the message.
TEST(TracedProgramsTest, PollingLoopsAreFoldedAndEveryCallCounts) {
  std::string output;
  // The default gap (1 us) in the release build. The sanitized tracer spends a few microseconds
  // of its own between two polls now and then, which ends a run of them: its gap is 5 us.
  const std::string dir =
      TraceProgram("polling", 2, "", CW_SANITIZED ? "--poll-gap 5us" : "", &output);
  std::smatch m;
  ASSERT_TRUE(std::regex_search(output, m, std::regex("tests=([0-9]+) iprobes=([0-9]+)")))
      << output;
  const uint64_t tests = std::stoull(m[1].str()), probes = std::stoull(m[2].str());
  ASSERT_GT(tests, 1000u);
  ASSERT_GT(probes, 1000u);
  const json info = Info(dir);
  EXPECT_LT(info["events"].get<uint64_t>(), 2000u) << "calls: " << tests + probes;
  const json report = Analyze(dir);
  const auto visits = [&](const std::string& region) {
    return MetricTotal(report, "visits", region);
  };
  EXPECT_EQ(visits("MPI_Test"), static_cast<double>(tests));
  EXPECT_EQ(visits("MPI_Iprobe"), static_cast<double>(probes));
  // Rank 0 computes 50 ms before each send, so rank 1 polls for about 100 ms after MPI_Init.
  // A gap where rank 1 was descheduled ends a folded run (on 2 loaded cores they add up to
  // milliseconds): the gaps stay with main, so the calls' time and main's own time on rank 1
  // (location 1) together span the 100 ms, and each loop has a good part of its 50 ms.
  double span = ValueAt(report, "time", "main", 1);
  for (const char* region : {"MPI_Test", "MPI_Iprobe"}) {
    const double time = MetricTotal(report, "time", region);
    EXPECT_GT(time, 0.01) << region;
    EXPECT_LT(time, 0.5) << region;
    span += time;
  }
  EXPECT_GT(span, 0.09);
  EXPECT_LT(span, 1.0);
  EXPECT_EQ(report["matching"]["messages"].get<uint64_t>(), 2u);
  EXPECT_EQ(report["matching"]["probes"]["linked"].get<uint64_t>(), 1u);
  EXPECT_EQ(report["matching"]["probes"]["unlinked"].get<uint64_t>(), 0u);
}

// --max-size 2MiB on 2 ranks: each rank may write 1 MiB of raw records (40 bytes each) and
// stops recording at the first flush of its 256 KiB buffer that passes it, then writes what is
// buffered and its MPI_Finalize. 50,000 barriers would be 400,000 events; the trace holds about
// 65,000, stays valid (otf2-print reads it, nesting closes), and every report says where each
// rank stopped.
TEST(TracedProgramsTest, MaxSizeStopsEveryRankCleanly) {
  std::string output;
  const std::string dir =
      TraceProgram("many_events", 2, "50000", "--max-size 2MiB --buffer 256K", &output);
  EXPECT_TRUE(std::regex_search(output, std::regex("rank 0 ended early \\(recording stopped at "
                                                   "the size limit \\(1048576 bytes\\) after "
                                                   "[0-9]+\\.[0-9]{3} s\\)")))
      << output;
  ExpectOtf2PrintReads(dir);
  const json info = Info(dir);
  const uint64_t events = info["events"].get<uint64_t>();
  EXPECT_GT(events, 2u * 1048576u / 40u);
  // At most one buffer (6,553 records) past the share per rank, and the few final records.
  EXPECT_LT(events, 2u * (1048576u / 40u + 6553u + 100u));
  const json report = Analyze(dir);
  const json& endings = report["trace"]["rank_endings"];
  ASSERT_EQ(endings.size(), 2u);
  for (const json& e : endings) {
    EXPECT_EQ(e["ending"].get<std::string>().rfind(
                  "recording stopped at the size limit (1048576 bytes) after ", 0),
              0u)
        << e;
  }
  bool warned = false;
  for (const json& d : report["diagnostics"]) {
    if (d["name"] == "trace.rank_ended_early") warned = d["count"] == 2;
    EXPECT_NE(d["severity"], "error") << d;
  }
  EXPECT_TRUE(warned) << report["diagnostics"];
}

// --filter-exclude names MPI calls too: the local group calls of group_calls.c (50 each of
// MPI_Comm_group and MPI_Group_incl, 100 of MPI_Group_free per rank) leave the trace, while
// MPI_Comm_create, which makes a communicator the analysis needs, stays (50 per rank). A filter
// that names calls the analysis matches is refused before the program runs.
TEST(TracedProgramsTest, FiltersNameMpiCallsWithoutRecordsTheAnalysisMatches) {
  const auto visits = [](const json& report, const std::string& region) {
    return MetricTotal(report, "visits", region);
  };
  const json all = Analyze(TraceProgram("group_calls", 2));
  EXPECT_EQ(visits(all, "MPI_Comm_group"), 2 * 50.0);
  EXPECT_EQ(visits(all, "MPI_Group_incl"), 2 * 50.0);
  EXPECT_EQ(visits(all, "MPI_Group_free"), 2 * 100.0);
  EXPECT_EQ(visits(all, "MPI_Comm_create"), 2 * 50.0);
  std::string output;
  const json filtered = Analyze(
      TraceProgram("group_calls", 2, "", "--filter-exclude 'MPI_Comm_group,MPI_Group_*'", &output));
  EXPECT_NE(output.find("made 50 communicators"), std::string::npos) << output;
  EXPECT_EQ(visits(filtered, "MPI_Comm_group"), 0.0);
  EXPECT_EQ(visits(filtered, "MPI_Group_incl"), 0.0);
  EXPECT_EQ(visits(filtered, "MPI_Group_free"), 0.0);
  EXPECT_EQ(visits(filtered, "MPI_Comm_create"), 2 * 50.0);
  EXPECT_EQ(filtered["matching"]["collective_instances"].get<uint64_t>(), 1u);  // the barrier

  const std::string dir = testing::MakeTempDir("traced-refused-filter");
  std::string refused;
  EXPECT_EQ(RunCommand(CausewayBinary() + " trace --filter-exclude 'MPI_Send,MPI_Wait*' -o " + dir +
                           " -- " + kMpirun + " -np 2 " + TestProgram("late_sender"),
                       &refused),
            1);
  EXPECT_NE(refused.find("names MPI_Send, MPI_Wait, MPI_Waitall, MPI_Waitany, MPI_Waitsome: "),
            std::string::npos)
      << refused;
  EXPECT_FALSE(std::filesystem::exists(dir + "/traces.otf2"));
}

// thread_messages.c: on each of 2 ranks, 2 threads exchange 100 messages each with their
// counterparts on MPI_COMM_WORLD (receives from MPI_ANY_SOURCE), and one thread sends to its own
// rank's other thread: 2 x 2 x 100 + 2 = 402 messages, then a thread of rank 0 sends 10 that
// rank 1's main thread receives, and 2 that tell rank 0's threads that rank 1's are ready; all
// 414 matched although the communicator names only the main threads. Rank 0's first sending
// thread computes 100 ms after that: the thread on rank 1 that receives from it waits that long.
// Collectives that a thread other than the main one calls on MPI_COMM_WORLD are its process's too.
TEST(TracedProgramsTest, MessagesOfThreadsSharingACommunicatorAreMatched) {
  std::string output;
  // Six threads on 2 ranks, most of them polling in MPI while one computes its programmed
  // 100 ms: they yield while they wait (kIdleRanksYield), or the polling threads keep the one
  // that computes off the CPU (a wait of 100 ms measured 120 ms on a loaded 2-core machine).
  const std::string dir = TraceProgram("thread_messages", 2, "", "", &output, kIdleRanksYield);
  // Rank r's thread t receives 100 values 1000 (1 - r) + 10 t + i % 10, thread 0 also the
  // self-message 7 + r, thread 1 five allreduce results of 0 + 1.
  // Rank 1's main thread receives 0 + 1 + ... + 9 from a thread of rank 0.
  EXPECT_NE(output.find("rank 0: 100457 101455 0"), std::string::npos) << output;
  EXPECT_NE(output.find("rank 1: 458 1455 45"), std::string::npos) << output;
  const json report = Analyze(dir);
  // 402, the 10 to rank 1's main thread, and rank 1's threads 0 and 1 telling rank 0's that they
  // are ready.
  EXPECT_EQ(report["matching"]["messages"].get<uint64_t>(), 402u + 10u + 2u);
  // The threads' 5 allreduces and the main threads' barrier: 6 complete instances, the first
  // allreduce with rank 1's thread waiting 100 ms for rank 0's.
  EXPECT_EQ(report["matching"]["collective_instances"].get<uint64_t>(), 6u);
  EXPECT_EQ(report["matching"]["incomplete_collectives"].get<uint64_t>(), 0u);
  {
    SCOPED_TRACE("rank 1's thread 1 waiting in its first MPI_Allreduce");
    ExpectWait(MetricTotal(report, "mpi_wait_nxn", "MPI_Allreduce"), 0.1);
  }
  EXPECT_EQ(report["matching"]["unmatched_sends"].get<uint64_t>(), 0u);
  EXPECT_EQ(report["matching"]["unmatched_receives"].get<uint64_t>(), 0u);
  SCOPED_TRACE("rank 1's thread 0 waiting in its first MPI_Recv");
  std::map<uint64_t, uint64_t> rank_of;
  for (const json& l : report["locations"]) rank_of[l["id"]] = l["rank"];
  bool waited = false;
  for (const json& i : report["instances"]) {
    if (i["metric"] != "mpi_latesender" || i["value"].get<double>() < 0.05) continue;
    EXPECT_EQ(rank_of[i["location"]], 1u) << i;
    EXPECT_EQ(rank_of[i["partner"]], 0u) << i;
    EXPECT_NE(i["location"], 3u) << "a thread's location, not the main thread's";
    ExpectWait(i["value"].get<double>(), 0.1);
    waited = true;
  }
  EXPECT_TRUE(waited);
  for (const json& d : report["diagnostics"]) EXPECT_NE(d["severity"], "error") << d;
}

TEST(TracedProgramsTest, CompilerInstrumentationNamesFunctions) {
  // Built with -finstrument-functions; helper_noise is filtered out by name.
  const std::string dir = TraceProgram("instrumented", 2, "", "--filter-exclude 'helper_*'");
  ExpectOtf2PrintReads(dir);
  const json report = Analyze(dir);
  for (uint64_t rank : {0u, 1u}) {
    SCOPED_TRACE(rank);
    // compute_forces is static: its name comes from the full symbol table, not the dynamic one.
    EXPECT_EQ(ValueAt(report, "visits", "main/compute_forces", rank), 3.0);
    EXPECT_EQ(ValueAt(report, "visits", "main/compute_forces/compute", rank), 3.0);
    EXPECT_EQ(ValueAt(report, "visits", "main/exchange/MPI_Sendrecv", rank), 3.0);
  }
  for (const json& c : report["callpaths"]) EXPECT_NE(c["region"], "helper_noise");
  // Rank 0 computes 80 ms longer per iteration: rank 1 waits 3 x 80 ms in the exchange, and the
  // delay analysis puts the cause in compute_forces' callee on rank 0.
  ExpectInstances(report, "mpi_latesender", 3, 0.08);
  ExpectWait(ValueAt(report, "delay_latesender", "main/compute_forces/compute", 0), 0.24, 3);
}

TEST(TracedProgramsTest, RecordChoosesWhatBesidesMpi) {
  // MPI only, without walked call paths: the instrumented program's functions are not
  // recorded, its MPI calls are.
  const std::string dir = TraceProgram("instrumented", 2, "", "--record none --callpaths none");
  const json report = Analyze(dir);
  for (const json& c : report["callpaths"]) EXPECT_NE(c["region"], "compute_forces");
  EXPECT_EQ(ValueAt(report, "visits", "main/MPI_Sendrecv", 0), 3.0);
  // With them (the default), the stack walk finds the function that makes the call.
  const json walked = Analyze(TraceProgram("instrumented", 2, "", "--record none"));
  EXPECT_EQ(ValueAt(walked, "visits", "main/exchange/MPI_Sendrecv", 0), 3.0);
  // User regions only: the C program's regions are there.
  const json user = Analyze(TraceProgram("user_regions", 2, "", "--record user"));
  EXPECT_EQ(ValueAt(user, "visits", "main/solve", 0), 3.0);
}

TEST(TracedProgramsTest, SamplesInsideInstrumentedFunctionsStayWithTheirRegion) {
  // busy_work spins 3 x 40 ms of CPU time in spin, inside the user region steps, with a sample
  // every 1 ms of CPU time. The samples taken inside the instrumented functions are left out
  // (their regions are the path there): the tree below steps is exactly the instrumented one.
  // Written after the functions' Leave instead, they would open busy_work/spin again under
  // steps, and the exchange's calls would nest in them (steps/busy_work/spin/exchange/...).
  std::string output;
  const std::string dir =
      TraceProgram("instrumented_busy", 2, "", "--sampling-interval 1ms", &output);
  EXPECT_NE(output.find("inside user regions and instrumented functions left out"),
            std::string::npos)
      << output;
  const json report = Analyze(dir);
  for (uint64_t rank : {0u, 1u}) {
    SCOPED_TRACE(rank);
    EXPECT_EQ(ValueAt(report, "visits", "main/steps/busy_work", rank), 3.0);
    EXPECT_EQ(ValueAt(report, "visits", "main/steps/busy_work/spin", rank), 3.0);
    EXPECT_EQ(ValueAt(report, "visits", "main/steps/exchange/MPI_Barrier", rank), 3.0);
  }
  for (const std::string& path : CallPaths(report)) {
    if (path.rfind("main/steps/", 0) != 0) continue;
    // And where the process wrote before a barrier (Open MPI's own eventfd writes in some runs),
    // the tracer's zero-length mark beside it (measure/runtime/write_calls.h).
    EXPECT_TRUE(path == "main/steps/busy_work" || path == "main/steps/busy_work/spin" ||
                path == "main/steps/exchange" || path == "main/steps/exchange/MPI_Barrier" ||
                path == "main/steps/exchange/write system calls")
        << path;
  }
  // Without them recorded, the samples find the functions: spin's 120 ms of CPU per rank are
  // on main/busy_work/spin (within the 1 ms each end of a computation may go to its neighbour).
  const json sampled =
      Analyze(TraceProgram("instrumented_busy", 2, "", "--record none --sampling-interval 1ms"));
  for (uint64_t rank : {0u, 1u}) {
    EXPECT_GT(ValueAt(sampled, "time", "main/busy_work/spin", rank), 0.06) << rank;
  }
}

TEST(TracedProgramsTest, UserRegionsFromC) {
  std::string output;
  const std::string dir = TraceProgram("user_regions", 2, "", "", &output);
  ExpectOtf2PrintReads(dir);
  // One unmatched end per rank, ignored and reported.
  EXPECT_NE(output.find("2 user-region ends did not match"), std::string::npos) << output;
  const json report = Analyze(dir);
  for (uint64_t rank : {0u, 1u}) {
    SCOPED_TRACE(rank);
    EXPECT_EQ(ValueAt(report, "visits", "main/solve", rank), 3.0);
    EXPECT_EQ(ValueAt(report, "visits", "main/solve/inner", rank), 3.0);
    EXPECT_EQ(ValueAt(report, "visits", "main/exchange", rank), 3.0);
    EXPECT_EQ(ValueAt(report, "visits", "main/exchange/MPI_Barrier", rank), 3.0);
    // Exclusive times: solve computes 30 ms itself and 20 ms in inner, 3 times.
    ExpectWait(ValueAt(report, "time", "main/solve", rank), 0.09, 3);
    ExpectWait(ValueAt(report, "time", "main/solve/inner", rank), 0.06, 3);
  }
}

TEST(TracedProgramsTest, ScopedRegionsFromCxx) {
  const std::string dir = TraceProgram("user_regions_cpp", 2);
  ExpectOtf2PrintReads(dir);
  const json report = Analyze(dir);
  for (uint64_t rank : {0u, 1u}) {
    SCOPED_TRACE(rank);
    // 4 scopes, the last one left through an early return before its barrier.
    EXPECT_EQ(ValueAt(report, "visits", "main/phase", rank), 4.0);
    EXPECT_EQ(ValueAt(report, "visits", "main/phase/MPI_Barrier", rank), 3.0);
    ExpectWait(ValueAt(report, "time", "main/phase", rank), 0.1, 4);
  }
}

TEST(TracedProgramsTest, ProgramsRunWithoutCauseway) {
  // The user-region API is weak references: without the library the calls are skipped.
  std::string out;
  EXPECT_EQ(RunCommand(MpirunOn(2) + " " + TestProgram("user_regions"), &out), 0) << out;
  EXPECT_EQ(RunCommand(MpirunOn(2) + " " + TestProgram("user_regions_cpp"), &out), 0) << out;
}

TEST(TracedProgramsTest, ManyFlushesLoseNothing) {
  // A 4 KiB buffer holds 102 records: 20000 barriers (4 records each) on 2 ranks flush it
  // hundreds of times.
  std::string output;
  const std::string dir =
      TraceProgram("many_events", 2, "20000", std::string("--buffer 4K ") + kExactCounts, &output);
  std::smatch flushes;
  ASSERT_TRUE(std::regex_search(output, flushes, std::regex("(\\d+) buffer flushes"))) << output;
  EXPECT_GT(std::stoull(flushes[1]), 1000u);
  const json info = Info(dir);
  EXPECT_EQ(Count(info, "MPI_COLLECTIVE_BEGIN"), 40000u);
  EXPECT_EQ(Count(info, "MPI_COLLECTIVE_END"), 40000u);
  // Enter/Leave: per rank main, MPI_Init, MPI_Finalize and 20000 barriers, plus one flush
  // region per flush.
  EXPECT_EQ(Count(info, "ENTER"), 2 * (3 + 20000) + std::stoull(flushes[1]));
  EXPECT_EQ(Count(info, "LEAVE"), Count(info, "ENTER"));
  ExpectOtf2PrintReads(dir);
}

// Score-P's default MPI groups. late_sender.c calls MPI_Comm_rank (CG) once per rank: recorded
// by default, left out with --mpi-groups P2P,COLL (the calls the analysis matches stay, whatever
// the groups say). standard_corners.c commits 2 datatypes per rank (TYPE, not a default group):
// recorded only with --mpi-groups default,type. A group that does not exist is refused.
TEST(TracedProgramsTest, MpiGroupsChooseTheLocalCallsAsScorePDoes) {
  const auto visits = [](const json& report, const std::string& region) {
    return MetricTotal(report, "visits", region);
  };
  const json all = Analyze(TraceProgram("late_sender", 2));
  EXPECT_EQ(visits(all, "MPI_Comm_rank"), 2.0);
  const json fewer = Analyze(TraceProgram("late_sender", 2, "", "--mpi-groups p2p,coll"));
  EXPECT_EQ(visits(fewer, "MPI_Comm_rank"), 0.0);
  EXPECT_EQ(visits(fewer, "MPI_Recv"), 2.0);
  EXPECT_EQ(visits(fewer, "MPI_Init"), 2.0);  // ENV is off, but the measurement starts there
  EXPECT_EQ(fewer["matching"]["messages"].get<uint64_t>(), 4u);
  EXPECT_EQ(visits(Analyze(TraceProgram("standard_corners", 4)), "MPI_Type_commit"), 0.0);
  const json types = Analyze(TraceProgram("standard_corners", 4, "", "--mpi-groups default,type"));
  EXPECT_EQ(visits(types, "MPI_Type_commit"), 4 * 2.0);
  EXPECT_EQ(visits(types, "MPI_Comm_rank"), 4 * 2.0);  // of MPI_COMM_WORLD and of the node
  std::string refused;
  EXPECT_EQ(RunCommand(CausewayBinary() + " trace --mpi-groups cg,nosuch -o " +
                           testing::MakeTempDir("traced-bad-groups") + " -- true",
                       &refused),
            1);
  EXPECT_NE(refused.find("no MPI group is called NOSUCH"), std::string::npos) << refused;
}

}  // namespace
}  // namespace cw::test
