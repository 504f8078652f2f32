// How a traced run ends, and what the trace and the reports say of it: a crash, an abort, an
// exit without MPI_Finalize, MPI's fatal error handlers and an interrupt of `causeway trace`
// keep every event recorded up to the end; SIGUSR1 reaches the command, and a program that
// handles SIGTERM goes on recorded; the raw files of a killed
// `causeway trace` become a trace with --finish; a normal run says every rank finalized; a command
// without MPI is an error; a rank that cannot write its files stops the recording, not the run.
#include <filesystem>
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

// Rank 0 sends 100 messages that rank 1 receives, then rank 0 ends badly; rank 1 is killed in
// its barrier. Both sides' records up to then must be in a readable trace.
void ExpectEverythingUpToTheEnd(const std::string& mode, const std::string& ending) {
  const std::string dir = testing::MakeTempDir("traced-crash-" + mode);
  std::string out;
  RunCommand(CausewayBinary() + " trace -o " + dir + " -- " + kMpirun + " -np 2 " +
                 TestProgram("crash_after_messages") + " " + mode + " 100",
             &out);
  EXPECT_NE(out.find("Trace written to"), std::string::npos) << out;
  EXPECT_NE(out.find("rank 0 ended early (" + ending), std::string::npos) << out;
  ExpectOtf2PrintReads(dir);
  const json info = Info(dir);
  // 100 from rank 0, 1 from rank 1, and in "fatal" mode the send to rank 99 that failed.
  EXPECT_EQ(Count(info, "MPI_SEND"), mode == "fatal" ? 102u : 101u);
  EXPECT_EQ(Count(info, "MPI_RECV"), 101u);
  const json report = Analyze(dir);
  EXPECT_EQ(report["matching"]["unmatched_sends"].get<uint64_t>(), 0u);
  EXPECT_EQ(report["matching"]["unmatched_receives"].get<uint64_t>(), 0u);
  // The reports say how each rank ended: rank 0 as the mode made it, rank 1 killed or ended by
  // the launcher (it waited in a barrier rank 0 never reached).
  const json& endings = report["trace"]["rank_endings"];
  ASSERT_EQ(endings.size(), 2u) << report["trace"];
  EXPECT_EQ(endings[0]["rank"].get<uint32_t>(), 0u);
  EXPECT_EQ(endings[0]["ending"].get<std::string>().rfind(ending, 0), 0u) << endings;
  EXPECT_NE(endings[1]["ending"].get<std::string>(), "finalized") << endings;
  bool warned = false;
  for (const json& d : report["diagnostics"]) {
    if (d["name"] == "trace.rank_ended_early") {
      warned = true;
      EXPECT_EQ(d["count"].get<uint64_t>(), 2u);
      EXPECT_EQ(d["example"].get<std::string>().rfind("rank 0: " + ending, 0), 0u) << d;
    }
  }
  EXPECT_TRUE(warned) << report["diagnostics"];
}

TEST(TracedProgramsTest, SegfaultKeepsEveryEvent) {
  ExpectEverythingUpToTheEnd("segv", "signal 11");
}
TEST(TracedProgramsTest, AbortKeepsEveryEvent) { ExpectEverythingUpToTheEnd("abort", "abort"); }
TEST(TracedProgramsTest, ExitWithoutFinalizeKeepsEveryEvent) {
  ExpectEverythingUpToTheEnd("exit", "exit without MPI_Finalize");
}
// MPI's default error path ends the process inside the library; the recorder's substitute for
// MPI_ERRORS_ARE_FATAL writes the events first (the failing send, to rank 99, is recorded too).
TEST(TracedProgramsTest, FatalErrorHandlerKeepsEveryEvent) {
  ExpectEverythingUpToTheEnd("fatal", "fatal error handler MPI_ERR_RANK");
}
// A window's fatal handler too (windows do not inherit their communicator's).
TEST(TracedProgramsTest, FatalErrorHandlerOfAWindowKeepsEveryEvent) {
  ExpectEverythingUpToTheEnd("win_fatal", "fatal error handler MPI_ERR_RANK");
}

