// Damaged, inconsistent and hostile traces, given to the causeway command as users run it: each
// gets a clear message naming the file or location and the problem, with a non-zero exit code
// or a reported diagnostic; never a crash, a hang (every run is under `timeout`) or runaway
// memory (every run's peak is measured with /usr/bin/time, and release builds also run under
// `ulimit -v`). The traces are built here: copies of shared traces cut or edited, or scenarios.
#include <sys/stat.h>
#include <unistd.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>

#include <nlohmann/json.hpp>

#include <gtest/gtest.h>

#include "testing/scenario.h"
#include "tests/cli/damaged_input_support.h"
#include "tests/common/cube_reader.h"
#include "tests/common/paths.h"

namespace cw::test {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

// Item 1: a location of 600,002 events (7.2 MB, 1 MiB chunks), cut at a chunk boundary and
// right after the header of the next chunk. libotf2 then replays earlier records forever; the
// reader stops at the declared count. Memory stays that of the undamaged trace (600,002 events
// at the estimate's 48 bytes each, plus the program: 100 MB, 600 MB under the sanitizers), and
// each run takes seconds.
TEST(DamagedTracesTest, EventFileCutAtAChunkBoundary) {
  testing::Scenario s(2);
  testing::RankScript& r0 = s.rank(0);
  r0.Enter(0, "main");
  for (uint64_t i = 0; i < 300000; ++i) r0.Call(10 + 4 * i, 12 + 4 * i, "compute");
  r0.Leave(2000000, "main");
  s.rank(1).Enter(0, "main").Leave(2000000, "main");
  const std::string clean = s.WriteOrDie(testing::MakeTempDir("damaged-chunk"));
  const std::string events = fs::path(clean).parent_path() / "traces" / "0.evt";
  ASSERT_GT(fs::file_size(events), 2u << 20);
  const std::string original = ReadFile(events);
  const uint64_t bound_kib = (600002ull * 48 + kProgramBytes) / 1024;
  for (size_t cut : {size_t{1} << 20, (size_t{1} << 20) + 18, size_t{2} << 20}) {
    SCOPED_TRACE("cut at " + std::to_string(cut));
    WriteFile(events, original.substr(0, cut));
    for (const std::string& command :
         {std::string("info"), "analyze -q -o " + Out("chunk-a"), "whatif -q -o " + Out("chunk-w"),
          "export chrome -o " + Out("chunk-e") + "/t.json"}) {
      SCOPED_TRACE(command);
      const Outcome o = Causeway(command + " " + clean);
      ExpectBadInput(o, {"location 0", "--partial"});
      EXPECT_LT(o.peak_kib, bound_kib) << o.out;
    }
    const Outcome partial = Causeway("analyze -q --partial -o " + Out("chunk-p") + " " + clean);
    ExpectNoCrash(partial);
    EXPECT_EQ(partial.code, 0) << partial.out;
    EXPECT_LT(partial.peak_kib, bound_kib) << partial.out;
  }
}

// Item 2: one flipped bit makes the anchor's property count 0x80000005; libotf2 would allocate
// 10 pointers for it and corrupt its heap. The anchor is checked first.
TEST(DamagedTracesTest, AnchorWithACorruptPropertyCount) {
  const std::string dir = Copy("ping-pong-otf2", "damaged-anchor");
  std::string anchor = ReadFile(dir + "/traces.otf2");
  const size_t first_property = anchor.find("OTF2::MPI_COMMUNICATION_COMPLETE");
  ASSERT_NE(first_property, std::string::npos);
  ASSERT_EQ(anchor[first_property - 4], 5);  // the count, little-endian, before the first name
  anchor[first_property - 1] = static_cast<char>(0x80);
  WriteFile(dir + "/traces.otf2", anchor);
  for (const std::string& command : {std::string("info"), "analyze -q -o " + Out("anchor-a"),
                                     "whatif -q -o " + Out("anchor-w")}) {
    ExpectBadInput(Causeway(command + " " + dir),
                   {"traces.otf2", "malformed OTF2 anchor file", "2147483653 properties"});
  }
}

// Garbage anchors: random bytes after a valid signature, cut at every few bytes.
TEST(DamagedTracesTest, TruncatedAndGarbageAnchors) {
  const std::string dir = Copy("ping-pong-otf2", "damaged-anchor-cut");
  const std::string anchor = ReadFile(dir + "/traces.otf2");
  for (size_t cut = 7; cut < anchor.size(); cut += 23) {
    SCOPED_TRACE(cut);
    WriteFile(dir + "/traces.otf2", anchor.substr(0, cut));
    ExpectBadInput(Causeway("info " + dir), {"traces.otf2"});
  }
  std::string garbage = anchor.substr(0, 7);
  for (int i = 0; i < 300; ++i) garbage += static_cast<char>((i * 131 + 17) & 0xff);
  WriteFile(dir + "/traces.otf2", garbage);
  ExpectBadInput(Causeway("info " + dir), {"malformed OTF2 anchor file"});
}

// Item 3: a region nested 30,000 deep. report.cubex grows linearly with the call tree (it was
// 1.8 GB, quadratic in the depth, with every level indented).
TEST(DamagedTracesTest, DeepRecursionKeepsTheCubeFileLinear) {
  testing::Scenario s(1);
  testing::RankScript& r = s.rank(0);
  constexpr uint64_t kDepth = 30000;
  for (uint64_t i = 0; i < kDepth; ++i) r.Enter(i, "recurse");
  for (uint64_t i = 0; i < kDepth; ++i) r.Leave(kDepth + i, "recurse");
  const std::string anchor = s.WriteOrDie(testing::MakeTempDir("damaged-deep"));
  const std::string out = Out("deep-out");
  const Outcome o = Causeway("analyze -q -o " + out + " " + anchor);
  ExpectNoCrash(o);
  ASSERT_EQ(o.code, 0) << o.out;
  // Per call path: a cnode pair of about 45 bytes and a few values of 8 bytes in each metric
  // that has them (time, visits, computation): well below 1 KB.
  EXPECT_LT(fs::file_size(out + "/report.cubex"), kDepth * 1000);
  EXPECT_LT(o.peak_kib, 2u << 20) << o.out;
}

// The same depth on an OpenMP worker thread, inside a team: its call paths are rebuilt below
// the master's fork (trace/thread_teams.h) without recursion, even under AddressSanitizer's
// larger frames.
TEST(DamagedTracesTest, DeepRegionsOfAnOpenMpThreadAreReadWithoutRecursion) {
  testing::Scenario s(1);
  testing::RankScript& master = s.thread(0, 0);
  testing::RankScript& worker = s.thread(0, 1);
  constexpr uint64_t kDepth = 30000;
  const uint64_t end = 2 * kDepth + 10;
  master.Enter(0, "main").Enter(1, "solve").Fork(2, 2).TeamBegin(2).Enter(2, "!$omp parallel");
  master.Leave(end, "!$omp parallel").TeamEnd(end).Join(end).Leave(end + 1, "solve");
  master.Leave(end + 2, "main");
  worker.TeamBegin(3).Enter(3, "!$omp parallel");
  for (uint64_t i = 0; i < kDepth; ++i) worker.Enter(4 + i, "recurse");
  for (uint64_t i = 0; i < kDepth; ++i) worker.Leave(4 + kDepth + i, "recurse");
  worker.Leave(end, "!$omp parallel").TeamEnd(end);
  const std::string anchor = s.WriteOrDie(testing::MakeTempDir("damaged-deep-omp"));
  const std::string out = Out("deep-omp-out");
  const Outcome o = Causeway("analyze -q -o " + out + " " + anchor);
  ExpectNoCrash(o);
  ASSERT_EQ(o.code, 0) << o.out;
  EXPECT_LT(fs::file_size(out + "/report.cubex"), kDepth * 1000);
}

// A system tree whose machine and node are each other's parent: no root reaches the processes,
// which the Cube writer used to leave out of the system tree (and then wrote values past the
// end of its rows). They are placed under a machine of their own.
TEST(DamagedTracesTest, SystemTreeCycleKeepsEveryLocationInTheCube) {
  testing::Scenario s = LateSender();
  s.set_system_tree_cycle();
  const std::string anchor = s.WriteOrDie(testing::MakeTempDir("damaged-tree"));
  const std::string out = Out("tree-out");
  const Outcome o = Causeway("analyze -q -o " + out + " " + anchor);
  ExpectNoCrash(o);
  ASSERT_EQ(o.code, 0) << o.out;
  Result<CubeFile> cube = ReadCubex(out + "/report.cubex");
  ASSERT_TRUE(cube) << cube.error().message();
  ASSERT_EQ(cube->locations.size(), 2u);
  // Late Sender: rank 1 waits from 1 s to 5 s.
  double late_sender = 0;
  for (const auto& [where, value] : cube->values["mpi_latesender"]) late_sender += value;
  EXPECT_EQ(late_sender, 4.0);
}

// Item 4: 0 ticks per second turns every duration into nonsense (43.7 us read as 43,700 s).
TEST(DamagedTracesTest, ZeroTicksPerSecondIsRefused) {
  const std::string anchor = LateSender(0).WriteOrDie(testing::MakeTempDir("damaged-clock0"));
  for (const std::string& command : {std::string("info"), "analyze -q -o " + Out("clock0-a"),
                                     "whatif -q -o " + Out("clock0-w")}) {
    ExpectBadInput(Causeway(command + " " + anchor), {"0 ticks per second"});
  }
}

// Item 5: a message of 2^64-1 bytes among four of 1,024 bytes: the total was 4,095 bytes. The
// damaged count is left out (4 x 1,024 = 4,096 bytes sent) and reported.
TEST(DamagedTracesTest, ImplausibleByteCountsDoNotWrapTheTotals) {
  testing::Scenario s(2);
  s.rank(0).Enter(0, "main");
  s.rank(1).Enter(0, "main");
  for (uint64_t i = 0; i < 5; ++i) {
    const uint64_t bytes = i == 2 ? UINT64_MAX : 1024;
    s.rank(0).Send(10 * i + 1, 10 * i + 2, 1, 0, bytes);
    s.rank(1).Recv(10 * i + 1, 10 * i + 3, 0, 0, bytes);
  }
  s.rank(0).Leave(100, "main");
  s.rank(1).Leave(100, "main");
  const std::string anchor = s.WriteOrDie(testing::MakeTempDir("damaged-bytes"));
  const std::string out = Out("bytes-out");
  const Outcome o = Causeway("analyze -q -o " + out + " " + anchor);
  ExpectNoCrash(o);
  ASSERT_EQ(o.code, 0) << o.out;
  const json report = json::parse(ReadFile(out + "/report.json"));
  double sent = 0;
  for (const json& v : report["values"]) {
    if (v["metric"] == "bytes_sent") sent += v["value"].get<double>();
  }
  EXPECT_EQ(sent, 4096.0);
  const std::string summary = ReadFile(out + "/summary.txt");
  EXPECT_NE(summary.find("otf2.implausible_byte_count x2"), std::string::npos) << summary;
}

// Item 6: clock offsets of +10 s and -10 s (as Score-P writes them): the library's corrected
// times wrap below zero to about 1.8e19 ticks. Reading stops at the first such event.
TEST(DamagedTracesTest, ClockOffsetsThatWrapAreRefused) {
  // Two records each, as Score-P writes them at initialisation and finalisation: the library
  // interpolates between them.
  testing::Scenario s = LateSender(1000000000);
  for (uint64_t t : {uint64_t{0}, uint64_t{10'000'000'000}}) {
    s.AddClockOffset(0, t, 10'000'000'000);
    s.AddClockOffset(1, t, -10'000'000'000);
  }
  const std::string anchor = s.WriteOrDie(testing::MakeTempDir("damaged-offsets"));
  for (const std::string& command : {std::string("info"), "analyze -q -o " + Out("offsets-a"),
                                     "whatif -q -o " + Out("offsets-w")}) {
    // Rank 1's first event wraps to 2^64 - 10^10 ticks.
    ExpectBadInput(Causeway(command + " " + anchor),
                   {"location 1", "event 0", "outside the trace's time range", "--partial"});
  }
}

// Item 7: timestamps from 2^63 ticks are valid OTF2 times; correcting them overflowed a signed
// integer ("76 events moved, at most 9223372037 s"). The receive at 2^63 + 1 s precedes its send
// at 2^63 + 5 s: the correction moves it (and what follows it on rank 1) by at most 5 s.
TEST(DamagedTracesTest, TimestampsFromTwoToTheSixtyThreeAreCorrected) {
  constexpr uint64_t kBase = uint64_t{1} << 63;
  testing::Scenario s(2, 1);
  s.set_global_offset(kBase);  // as a writer whose clock starts there declares it
  s.rank(0).Enter(kBase, "main").Send(kBase + 5, kBase + 6, 1, 0, 8).Leave(kBase + 10, "main");
  s.rank(1).Enter(kBase, "main").Recv(kBase + 1, kBase + 2, 0, 0, 8).Leave(kBase + 10, "main");
  const std::string anchor = s.WriteOrDie(testing::MakeTempDir("damaged-2to63"));
  const std::string out = Out("2to63-out");
  const Outcome o = Causeway("analyze -q --time-correct -o " + out + " " + anchor);
  ExpectNoCrash(o);
  ASSERT_EQ(o.code, 0) << o.out;
  const json report = json::parse(ReadFile(out + "/report.json"));
  const json& correction = report["clock_correction"];
  ASSERT_FALSE(correction.is_null());
  EXPECT_GT(correction["corrected_events"].get<uint64_t>(), 0u);
  EXPECT_LE(correction["max_shift"].get<double>(), 5.0);
  EXPECT_EQ(correction["violations_before"]["p2p"].get<uint64_t>(), 1u);
  EXPECT_EQ(correction["violations_after"]["p2p"].get<uint64_t>(), 0u);
}

// Item 8: a location in an undefined location group (process) is reported.
TEST(DamagedTracesTest, UndefinedLocationGroupIsReported) {
  testing::Scenario s = LateSender();
  s.set_location_group(1, 7);
  const std::string anchor = s.WriteOrDie(testing::MakeTempDir("damaged-group"));
  const Outcome info = Causeway("info " + anchor);
  ExpectNoCrash(info);
  EXPECT_NE(info.out.find("otf2.undefined_location_group"), std::string::npos) << info.out;
  EXPECT_NE(info.out.find("location 1, group 7"), std::string::npos) << info.out;
  const std::string out = Out("group-out");
  ExpectNoCrash(Causeway("analyze -q -o " + out + " " + anchor));
  EXPECT_NE(ReadFile(out + "/summary.txt").find("otf2.undefined_location_group"),
            std::string::npos);
}

// Two locations defined under one id (0): the message names the id, both locations and the
// duplication, for every subcommand that reads the definitions.
TEST(DamagedTracesTest, TwoLocationsWithOneIdAreNamed) {
  testing::Scenario s = LateSender();
  s.set_location_id(1, 0);
  const std::string anchor = s.WriteOrDie(testing::MakeTempDir("damaged-location-id"));
  for (const std::string& command :
       {std::string("info "), "analyze -q -o " + Out("dup-out") + " "}) {
    SCOPED_TRACE(command);
    const Outcome o = Causeway(command + anchor);
    ExpectNoCrash(o);
    EXPECT_EQ(o.code, 2) << o.out;
    EXPECT_NE(o.out.find("two locations have the id 0 (\"Master thread\" and \"Master thread\")"),
              std::string::npos)
        << o.out;
  }
}

// Item 9: a broadcast whose root (77) is outside its 2-process communicator.
TEST(DamagedTracesTest, CollectiveRootOutsideItsCommunicatorIsReported) {
  testing::Scenario s(2);
  for (int r = 0; r < 2; ++r) {
    s.rank(r).Enter(0, "main").Collective(1, 3, "MPI_Bcast", OTF2_COLLECTIVE_OP_BCAST, 8, 8, 77);
    s.rank(r).Leave(10, "main");
  }
  const std::string anchor = s.WriteOrDie(testing::MakeTempDir("damaged-root"));
  const std::string out = Out("root-out");
  const Outcome o = Causeway("analyze -q -o " + out + " " + anchor);
  ExpectNoCrash(o);
  const std::string summary = ReadFile(out + "/summary.txt");
  EXPECT_NE(summary.find("match.collective_root_outside x1"), std::string::npos) << summary;
  EXPECT_NE(summary.find("root 77 of 2 ranks"), std::string::npos) << summary;
}

// Item 10: --memory-limit refuses a location declaring 2^63 events (the estimate wrapped) as it
// refuses one declaring 10^12.
TEST(DamagedTracesTest, MemoryLimitSeesHugeDeclaredCounts) {
  for (uint64_t declared : {uint64_t{1000000000000}, uint64_t{1} << 63, UINT64_MAX}) {
    SCOPED_TRACE(declared);
    testing::Scenario s = LateSender();
    s.DeclareEventCount(0, declared);
    const std::string anchor = s.WriteOrDie(testing::MakeTempDir("damaged-declared"));
    const Outcome o =
        Causeway("analyze -q --memory-limit 16GiB -o " + Out("declared-out") + " " + anchor);
    ExpectNoCrash(o);
    EXPECT_EQ(o.code, 4) << o.out;
    // Without a limit, the location's file holds far fewer events than it declares.
    ExpectBadInput(Causeway("analyze -q -o " + Out("declared-out") + " " + anchor),
                   {"location 0", "events the definitions declare"});
  }
}

// Item 11: every subcommand reports the trace problems it worked around.
TEST(DamagedTracesTest, EverySubcommandReportsWhatItWorkedAround) {
  struct Case {
    const char* name;
    testing::Scenario scenario;
    const char* diagnostic;
  };
  std::vector<Case> cases;
  {
    // The OTF2 writer refuses decreasing times, so they come from clock offsets falling faster
    // than time runs (+5000 ticks at 0, -6000 at 10000): read times fall from 5000 to 4000.
    testing::Scenario s = LateSender(1000);
    s.AddClockOffset(0, 0, 5000);
    s.AddClockOffset(0, 10000, -6000);
    cases.push_back({"time reversal", s, "trace.time_reversed"});
  }
  {
    testing::Scenario s = LateSender();
    s.rank(1).Leave(10, "orphan");  // a Leave without its Enter
    cases.push_back({"leave without enter", s, "trace.unmatched_leave"});
  }
  {
    testing::Scenario s(2);  // an Isend never completed, never received
    s.rank(0).Enter(0, "main").Isend(1, 2, 1, 5, 8, /*request=*/42).Send(5, 6, 1, 0, 8);
    s.rank(0).Leave(10, "main");
    s.rank(1).Enter(0, "main").Recv(1, 6, 0, 0, 8).Leave(10, "main");
    cases.push_back({"dangling request", s, "trace.open_request"});
  }
  {
    testing::Scenario s(2);
    s.rank(0).Enter(0, "main").Collective(1, 2, "MPI_Barrier", OTF2_COLLECTIVE_OP_BARRIER, 0, 0);
    s.rank(1).Enter(0, "main").Collective(1, 2, "MPI_Bcast", OTF2_COLLECTIVE_OP_BCAST, 8, 8, 0);
    s.rank(0).Leave(10, "main");
    s.rank(1).Leave(10, "main");
    cases.push_back({"mismatched collective", s, "match.collective_mismatch"});
  }
  {
    testing::Scenario s(2);
    s.rank(0).Enter(0, "main").Send(5, 6, 1, 0, 8).Leave(10, "main");
    s.rank(1).Enter(0, "main").EnterRegionId(1, 999).LeaveRegionId(2, 999);
    s.rank(1).Recv(3, 6, 0, 0, 8).Leave(10, "main");
    cases.push_back({"undefined region", s, "otf2.undefined_region"});
  }
  {
    testing::Scenario s(2);
    s.rank(0).Enter(0, "main").Send(1, 2, 1, 0, 8, "MPI_Send", 9).Leave(10, "main");
    s.rank(1).Enter(0, "main").Recv(1, 3, 0, 0, 8, 9).Leave(10, "main");
    cases.push_back({"undefined communicator", s, "communicator"});
  }
  for (Case& c : cases) {
    SCOPED_TRACE(c.name);
    const std::string anchor = c.scenario.WriteOrDie(testing::MakeTempDir("damaged-worked"));
    for (const std::string& command :
         {std::string("info"), "whatif -q -o " + Out("worked-w"),
          "export chrome -o " + Out("worked-e") + "/t.json", "analyze -o " + Out("worked-a")}) {
      SCOPED_TRACE(command);
      const Outcome o = Causeway(command + " " + anchor);
      ExpectNoCrash(o);
      EXPECT_EQ(o.code, 0) << o.out;
      // whatif's replay repairs what matching finds in its own words ("1 incomplete
      // collectives" for the mismatch); the reader's diagnostics it names as everyone does.
      const bool replay_words = command.rfind("whatif", 0) == 0 && c.diagnostic[0] == 'm';
      EXPECT_NE(o.out.find(replay_words ? "Trace problems (see summary.txt)" : c.diagnostic),
                std::string::npos)
          << o.out;
      EXPECT_EQ(o.out.find("Trace problems: none"), std::string::npos) << o.out;
      // The example of every reader diagnostic says where it is.
      if (command.rfind("analyze", 0) == 0 && c.diagnostic[0] == 't') {
        EXPECT_NE(o.out.find(std::string(c.diagnostic) + " x"), std::string::npos) << o.out;
        EXPECT_TRUE(std::regex_search(
            o.out, std::regex(std::string(c.diagnostic) + " x[^\n]*first: location [01]")))
            << o.out;
      }
    }
  }
}

// Item 12: names and the creator string are untrusted text. A newline in a region name must not
// forge summary lines, escape sequences must not reach the terminal, invalid UTF-8 is repaired.
TEST(DamagedTracesTest, HostileTextIsEscaped) {
  const std::string evil =
      "solve\nTrace problems: none.\n[error] fake\x1b[2J\x1b]0;owned\x07\xff\xfe\xc2\x9b"
      "31m";
  testing::Scenario s(2);
  s.set_creator("tool\n[error] forged creator\x1b[31m");
  s.rank(0).Enter(0, "main").Call(1, 5, evil).Send(5, 6, 1, 0, 8).Leave(10, "main");
  s.rank(1).Enter(0, "main").Recv(1, 6, 0, 0, 8).Leave(10, "main");
  const std::string anchor = s.WriteOrDie(testing::MakeTempDir("damaged-text"));
  const std::string out = Out("text-out");
  auto expect_clean = [](const std::string& text) {
    EXPECT_EQ(text.find('\x1b'), std::string::npos) << text;
    EXPECT_EQ(text.find('\x07'), std::string::npos) << text;
    EXPECT_EQ(text.find("\xc2\x9b"), std::string::npos) << text;
    EXPECT_EQ(text.find('\xff'), std::string::npos) << text;
    EXPECT_FALSE(std::regex_search(text, std::regex("(^|\n)\\[error\\] fake")));
    EXPECT_FALSE(std::regex_search(text, std::regex("(^|\n)\\[error\\] forged")));
  };
  const Outcome analyze = Causeway("analyze -o " + out + " " + anchor);
  ExpectNoCrash(analyze);
  ASSERT_EQ(analyze.code, 0) << analyze.out;
  expect_clean(analyze.out);
  const std::string summary = ReadFile(out + "/summary.txt");
  expect_clean(summary);
  EXPECT_NE(summary.find("solve\\nTrace problems: none.\\n[error] fake\\x1b[2J"), std::string::npos)
      << summary;
  const Outcome info = Causeway("info " + anchor);
  ExpectNoCrash(info);
  expect_clean(info.out);
  const Outcome whatif = Causeway("whatif -o " + Out("text-w") + " " + anchor);
  ExpectNoCrash(whatif);
  expect_clean(whatif.out);
  // report.json keeps the name as recorded, escaped as JSON requires, with invalid bytes repaired.
  const json report = json::parse(ReadFile(out + "/report.json"));
  bool found = false;
  for (const json& c : report["callpaths"]) {
    found |= c["region"].get<std::string>().rfind("solve\nTrace problems", 0) == 0;
  }
  EXPECT_TRUE(found);
}

// Item 13: the suggested export command quotes the trace path, so pasting it runs nothing the
// directory's name holds.
TEST(DamagedTracesTest, SuggestedCommandQuotesThePath) {
  const std::string base = testing::MakeTempDir("damaged-quote");
  const std::string dir = base + "/we ird;$(touch pwned)'\"";
  LateSender().WriteOrDie(dir);
  const std::string out = base + "/report";
  std::string output;
  ASSERT_EQ(RunCommand("cd " + base + " && " + CausewayBinary() +
                           " analyze -q -o report \"we ird;\\$(touch pwned)'\\\"\"",
                       &output),
            0)
      << output;
  const std::string summary = ReadFile(out + "/summary.txt");
  std::smatch m;
  ASSERT_TRUE(std::regex_search(summary, m, std::regex("causeway export chrome ([^\n]*)")))
      << summary;
  const std::string command = CausewayBinary() + " export chrome " + m[1].str();
  EXPECT_EQ(RunCommand("cd " + base + " && " + command, &output), 0) << command << "\n" << output;
  EXPECT_FALSE(fs::exists(base + "/pwned")) << command;
  EXPECT_TRUE(fs::exists(base + "/worst.json")) << output;
}

// Item 14: one timestamp with a flipped high bit (bit 60 of the compute call's Enter, found in
// the event file by its value) is refused, and with --partial the location is read up to it: no
// "153.5 % of all time", no trace of 10^10 s, no negative measured runtime in whatif. The trace
// runs 1,000,000 ticks at 1000 ticks/s: 1000 s.
TEST(DamagedTracesTest, AFlippedTimestampIsCaught) {
  constexpr uint64_t kMarked = 123457;
  testing::Scenario s(2, 1000);
  s.rank(0).Enter(0, "main").Call(kMarked, kMarked + 100, "compute");
  s.rank(0).Send(500000, 600000, 1, 0, 8).Leave(1000000, "main");
  s.rank(1).Enter(0, "main").Recv(100000, 600000, 0, 0, 8).Leave(1000000, "main");
  const std::string anchor = s.WriteOrDie(testing::MakeTempDir("damaged-flip"));
  const std::string events = fs::path(anchor).parent_path() / "traces" / "0.evt";
  std::string bytes = ReadFile(events);
  std::string marked(8, '\0');
  for (int i = 0; i < 8; ++i)
    marked[static_cast<size_t>(i)] = static_cast<char>((kMarked >> (8 * i)) & 0xff);
  const size_t at = bytes.find(marked);
  ASSERT_NE(at, std::string::npos);
  bytes[at + 7] = static_cast<char>(bytes[at + 7] ^ 0x10);
  WriteFile(events, bytes);
  ExpectBadInput(Causeway("analyze -q -o " + Out("flip-a") + " " + anchor),
                 {"location 0", "event 1", "outside the trace's time range"});
  ExpectBadInput(Causeway("whatif -q -o " + Out("flip-w") + " " + anchor),
                 {"location 0", "--partial"});
  const std::string out = Out("flip-p");
  const Outcome partial = Causeway("analyze -q --partial -o " + out + " " + anchor);
  ExpectNoCrash(partial);
  ASSERT_EQ(partial.code, 0) << partial.out;
  const json report = json::parse(ReadFile(out + "/report.json"));
  EXPECT_LE(report["trace"]["duration"].get<double>(), 1000.0);
  const std::string whatif = Out("flip-wp");
  const Outcome w = Causeway("whatif -q --partial -o " + whatif + " " + anchor);
  ExpectNoCrash(w);
  ASSERT_EQ(w.code, 0) << w.out;
  const json prediction = json::parse(ReadFile(whatif + "/whatif.json"));
  EXPECT_GE(prediction["measured_runtime"].get<double>(), 0.0);
  EXPECT_LE(prediction["measured_runtime"].get<double>(), 1000.0);
}

// Timestamps on both sides of 2^63 (a flipped top bit, with clock properties that declare a
// range of 2^63 ticks): the analyses' signed differences overflowed (found by the fuzz target).
// The reader keeps to the half of the global offset, so the event above 2^63 is out of range.
TEST(DamagedTracesTest, TimestampsStraddlingTwoToTheSixtyThreeAreRefused) {
  constexpr uint64_t kHigh = (uint64_t{1} << 63) + 100;
  testing::Scenario s(2, 1);
  s.rank(0).Enter(0, "main").Send(5, 6, 1, 0, 8).Leave(kHigh, "main");
  s.rank(1).Enter(0, "main").Recv(1, 6, 0, 0, 8).Leave(10, "main");
  const std::string anchor = s.WriteOrDie(testing::MakeTempDir("damaged-straddle"));
  for (const std::string& command : {std::string("info"), "analyze -q -o " + Out("straddle-a"),
                                     "whatif -q -o " + Out("straddle-w")}) {
    ExpectBadInput(Causeway(command + " " + anchor),
                   {"location 0", "event 4", "outside the trace's time range"});
  }
  const Outcome partial = Causeway("analyze -q --partial -o " + Out("straddle-p") + " " + anchor);
  ExpectNoCrash(partial);
  EXPECT_EQ(partial.code, 0) << partial.out;
}

}  // namespace
}  // namespace cw::test
