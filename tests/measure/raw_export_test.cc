// The exporter on raw files written by hand: what an intact run becomes, and what damaged,
// truncated or missing files become (a clear problem and the rest exported, never a crash or a
// huge allocation).
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <tuple>
#include <vector>

#include <gtest/gtest.h>

#include "measure/export/internal/raw_definitions.h"
#include "measure/export/raw_export.h"
#include "measure/raw/raw_format.h"
#include "testing/scenario.h"
#include "tests/common/analysis_fixture.h"
#include "tests/common/raw_run.h"
#include "trace/collective_senders.h"

namespace cw::test {
namespace {

namespace fs = std::filesystem;
using measure::ExportRawTrace;
using measure::ExportSummary;
using measure::MpiFunction;
using measure::RawEvent;
using measure::RawKind;

TEST(RawExportTest, IntactRunBecomesTheTraceItRecorded) {
  RawRun run("raw-intact");
  WriteLateSender(run);
  Result<ExportSummary> s = ExportRawTrace(run.dir());
  ASSERT_TRUE(s.has_value()) << s.error().message();
  EXPECT_EQ(s->ranks, 2u);
  EXPECT_EQ(s->events, 10u);
  EXPECT_EQ(s->raw_bytes, 10 * sizeof(RawEvent));
  EXPECT_TRUE(s->problems.empty());
  EXPECT_TRUE(s->endings.empty());
  Analysis a = AnalyzeFile(s->anchor, 1);
  EXPECT_EQ(a.report.matching.messages, 1u);
  // 2000 - 1500 ns, charged to main/MPI_Recv on rank 1.
  EXPECT_NEAR(a.Value("mpi_latesender", "main/MPI_Recv", 1), 500e-9, 1e-15);
}

// Where each rank ran travels from its definitions to the trace's: rank 0 notes its node's CPU
// time and the part a hypervisor stole (4 s of 40 s: 10 %, contended), rank 1 writes the line
// of earlier versions without them (unknown), and a stolen time larger than the node's is
// damage, read as unknown.
TEST(RawExportTest, WhereEachRankRanReachesTheTrace) {
  RawRun run("raw-scheduling");
  WriteLateSender(run);
  run.Defs(0, RankDefs(0, 2) + "sched 1 2 900 0 40000000000 4000000000\nend 5 0 0 0 ok\n");
  run.Defs(1, RankDefs(1, 2) + "sched 1 2 800 0\nend 5 0 0 0 ok\n");
  Result<ExportSummary> s = ExportRawTrace(run.dir());
  ASSERT_TRUE(s.has_value()) << s.error().message();
  Analysis a = AnalyzeFile(s->anchor, 1);
  const auto& schedules = a.trace.defs.rank_schedules;
  ASSERT_EQ(schedules.size(), 2u);
  EXPECT_EQ(schedules[0].host, "node1");
  EXPECT_EQ(schedules[0].ran_ns, 900);
  EXPECT_EQ(schedules[0].waited_ns, 0);
  EXPECT_EQ(schedules[0].node_ns, 40'000'000'000);
  EXPECT_EQ(schedules[0].node_stolen_ns, 4'000'000'000);
  EXPECT_EQ(schedules[1].ran_ns, 800);
  EXPECT_EQ(schedules[1].node_ns, -1);
  EXPECT_EQ(schedules[1].node_stolen_ns, -1);
  // No rank waited for a CPU in its node's account: the steal alone is the contention.
  EXPECT_TRUE(a.report.trace.cpu_contention);
  EXPECT_EQ(a.report.trace.contention,
            "the hypervisor took 10 % of host node1's CPU time (steal) while rank 0 recorded");

  RawRun damaged("raw-scheduling-damaged");
  WriteLateSender(damaged);
  damaged.Defs(0, RankDefs(0, 2) + "sched 1 2 900 0 10 20\nend 5 0 0 0 ok\n");
  Result<ExportSummary> d = ExportRawTrace(damaged.dir());
  ASSERT_TRUE(d.has_value()) << d.error().message();
  Analysis b = AnalyzeFile(d->anchor, 1);
  ASSERT_EQ(b.trace.defs.rank_schedules.size(), 1u);
  EXPECT_EQ(b.trace.defs.rank_schedules[0].node_stolen_ns, -1);
  EXPECT_FALSE(b.report.trace.cpu_contention);
}

TEST(RawExportTest, DamagedFilesGiveProblemsAndTheRest) {
  RawRun run("raw-damaged");
  // Rank 0: a communicator line claiming 10^12 members, a region with an absurd id, a record of
  // unknown kind, an Enter of a region never defined, 13 bytes of a record cut short, and no
  // Leave of main (the rank died).
  run.Defs(0, RankDefs(0, 3) + "comm 1 4 1000000000000 0 1\nregion 4000000000 huge\nsignal 11\n");
  RawEvent unknown = Event(1500, RawKind::kEnter);
  unknown.kind = static_cast<RawKind>(200);
  run.Events(0,
             {Event(1000, RawKind::kEnter, kMain), unknown, Event(1600, RawKind::kEnter, kMain + 7),
              Event(1700, RawKind::kSend, 0, 1, 5, 8)},
             13);
  // Rank 1: intact. Rank 2: no definitions at all.
  run.Defs(1, RankDefs(1, 3) + "end 3 0 0 0 ok\n");
  run.Events(1, {Event(1000, RawKind::kEnter, kMain), Event(1800, RawKind::kRecv, 0, 0, 5, 8),
                 Event(3000, RawKind::kLeave, kMain)});
  run.Events(2, {Event(1000, RawKind::kEnter, kMain)});
  Result<ExportSummary> s = ExportRawTrace(run.dir());
  ASSERT_TRUE(s.has_value()) << s.error().message();
  EXPECT_EQ(s->invalid_records, 2u);  // the unknown kind and the undefined region
  EXPECT_EQ(s->truncated_bytes, 13u);
  EXPECT_EQ(s->closed_regions, 1u);  // rank 0's main, closed at its last event
  ASSERT_EQ(s->endings.size(), 1u);
  EXPECT_EQ(s->endings[0].how, "signal 11");
  // Rank 0's two damaged lines and rank 2's missing definitions.
  ASSERT_EQ(s->problems.size(), 3u);
  EXPECT_NE(s->problems[0].find("damaged line"), std::string::npos);
  EXPECT_NE(s->problems[2].find("rank-2.defs is missing"), std::string::npos);
  // Ranks 0 (main, its send, main's closing Leave) and 1 (3 events).
  EXPECT_EQ(s->events, 6u);
  Analysis a = AnalyzeFile(s->anchor, 1);
  EXPECT_EQ(a.report.matching.messages, 1u);
}

// Timestamps a damaged file can hold (a flipped high bit): rank 0 of the Late Sender gets, after
// its MPI_Send, a record stamped 2^62 ns + 2300 (beyond any clock's 146 years) and one stamped
// 2^55 ns + 2300 (more than 13 days after the record before it). Both are left out; had the
// second been kept, every later record of the rank would have moved with it (a thread's times
// never go back) and the archive's time range would have been 2^55 ns long. The trace keeps its
// 2000 ns (1000 to 3000) and its Late Sender of 500 ns.
TEST(RawExportTest, RecordsStampedFarAheadAreDamagedAndLeftOut) {
  RawRun run("raw-far-ahead");
  WriteLateSender(run);
  const uint32_t barrier = Region(MpiFunction::kMPI_Barrier);
  run.Events(0, {Event(1000, RawKind::kEnter, kMain),
                 Event(2000, RawKind::kEnter, Region(MpiFunction::kMPI_Send)),
                 Event(2100, RawKind::kSend, 0, 1, 5, 8),
                 Event(2200, RawKind::kLeave, Region(MpiFunction::kMPI_Send)),
                 Event((uint64_t{1} << 62) + 2300, RawKind::kEnter, barrier),
                 Event((uint64_t{1} << 55) + 2300, RawKind::kEnter, barrier),
                 Event(3000, RawKind::kLeave, kMain)});
  Result<ExportSummary> s = ExportRawTrace(run.dir());
  ASSERT_TRUE(s.has_value()) << s.error().message();
  EXPECT_EQ(s->invalid_records, 2u);
  EXPECT_EQ(s->events, 10u);
  EXPECT_EQ(s->closed_regions, 0u);
  Analysis a = AnalyzeFile(s->anchor, 1);
  EXPECT_EQ(a.trace.defs.clock.trace_length, 2000u);
  EXPECT_NEAR(a.Value("mpi_latesender", "main/MPI_Recv", 1), 500e-9, 1e-15);
}

TEST(RawExportTest, ThreadsBecomeLocationsOfTheirRank) {
  // The Late Sender of WriteLateSender, between the second threads of the ranks on communicator
  // 1 (agreed id 5, ranks 0 and 1), while the main threads only run main. Rank 1 also declares
  // a thread 2 that left no events file, and a damaged thread line.
  RawRun run("raw-threads");
  const std::string side = "comm 1 5 2 0 1\n";
  run.Defs(0, RankDefs(0, 2) + side + "thread 1\nend 2 0 0 0 ok\nthread_end 1 3 0 0 ok\n");
  run.Defs(1, RankDefs(1, 2) + side +
                  "thread 1\nthread 2\nthread 100000\nend 2 0 0 0 ok\nthread_end 1 3 0 0 ok\n");
  for (int r = 0; r < 2; ++r) {
    run.Events(r, {Event(1000, RawKind::kEnter, kMain), Event(3000, RawKind::kLeave, kMain)});
  }
  run.ThreadEvents(0, 1,
                   {Event(2000, RawKind::kEnter, Region(MpiFunction::kMPI_Send)),
                    Event(2100, RawKind::kSend, 1, 1, 5, 8),
                    Event(2200, RawKind::kLeave, Region(MpiFunction::kMPI_Send))});
  run.ThreadEvents(1, 1,
                   {Event(1500, RawKind::kEnter, Region(MpiFunction::kMPI_Recv)),
                    Event(2500, RawKind::kRecv, 1, 0, 5, 8),
                    Event(2600, RawKind::kLeave, Region(MpiFunction::kMPI_Recv))});
  Result<ExportSummary> s = ExportRawTrace(run.dir());
  ASSERT_TRUE(s.has_value()) << s.error().message();
  EXPECT_EQ(s->events, 4u + 6u);
  // The damaged line and the missing events file of rank 1's thread 2.
  ASSERT_EQ(s->problems.size(), 2u);
  EXPECT_NE(s->problems[0].find("damaged line"), std::string::npos);
  EXPECT_NE(s->problems[1].find("rank-1.thread-2.events is missing"), std::string::npos);
  // Locations: rank 0's master thread and thread 1, rank 1's master thread, threads 1 and 2.
  Analysis a = AnalyzeFile(s->anchor, 1);
  ASSERT_EQ(a.trace.location_count(), 5u);
  EXPECT_EQ(a.trace.defs.str(a.trace.defs.locations[3].name), "Thread 1");
  EXPECT_EQ(a.trace.defs.RankOfLocation(3), 1u);
  EXPECT_EQ(a.trace.location(4).size(), 0u);
  // The threads' communicator is theirs: the message matches, 2000 - 1500 ns late.
  EXPECT_EQ(a.report.matching.messages, 1u);
  EXPECT_NEAR(a.Value("mpi_latesender", "MPI_Recv", 3), 500e-9, 1e-15);
}

// An OpenMP team of 3 as the tracer records it through OMPT (ns): the master forks at 2000, all
// three begin the team and the parallel region; the explicit barrier is entered at 3000, 4000
// and 6000 and left at 6000; the critical section (lock 0) is entered at 6100, 6100 and 6200 and
// held 6100-7000 by the master, 7000-8000 by thread 1 and 8000-8900 by thread 2 (acquisitions 1,
// 2, 3); the implicit barrier is entered at 7100, 8100 and 9000, everything ends at 9000; the
// master joins at 9100. No memory map: the regions go unlocated.
TEST(RawExportTest, OpenMpThreadsBecomeATeamWithScorePsRecords) {
  RawRun run("raw-openmp");
  constexpr uint32_t kParallel = kMain + 1, kBarrier = kMain + 2, kImplicit = kMain + 3,
                     kCritical = kMain + 4, kSblock = kMain + 5;
  std::string lines = RankDefs(0, 1);
  for (auto [id, construct] :
       {std::pair{kParallel, "parallel"}, std::pair{kBarrier, "barrier"},
        std::pair{kImplicit, "implicit_barrier"}, std::pair{kCritical, "critical"},
        std::pair{kSblock, "critical_sblock"}}) {
    lines += "omp_region " + std::to_string(id) + " " + construct + " 0\n";
  }
  run.Defs(0, lines + "omp_region 9 nonsense 0\nthread 1\nthread 2\nend 30 0 0 0 ok\n");
  // A member's records: team and region begin at `begin`, the barrier from `barrier`, the lock's
  // acquisition `order` from `critical` (entered) and `acquired` to `released`, the implicit
  // barrier from `implicit`; all of it ends at 9000.
  auto member = [&](uint64_t begin, uint64_t barrier, uint64_t critical, uint64_t acquired,
                    uint64_t released, uint32_t order, uint64_t implicit) {
    return std::vector<RawEvent>{Event(begin, RawKind::kThreadTeamBegin),
                                 Event(begin, RawKind::kEnter, kParallel),
                                 Event(barrier, RawKind::kEnter, kBarrier),
                                 Event(6000, RawKind::kLeave, kBarrier),
                                 Event(critical, RawKind::kEnter, kCritical),
                                 Event(acquired, RawKind::kThreadAcquireLock, 0, 0, 0, 0, order),
                                 Event(acquired, RawKind::kEnter, kSblock),
                                 Event(released, RawKind::kLeave, kSblock),
                                 Event(released, RawKind::kThreadReleaseLock, 0, 0, 0, 0, order),
                                 Event(released, RawKind::kLeave, kCritical),
                                 Event(implicit, RawKind::kEnter, kImplicit),
                                 Event(9000, RawKind::kLeave, kImplicit),
                                 Event(9000, RawKind::kLeave, kParallel),
                                 Event(9000, RawKind::kThreadTeamEnd)};
  };
  std::vector<RawEvent> master = {Event(1000, RawKind::kEnter, kMain),
                                  Event(2000, RawKind::kThreadFork, 3)};
  for (const RawEvent& e : member(2100, 3000, 6100, 6100, 7000, 1, 7100)) master.push_back(e);
  master.push_back(Event(9100, RawKind::kThreadJoin));
  master.push_back(Event(10000, RawKind::kLeave, kMain));
  run.Events(0, master);
  run.ThreadEvents(0, 1, member(2200, 4000, 6100, 7000, 8000, 2, 8100));
  run.ThreadEvents(0, 2, member(2300, 6000, 6200, 8000, 8900, 3, 9000));
  Result<ExportSummary> s = ExportRawTrace(run.dir());
  ASSERT_TRUE(s.has_value()) << s.error().message();
  EXPECT_EQ(s->events, 18u + 14u + 14u);
  ASSERT_EQ(s->problems.size(), 1u);  // the construct it does not know
  EXPECT_NE(s->problems[0].find("omp_region 9 nonsense"), std::string::npos);
  Analysis a = AnalyzeFile(s->anchor, 1);
  ASSERT_EQ(a.trace.location_count(), 3u);
  const trace::Definitions& defs = a.trace.defs;
  // Score-P's location ids, thread << 32 | rank: Scalasca reads a thread's number from them.
  EXPECT_EQ(defs.locations[0].otf2_id, 0u);
  EXPECT_EQ(defs.locations[1].otf2_id, uint64_t{1} << 32);
  EXPECT_EQ(defs.locations[2].otf2_id, uint64_t{2} << 32);
  // Regions of the OpenMP paradigm with their roles, named as Score-P names them.
  const std::map<std::string, trace::RegionRole> roles = {
      {"!$omp parallel", trace::RegionRole::kParallel},
      {"!$omp barrier", trace::RegionRole::kBarrier},
      {"!$omp implicit barrier", trace::RegionRole::kImplicitBarrier},
      {"!$omp critical", trace::RegionRole::kCritical},
      {"!$omp critical sblock", trace::RegionRole::kCriticalSblock}};
  for (const auto& [name, role] : roles) {
    uint32_t region = 0;
    while (region < defs.regions.size() && defs.RegionName(region) != name) ++region;
    ASSERT_LT(region, defs.regions.size()) << name;
    EXPECT_EQ(defs.regions[region].role, role) << name;
    EXPECT_EQ(defs.regions[region].paradigm, trace::Paradigm::kOpenMp) << name;
  }
  // Explicit barrier: the last enters at 6000; the master waits 3000 ns, thread 1 2000 ns.
  // Critical: acquisition 2 (thread 1, entered 6100) waits for release 1 at 7000: 900 ns;
  // acquisition 3 (thread 2, entered 6200) for release 2 at 8000: 1800 ns.
  // Implicit barrier: the last enters at 9000; the master waits 1900 ns, thread 1 900 ns.
  // Every thread's waits are in the master's call paths.
  const std::string team = "main/!$omp parallel/";
  for (auto [location, ebarrier, critical, ibarrier] :
       {std::tuple{0u, 3000e-9, 0.0, 1900e-9}, std::tuple{1u, 2000e-9, 900e-9, 900e-9},
        std::tuple{2u, 0.0, 1800e-9, 0.0}}) {
    SCOPED_TRACE(location);
    EXPECT_NEAR(a.Value("omp_ebarrier_wait", team + "!$omp barrier", location), ebarrier, 1e-15);
    EXPECT_NEAR(a.Value("omp_lock_contention_critical", team + "!$omp critical", location),
                critical, 1e-15);
    EXPECT_NEAR(a.Value("omp_ibarrier_wait", team + "!$omp implicit barrier", location), ibarrier,
                1e-15);
  }
}

TEST(RawExportTest, OneSidedRecordsNeedTheirWindowAndGroup) {
  RawRun run("raw-rma");
  // Both ranks define window 0 (agreed id 0, on MPI_COMM_WORLD) and group 0 (world rank 1);
  // rank 0 also has a damaged window line. Each rank: MPI_Win_fence with its collective
  // begin/end (enter 1000 / 2000 and 1400 / 2000: rank 0 waits 400 ns), a put to the other rank
  // completed by the second fence, and an MPI_Win_post on group 0. Rank 0's records that name
  // window 3 and group 9, which nobody defined, are left out.
  const std::string rma_defs = "win 0 0 0\ngroup 0 1 1\n";
  run.Defs(0, RankDefs(0, 2) + rma_defs + "win x y\nend 0 0 0 0 ok\n");
  run.Defs(1, RankDefs(1, 2) + rma_defs + "end 0 0 0 0 ok\n");
  const uint32_t fence = Region(MpiFunction::kMPI_Win_fence);
  const uint32_t put = Region(MpiFunction::kMPI_Put);
  const uint32_t post = Region(MpiFunction::kMPI_Win_post);
  for (int r = 0; r < 2; ++r) {
    const uint64_t enter = r == 0 ? 1000 : 1400;
    RawEvent end = Event(2000, RawKind::kRmaCollectiveEnd, 0, measure::kNoRank, 3);
    end.op = OTF2_COLLECTIVE_OP_BARRIER;
    RawEvent second_end = end;
    second_end.time = 4000;
    std::vector<RawEvent> events = {
        Event(500, RawKind::kEnter, kMain),
        Event(enter, RawKind::kEnter, fence),
        Event(enter, RawKind::kRmaCollectiveBegin),
        end,
        Event(2000, RawKind::kLeave, fence),
        Event(2100, RawKind::kEnter, put),
        Event(2200, RawKind::kRmaPut, 0, static_cast<uint32_t>(1 - r), 0, 8, 1),
        Event(2300, RawKind::kLeave, put),
        Event(3000, RawKind::kEnter, fence),
        Event(3000, RawKind::kRmaCollectiveBegin),
        Event(3900, RawKind::kRmaOpCompleteBlocking, 0, 0, 0, 0, 1),
        second_end,
        Event(4000, RawKind::kLeave, fence),
        Event(4100, RawKind::kEnter, post),
        Event(4200, RawKind::kRmaGroupSync, 0, 0, 1),
        Event(4300, RawKind::kLeave, post)};
    if (r == 0) {
      events.push_back(Event(4400, RawKind::kRmaPut, 3, 1, 0, 8, 2));  // window 3
      events.push_back(Event(4500, RawKind::kRmaGroupSync, 0, 9, 1));  // group 9
    }
    events.push_back(Event(5000, RawKind::kLeave, kMain));
    run.Events(r, events);
  }
  Result<ExportSummary> s = ExportRawTrace(run.dir());
  ASSERT_TRUE(s.has_value()) << s.error().message();
  EXPECT_EQ(s->invalid_records, 2u);
  ASSERT_EQ(s->problems.size(), 1u);
  EXPECT_NE(s->problems[0].find("damaged line \"win x y\""), std::string::npos);
  EXPECT_EQ(s->events, 34u);  // 17 per rank
  Analysis a = AnalyzeFile(s->anchor, 1);
  EXPECT_EQ(a.trace.defs.windows.size(), 1u);
  EXPECT_EQ(a.report.matching.collective_instances, 2u);
  // Rank 0 entered the first fence at 1000, rank 1 at 1400; both left at 2000.
  EXPECT_NEAR(a.Value("mpi_rma_wait_at_fence", "main/MPI_Win_fence", 0), 400e-9, 1e-15);
  EXPECT_NEAR(a.Total("bytes_put"), 16.0, 0.0);
}

// MPI_Alltoallv's senders: rank 0 receives from rank 1 (its group 0), rank 1 from rank 0 and
// from itself (its group 0); each rank also defines an empty group (MPI_Win_post on
// MPI_GROUP_EMPTY), which is no damage. Rank 0 enters at 1000, rank 1 at 3000; both leave at
// 4000, so rank 0 waits 3000 - 1000 = 2000 ns for its sender and rank 1 nothing (rank 0 entered
// before it). Rank 1's CollectiveEnd names group 7, which nobody defined: no attribute.
TEST(RawExportTest, TheSendersOfAnAlltoallvBecomeItsAttribute) {
  RawRun run("raw-senders");
  run.Defs(0, RankDefs(0, 2) + "group 0 1 1\ngroup 1 0\nend 0 0 0 0 ok\n");
  run.Defs(1, RankDefs(1, 2) + "group 0 2 0 1\ngroup 1 0\nend 0 0 0 0 ok\n");
  const uint32_t alltoallv = Region(MpiFunction::kMPI_Alltoallv);
  for (int r = 0; r < 2; ++r) {
    const uint64_t enter = r == 0 ? 1000 : 3000;
    RawEvent end = Event(4000, RawKind::kCollectiveEnd, 0, measure::kNoRank, /*senders=*/1, 8, 8);
    end.op = OTF2_COLLECTIVE_OP_ALLTOALLV;
    RawEvent undefined = end;
    undefined.time = 6000;
    undefined.c = 8;
    std::vector<RawEvent> events = {
        Event(500, RawKind::kEnter, kMain),      Event(enter, RawKind::kEnter, alltoallv),
        Event(enter, RawKind::kCollectiveBegin), end,
        Event(4000, RawKind::kLeave, alltoallv), Event(5000, RawKind::kEnter, alltoallv),
        Event(5000, RawKind::kCollectiveBegin),  r == 1 ? undefined : end,
        Event(6000, RawKind::kLeave, alltoallv), Event(7000, RawKind::kLeave, kMain)};
    events[7].time = 6000;
    run.Events(r, events);
  }
  Result<ExportSummary> s = ExportRawTrace(run.dir());
  ASSERT_TRUE(s.has_value()) << s.error().message();
  EXPECT_TRUE(s->problems.empty()) << s->problems[0];
  Analysis a = AnalyzeFile(s->anchor, 1);
  const std::vector<std::vector<uint64_t>> senders = {{1}, {0, 1}};
  for (uint32_t loc = 0; loc < 2; ++loc) {
    const trace::LocationEvents& ev = a.trace.location(loc);
    std::vector<uint32_t> groups;
    for (uint32_t i = 0; i < ev.size(); ++i) {
      if (ev.kind(i) == trace::EventKind::kMpiCollectiveEnd)
        groups.push_back(trace::CollectiveSenders(a.trace.defs, ev, i));
    }
    ASSERT_EQ(groups.size(), 2u);
    ASSERT_NE(groups[0], trace::kNone);
    EXPECT_EQ(a.trace.defs.groups[groups[0]].members, senders[loc]);
    EXPECT_EQ(groups[1] == trace::kNone, loc == 1);
  }
  // The first exchange: rank 0 waits 2000 ns for rank 1. The second: both enter at 5000.
  EXPECT_NEAR(a.Value("mpi_wait_senders", "main/MPI_Alltoallv", 0), 2000e-9, 1e-15);
  EXPECT_EQ(a.Value("mpi_wait_senders", "main/MPI_Alltoallv", 1), 0.0);
}

// A buffer flush inside MPI_Isend (the recorder stamps the send with the call's Enter, but never
// before the flush that came after it, so the raw send shares the flush's Leave time, 5000): in
// the trace, nothing shares a time with a flush record. Scalasca moves every record stamped at or
// before a flush's Leave behind it, which would put the send inside the flush region, where its
// replay skips it and the matching receive waits for ever (CP2K's traces deadlocked scout.mpi
// so). A flush whose Enter and Leave carry one time keeps them in order too.
//   rank 0: main 1000; MPI_Isend 2000; flush 3000..5000; Isend record 5000 -> 5001; Leave
//           MPI_Isend 5001 (raw 5000) -> 5001; flush 6000..6000 -> Leave 6001; Leave main 6001
//           (raw 6000) -> 6002.
TEST(RawExportTest, NothingSharesATimeWithAFlushRecord) {
  RawRun run("raw-flush-times");
  run.Defs(0, RankDefs(0, 1) + "end 5 0 0 0 ok\n");
  const uint32_t isend = Region(MpiFunction::kMPI_Isend);
  run.Events(0, {Event(1000, RawKind::kEnter, kMain), Event(2000, RawKind::kEnter, isend),
                 Event(3000, RawKind::kEnter, measure::kFlushRegion),
                 Event(5000, RawKind::kLeave, measure::kFlushRegion),
                 Event(5000, RawKind::kIsend, 0, 0, 7, 8, 1), Event(5000, RawKind::kLeave, isend),
                 Event(6000, RawKind::kEnter, measure::kFlushRegion),
                 Event(6000, RawKind::kLeave, measure::kFlushRegion),
                 Event(6000, RawKind::kLeave, kMain)});
  Result<ExportSummary> s = ExportRawTrace(run.dir());
  ASSERT_TRUE(s.has_value()) << s.error().message();
  Analysis a = AnalyzeFile(s->anchor, 1);
  const trace::LocationEvents& ev = a.trace.location(0);
  ASSERT_EQ(ev.size(), 9u);
  const uint64_t origin = ev.time(0);  // the trace's times count from its first event
  std::vector<uint64_t> times;
  for (uint32_t i = 0; i < ev.size(); ++i) times.push_back(ev.time(i) - origin);
  EXPECT_EQ(times, (std::vector<uint64_t>{0, 1000, 2000, 4000, 4001, 4001, 5000, 5001, 5002}));
  EXPECT_EQ(ev.kinds()[4], trace::EventKind::kMpiIsend);
}

// Four ranks that enter OpenSHMEM routines in different orders (rank 0 routine 7 first, the
// others routine 3), a rank with a second thread, and a rank whose definitions are missing.
void WriteFourRanks(RawRun& run) {
  const uint32_t first = measure::kShmemFirstRegion;
  for (int r = 0; r < 3; ++r) {
    const std::string thread = r == 1 ? "thread 1\n" : "";
    run.Defs(r, RankDefs(r, 4) + thread + "end 6 0 0 0 ok\n");
    const uint32_t a = r == 0 ? first + 7 : first + 3;
    const uint32_t b = r == 0 ? first + 3 : first + 7;
    const uint64_t t = 1000 * static_cast<uint64_t>(r + 1);
    run.Events(r, {Event(t, RawKind::kEnter, kMain), Event(t + 100, RawKind::kEnter, a),
                   Event(t + 200, RawKind::kLeave, a), Event(t + 300, RawKind::kEnter, b),
                   Event(t + 400, RawKind::kLeave, b), Event(9000, RawKind::kLeave, kMain)});
  }
  run.ThreadEvents(
      1, 1, {Event(2500, RawKind::kEnter, first + 11), Event(2600, RawKind::kLeave, first + 11)});
  run.Events(3, {Event(1000, RawKind::kEnter, kMain), Event(9000, RawKind::kLeave, kMain)});
}

// The bytes of every file of the exported archive but its anchor (which holds a random trace
// identifier), by path below the run directory.
std::map<std::string, std::string> ArchiveFiles(const std::string& dir) {
  std::map<std::string, std::string> files;
  for (const auto& entry : fs::recursive_directory_iterator(dir)) {
    const std::string relative = fs::relative(entry.path(), dir).string();
    if (!entry.is_regular_file() || relative.rfind("raw", 0) == 0 || relative == "traces.otf2")
      continue;
    std::ifstream in(entry.path(), std::ios::binary);
    files[relative].assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  }
  return files;
}

TEST(RawExportTest, RanksWrittenInParallelGiveTheSameTrace) {
  // The ranks are written on 4 threads at once: the archive is the same, byte for byte, as the
  // one written on one thread, and so is the summary, its problems in rank order.
  RawRun one("raw-one-thread");
  RawRun four("raw-four-threads");
  WriteFourRanks(one);
  WriteFourRanks(four);
  Result<ExportSummary> s1 = ExportRawTrace(one.dir(), 1);
  Result<ExportSummary> s4 = ExportRawTrace(four.dir(), 4);
  ASSERT_TRUE(s1.has_value()) << s1.error().message();
  ASSERT_TRUE(s4.has_value()) << s4.error().message();
  const std::map<std::string, std::string> files = ArchiveFiles(one.dir());
  EXPECT_EQ(files, ArchiveFiles(four.dir()));
  EXPECT_GE(files.size(), 1u + 5u);  // traces.def and an events file per location
  // 3 ranks of 6 events, the thread's 2, rank 3's 2: its definitions are missing, so its
  // events are left out.
  EXPECT_EQ(s1->events, 3u * 6u + 2u);
  EXPECT_EQ(s4->events, s1->events);
  EXPECT_EQ(s4->raw_bytes, s1->raw_bytes);
  // (Each names its own run's directory.)
  const auto in_any_run = [](std::vector<std::string> problems, const std::string& dir) {
    for (std::string& p : problems) p.replace(p.find(dir), dir.size(), "DIR");
    return problems;
  };
  EXPECT_EQ(in_any_run(s4->problems, four.dir()), in_any_run(s1->problems, one.dir()));
  ASSERT_EQ(s1->problems.size(), 1u);
  EXPECT_NE(s1->problems[0].find("rank-3.defs is missing"), std::string::npos) << s1->problems[0];
  // The OpenSHMEM routines' regions are defined in routine order, whichever rank entered which
  // first: 3, 7, 11.
  Analysis a = AnalyzeFile(s4->anchor, 1);
  std::vector<std::string> shmem;
  for (uint32_t region = 0; region < a.trace.defs.regions.size(); ++region) {
    if (a.trace.defs.regions[region].paradigm == trace::Paradigm::kShmem)
      shmem.emplace_back(a.trace.defs.RegionName(region));
  }
  EXPECT_EQ(shmem, (std::vector<std::string>{measure::kShmemFunctions[3].name,
                                             measure::kShmemFunctions[7].name,
                                             measure::kShmemFunctions[11].name}));
}

// The calling-context nodes of a rank's walks, "frame ID PARENT PC" with PC in hex: the lines
// as the tracer writes them (read on a fast path), a 0x prefix and a trailing word (read the
// general way, as before), and damaged lines (id 0, a parent not before its node, a PC that is
// no number), which are reported and left out.
TEST(RawExportTest, FrameDefinitionsAreReadAsWrittenAndDamageIsReported) {
  RawRun run("raw-frames");
  run.Defs(0, RankDefs(0, 1) +
                  "frame 1 0 401a2b\nframe 2 1 7f00deadbeef\nframe 3 2 0x10\nframe 4 3 20 extra\n"
                  "frame 0 0 1\nframe 6 6 1\nframe 7 1 zz\nend 0 0 0 0 ok\n");
  const measure::internal::RankDefs d =
      measure::internal::ReadDefs(measure::RawDefsPath(run.dir(), 0));
  ASSERT_EQ(d.frames.size(), 4u);
  const std::vector<std::pair<uint32_t, uint64_t>> expected = {
      {0, 0x401a2b}, {1, 0x7f00deadbeef}, {2, 0x10}, {3, 0x20}};
  for (size_t i = 0; i < expected.size(); ++i) {
    EXPECT_EQ(d.frames[i].parent, expected[i].first) << i;
    EXPECT_EQ(d.frames[i].pc, expected[i].second) << i;
  }
  ASSERT_EQ(d.problems.size(), 3u);
  EXPECT_NE(d.problems[0].find("\"frame 0 0 1\""), std::string::npos) << d.problems[0];
  EXPECT_NE(d.problems[1].find("\"frame 6 6 1\""), std::string::npos) << d.problems[1];
  EXPECT_NE(d.problems[2].find("\"frame 7 1 zz\""), std::string::npos) << d.problems[2];
}

TEST(RawExportTest, MissingOrDamagedRunIsAnError) {
  RawRun empty("raw-empty");
  Result<ExportSummary> none = ExportRawTrace(empty.dir());
  ASSERT_FALSE(none.has_value());
  EXPECT_EQ(none.error().code(), ErrorCode::kNotFound);
  RawRun damaged("raw-no-size");
  damaged.Defs(0, "rank zero\n");
  Result<ExportSummary> bad = ExportRawTrace(damaged.dir());
  ASSERT_FALSE(bad.has_value());
  EXPECT_EQ(bad.error().code(), ErrorCode::kCorrupt);
}

}  // namespace
}  // namespace cw::test