// `causeway trace` interrupted while the command runs: a SIGTERM to the whole process group (a
// batch system's, here sent by the shell of a session of its own) or to `causeway trace` alone
// (passed on to the command kForwardAfterSeconds later) ends the command, and the trace of what
// the ranks recorded until then is written. cpu_bound would run 50 s (1000 steps of 50 ms of CPU
// time, a barrier after each); the signal comes once both ranks have begun recording and 2 s
// more have passed, so each rank has recorded some of its barriers.
void ExpectTheInterruptedRunWritten(const std::string& name, const std::string& signal_line,
                                    const std::string& launcher, const std::string& signal_all) {
  const std::string dir = testing::MakeTempDir("traced-interrupted-" + name);
  const std::string trace = CausewayBinary() + " trace -o " + dir + " -- " + launcher + " -np 2 " +
                            TestProgram("cpu_bound") + " 1000 50";
  // The script waits for rank 1's definitions file (written once its MPI_Init is recorded); a
  // limit of 120 s ends the wait should the run never start.
  const std::string script = trace + " & pid=$!; i=0; while [ ! -s " + dir +
                             "/raw/rank-1.defs ] && [ $i -lt 1200 ]; do sleep 0.1; i=$((i+1)); "
                             "done; sleep 2; " +
                             signal_all + "; wait $pid; echo status=$?";
  std::string out;
  RunCommand("setsid -w sh -c '" + script + "'", &out);
  EXPECT_NE(out.find(signal_line), std::string::npos) << out;
  EXPECT_NE(out.find("Trace written to"), std::string::npos) << out;
  EXPECT_EQ(out.find("status=0"), std::string::npos) << out;  // an interrupted run is no success
  ExpectOtf2PrintReads(dir);
  const json info = Info(dir);
  ASSERT_EQ(info["locations"].size(), 2u) << info;
  for (const json& location : info["locations"]) {
    EXPECT_GE(location["events"].get<uint64_t>(), 8u) << location << out;  // MPI_Init, barriers
  }
  const json report = Analyze(dir);
  for (const json& e : report["trace"]["rank_endings"]) EXPECT_NE(e["ending"], "finalized") << e;
}

TEST(TracedProgramsTest, AnInterruptedRunIsWrittenAsFarAsItWent) {
  // A batch system's end of the job: the session's whole process group gets SIGTERM (the shell
  // itself ignores it). A Ctrl-C is the same with SIGINT, which a shell's background command
  // such as this one ignores.
  ExpectTheInterruptedRunWritten("group", "interrupted (signal 15)",
                                 "mpirun --allow-run-as-root --oversubscribe",
                                 "trap \"\" TERM; kill -TERM 0");
  // SIGTERM to `causeway trace` alone, as `kill PID` sends it: passed on to the command. (The
  // launcher's timeout is --foreground: without it, timeout passes a SIGTERM on to mpirun twice,
  // to it and to its process group, and after a second one mpirun was seen to kill its ranks
  // before they could write what they recorded.)
  ExpectTheInterruptedRunWritten(
      "alone", "interrupted (signal 15)",
      "timeout --foreground 180 mpirun --allow-run-as-root --oversubscribe", "kill -TERM $pid");
}

// The shell lines that wait (at most 120 s) until rank 1 of the run in DIR has begun recording:
// its definitions file is written once its MPI_Init is recorded.
std::string WaitForRank1(const std::string& dir) {
  return "i=0; while [ ! -s " + dir +
         "/raw/rank-1.defs ] && [ $i -lt 1200 ]; do sleep 0.1; i=$((i+1)); done; ";
}

// A run of checkpoint_on_signal (1500 steps) asked to stop by `request` (shell lines run once
// rank 1 began recording and 1 s more passed; $pid is `causeway trace`'s): the program's
// checkpoint line, exit status 0, a written trace whose ranks both finalized, and in it every
// MPI_Allreduce the ranks made, before and after the request: N + 1 each for "checkpoint at
// step N".
void ExpectTheCheckpointedRunWhole(const std::string& name, const std::string& signal,
                                   const std::string& request) {
  const std::string dir = testing::MakeTempDir("traced-checkpoint-" + name);
  const std::string trace = CausewayBinary() + " trace -o " + dir +
                            " -- mpirun --allow-run-as-root --oversubscribe -np 2 " +
                            TestProgram("checkpoint_on_signal") + " 1500 " + signal;
  std::string out;
  RunCommand("sh -c '" + trace + " & pid=$!; " + WaitForRank1(dir) + "sleep 1; " + request +
                 "; wait $pid; echo status=$?'",
             &out);
  EXPECT_NE(out.find("Trace written to"), std::string::npos) << out;
  EXPECT_NE(out.find("status=0"), std::string::npos) << out;
  const size_t at = out.find("checkpoint at step ");
  ASSERT_NE(at, std::string::npos) << out;
  const uint64_t step = std::stoull(out.substr(at + 19));
  EXPECT_EQ(Count(Info(dir), "MPI_COLLECTIVE_END"), 2 * (step + 1)) << out;
  const json report = Analyze(dir);
  ASSERT_EQ(report["trace"]["rank_endings"].size(), 2u);
  for (const json& e : report["trace"]["rank_endings"]) EXPECT_EQ(e["ending"], "finalized") << e;
}

// SIGUSR1 to `causeway trace` (a batch script asking the program for a checkpoint before the
// time limit) is passed on to the command at once: the program acts on it and ends normally,
// and its trace is written. With its default action the signal would end `causeway trace`
// alone: no trace, and the program, never asked, would run its 1500 steps (30 s of CPU time per
// rank) and exit 3. (The launcher is mpirun itself: timeout does not pass SIGUSR1 on.)
TEST(TracedProgramsTest, ACheckpointRequestReachesTheCommand) {
  ExpectTheCheckpointedRunWhole("usr1", "USR1", "kill -USR1 $pid");
}

// SIGTERM to the ranks of a program that handles it itself (its handler installed before
// MPI_Init, under the tracer's): the program goes on to its checkpoint and MPI_Finalize, and so
// does the recording. The tracer used to take every SIGTERM for the rank's end: it wrote its
// buffer, noted "signal 15" and recorded nothing more, though the rank went on.
TEST(TracedProgramsTest, AProgramThatHandlesSigtermGoesOnRecorded) {
  // The ranks are mpirun's children ($pid's grandchildren).
  ExpectTheCheckpointedRunWhole("term", "TERM", "pkill -TERM -P $(pgrep -P $pid)");
}

// `causeway trace` killed (SIGKILL cannot be caught: a batch system's kill after the time
// limit's grace period, the kernel's out-of-memory killer) while the ranks go on to the end:
// their raw files stay in DIR/raw, `analyze` says how to write the trace, and `causeway trace
// --finish` writes it, every event of the run in it. cpu_bound 60 40: 60 steps of 40 ms of CPU
// time, one MPI_Barrier after each; the kill comes 1 s after rank 1 began recording, while
// the steps go on (2.4 s of CPU time per rank).
TEST(TracedProgramsTest, FinishWritesTheTraceOfAKilledTraceCommand) {
  const std::string dir = testing::MakeTempDir("traced-killed");
  const std::string trace = CausewayBinary() + " trace -o " + dir + " -- " + kMpirun + " -np 2 " +
                            TestProgram("cpu_bound") + " 60 40";
  std::string out;
  // After the kill the script waits (at most 120 s) for rank 0's mark that every rank's files
  // are complete, written in MPI_Finalize.
  RunCommand("sh -c '" + trace + " & pid=$!; " + WaitForRank1(dir) +
                 "sleep 1; kill -KILL $pid; wait $pid; echo status=$?; i=0; while [ ! -e " + dir +
                 "/raw/complete ] && [ $i -lt 1200 ]; do sleep 0.1; i=$((i+1)); done'",
             &out);
  EXPECT_NE(out.find("status=137"), std::string::npos) << out;
  EXPECT_EQ(out.find("Trace written to"), std::string::npos) << out;
  ASSERT_TRUE(std::filesystem::exists(dir + "/raw/complete")) << out;

  std::string analyzed;
  EXPECT_NE(RunCommand(CausewayBinary() + " analyze " + dir, &analyzed), 0);
  EXPECT_NE(analyzed.find("causeway trace --finish -o " + dir + " writes it"), std::string::npos)
      << analyzed;

  std::string finished;
  EXPECT_EQ(RunCommand(CausewayBinary() + " trace --finish -o " + dir, &finished), 0) << finished;
  EXPECT_NE(finished.find("Trace written to"), std::string::npos) << finished;
  EXPECT_FALSE(std::filesystem::exists(dir + "/raw")) << finished;  // complete: not kept
  ExpectOtf2PrintReads(dir);
  const json info = Info(dir);
  ASSERT_EQ(info["locations"].size(), 2u) << info;
  EXPECT_EQ(Count(info, "MPI_COLLECTIVE_END"), 2u * 60u);  // every barrier of both ranks
  const json report = Analyze(dir);
  for (const json& e : report["trace"]["rank_endings"]) EXPECT_EQ(e["ending"], "finalized") << e;

  // Nothing left to finish: a clear error.
  std::string again;
  EXPECT_NE(RunCommand(CausewayBinary() + " trace --finish -o " + dir, &again), 0);
  EXPECT_NE(again.find("holds no raw files of a traced run"), std::string::npos) << again;
}

// A run that finishes normally says so: every rank finalized, and no warning.
TEST(TracedProgramsTest, ReportsSayEveryRankFinished) {
  const json report = Analyze(TraceProgram("late_sender", 2));
  const json& endings = report["trace"]["rank_endings"];
  ASSERT_EQ(endings.size(), 2u);
  for (const json& e : endings) EXPECT_EQ(e["ending"], "finalized");
  for (const json& d : report["diagnostics"]) EXPECT_NE(d["name"], "trace.rank_ended_early");
}

TEST(TracedProgramsTest, ACommandWithoutMpiIsAnError) {
  const std::string dir = testing::MakeTempDir("traced-nothing");
  std::string out;
  EXPECT_EQ(RunCommand(CausewayBinary() + " trace -o " + dir + " -- /bin/true", &out), 2);
  EXPECT_NE(out.find("recorded nothing"), std::string::npos) << out;
  EXPECT_EQ(RunCommand(CausewayBinary() + " trace -o " + dir, &out), 1);  // no command
}

// A command that runs two programs, one after the other, gives the trace of the second: the
// export that began when the first one marked its files complete is refused (the second one
// rewrote them) and the files are exported again. The first, `ring` on 3 ranks, makes 3 sends
// and no MPI_Isend; `late_sender` on 2 ranks makes 2 of each (ITERATIONS).
TEST(TracedProgramsTest, ACommandOfTwoProgramsGivesTheSecondOnesTrace) {
  const std::string dir = testing::MakeTempDir("traced-two-programs");
  std::string out;
  ASSERT_EQ(RunCommand(CausewayBinary() + " trace -o " + dir + " -- sh -c '" + kMpirun + " -np 3 " +
                           TestProgram("ring") + " && " + kMpirun + " -np 2 " +
                           TestProgram("late_sender") + "'",
                       &out),
            0)
      << out;
  const json info = Info(dir);
  EXPECT_EQ(info["locations"].size(), 2u) << info;
  EXPECT_EQ(Count(info, "MPI_SEND"), 2u);
  EXPECT_EQ(Count(info, "MPI_ISEND"), 2u);
  EXPECT_EQ(Count(info, "MPI_RECV"), 2u);
  // The export after the command is the only one the summary reports.
  EXPECT_EQ(out.find("while the command was ending"), std::string::npos) << out;
}

// A rank that cannot write its files (here rank 1, whose trace directory lies under a file) makes
// the whole run go unrecorded, with a message, rather than hang: the other ranks would wait for
// it in the tracer's clock comparison. No partial files are left behind.
TEST(TracedProgramsTest, ARankThatCannotWriteItsFilesStopsTheRecordingNotTheRun) {
  const std::string dir = testing::MakeTempDir("traced-unwritable-rank");
  const std::string program = TestProgram("late_sender");
  std::string out;
  // The launcher's own timeout ends a hang with 124; the command itself succeeds (0), and
  // `causeway trace` says it recorded nothing (2).
  EXPECT_EQ(RunCommand(CausewayBinary() + " trace -o " + dir + " -- " + kMpirun + " -np 1 " +
                           program + " : -np 1 -x CAUSEWAY_DIR=/proc/version/nowhere " + program,
                       &out),
            2)
      << out;
  EXPECT_NE(out.find("a rank cannot write its part of the trace"), std::string::npos) << out;
  EXPECT_FALSE(std::filesystem::exists(dir + "/raw/rank-0.events")) << out;
  EXPECT_FALSE(std::filesystem::exists(dir + "/raw/rank-0.defs")) << out;
}

}  // namespace
}  // namespace cw::test
