// The automatic bottleneck analysis (analysis/advice/) on hand-built traces, one tick per
// second: each filter, each pattern of cause analysis, with the expected numbers derived
// beside them (Su 2010's worked examples: the barrier whose late entrants are processes 8 and
// 15, the lock wait ended by an unlock at 4).
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "analysis/advice/hints.h"
#include "match/matcher.h"
#include "otf2/trace_reader.h"
#include "report/json_writer.h"
#include "report/text_summary.h"
#include "testing/temp_dir.h"
#include "tests/advice/advice_fixture.h"
#include "tests/common/analysis_fixture.h"

namespace cw::analysis {
namespace {

using test::Analysis;
using test::LateSecondSend;
using testing::Scenario;

// test::LateSecondSend: rank 1's receives last 2, 8 and 1 s: mean 11/3, max/mean = 8 / (11/3)
// = 2.18 > 2, so the deviation filter finds main/MPI_Recv; its one instance above the mean
// (3..11) waited 10 - 3 = 7 s for the send entered at 10: a Late Sender. The sends (1 s each)
// do not deviate; a, b, c and main have one instance per process.
TEST(AdviceTest, TheDeviationFilterFindsALateSender) {
  Analysis a = AdviseOn(LateSecondSend());
  ASSERT_TRUE(a.result.advice.has_value());
  const Advice& advice = *a.result.advice;
  EXPECT_EQ(advice.total_time, 80u);  // two locations of 40 s
  // Past the 1 % hotspot filter (0.8 s): main (exclusive 27 + 29 s), MPI_Recv (11), b (8),
  // MPI_Send (3), a (1) and c (1).
  EXPECT_EQ(advice.candidates, 6u);
  // Its root cause: b runs on rank 0 only (8 s; mean over the two processes 4, max - mean 4 s
  // > 0.8 s, max/mean - 1 = 1 > 0.25), an imbalanced call path of the process the receive
  // waited for: folded into the Late Sender, not a finding of its own.
  EXPECT_EQ(Patterns(a), (std::vector<std::string>{"late_sender at main/MPI_Recv on 1"}))
      << Describe(a);
  const AdviceFinding& f = advice.findings[0];
  ASSERT_EQ(f.root_causes.size(), 1u);
  EXPECT_EQ(f.root_causes[0].callpath, a.Callpath("main/b"));
  EXPECT_EQ(f.root_causes[0].location, 0u);
  EXPECT_EQ(f.root_causes[0].time, 8u);
  EXPECT_NEAR(f.root_causes[0].mean, 4, kAdviceEps);
  EXPECT_EQ(f.pattern, AdvicePattern::kLateSender);
  EXPECT_EQ(f.callpath, a.Callpath("main/MPI_Recv"));
  EXPECT_EQ(f.type, GenericType::kReceive);
  EXPECT_EQ(f.filter, DetectionFilter::kDeviation);
  EXPECT_EQ(f.locations, std::vector<uint32_t>{1});
  EXPECT_EQ(f.time, 11u);
  EXPECT_EQ(f.bottleneck_time, 8u);
  EXPECT_NEAR(f.mean, 11.0 / 3, kAdviceEps);
  EXPECT_EQ(f.min, 1u);
  EXPECT_EQ(f.max, 8u);
  EXPECT_FALSE(f.expected.has_value());
  EXPECT_EQ(f.instances, 3u);
  EXPECT_EQ(f.bottleneck_instances, 1u);
  EXPECT_EQ(f.pattern_counts[static_cast<size_t>(AdvicePattern::kLateSender)], 1u);
  ASSERT_EQ(f.causes.size(), 1u);
  EXPECT_EQ(f.causes[0].location, 0u);
  EXPECT_EQ(f.causes[0].callpath, a.Callpath("main/MPI_Send"));
  EXPECT_EQ(f.causes[0].time, 7u);
  EXPECT_EQ(f.causes[0].instances, 1u);
  EXPECT_EQ(f.causes[0].first, 10u);
  EXPECT_NEAR(ExcessTime(f), 8 - 11.0 / 3, kAdviceEps);
  EXPECT_FALSE(f.hints.empty());
}

// Two processes of two threads each (the scenario's locations 2 and 3 are put into the
// processes of ranks 0 and 1): the master threads run `init`, rank 0 for `init0` s and rank 1
// for 6 s, then `solve` (0..10 in all); the second threads compute in `work` for 10 s. `init`
// is compared among the master threads only: with 4 and 6 s its mean is 5 s (6 / 5 - 1 = 0.2,
// under the 0.25 imbalance bound: no finding); divided among all four locations it would be
// 2.5 s, a false imbalance. With 2 and 6 s the mean is 4 s (0.5): an imbalance, mean 4.
TEST(AdviceTest, ACallPathsMeanIsOverTheLocationsThatCouldHaveRunIt) {
  auto scenario = [](uint64_t init0) {
    Scenario s(4);
    s.set_location_group(2, 0);
    s.set_location_group(3, 1);
    s.rank(0).Enter(0, "main").Call(0, init0, "init").Call(init0, 10, "solve").Leave(10, "main");
    s.rank(1).Enter(0, "main").Call(0, 6, "init").Call(6, 10, "solve").Leave(10, "main");
    for (int r : {2, 3}) s.rank(r).Call(0, 10, "work");
    return s;
  };
  Analysis balanced = AdviseOn(scenario(4));
  for (const std::string& line : Patterns(balanced))
    EXPECT_EQ(line.find("at main/init"), std::string::npos) << Describe(balanced);
  Analysis imbalanced = AdviseOn(scenario(2));
  const AdviceFinding& f = Finding(imbalanced, AdvicePattern::kImbalancedCallpath, "main/init");
  EXPECT_DOUBLE_EQ(f.mean, 4.0);
  EXPECT_EQ(f.locations.front(), 1u);
}

TEST(AdviceTest, TheHotspotFilterComesFirst) {
  // At 20 % (16 s of 80) only main is a candidate: MPI_Recv's 11 s are 13.75 %.
  AdviceParameters p;
  p.hotspot_share = 0.2;
  Analysis a = AdviseOn(LateSecondSend(), nullptr, p);
  EXPECT_EQ(a.result.advice->candidates, 1u);
  // b's imbalance (4 s over the mean) is not above 20 % of all time either.
  EXPECT_TRUE(a.result.advice->findings.empty()) << Describe(a);
  // A stricter deviation bound (max/mean above 2.5) lets MPI_Recv pass the deviation filter at
  // 1 % too, unless the low bound (min/mean = 1 / (11/3) = 0.27) catches it. Its 8 s of Late
  // Sender (1 s in the first receive, 0..2, for the send entered at 1; 7 s in the second) find
  // it anyway, by its wait states (over 0.8 s, 1 % of all time): an instance takes (11 - 8) / 3
  // = 1 s without them, the 2 s and 8 s ones are longer, 10 - 2 x 1 = 8 s beyond. Both waited:
  // late_sender, with b (rank 0's imbalance) as its root cause.
  p.hotspot_share = 0.01;
  p.deviation_high = 2.5;
  p.deviation_low = 0.25;
  Analysis waiting = AdviseOn(LateSecondSend(), nullptr, p);
  EXPECT_EQ(Patterns(waiting), std::vector<std::string>{"late_sender at main/MPI_Recv on 1"})
      << Describe(waiting);
  const AdviceFinding& f = Finding(waiting, AdvicePattern::kLateSender, "main/MPI_Recv");
  EXPECT_EQ(f.filter, DetectionFilter::kWaiting);
  EXPECT_NEAR(*f.expected, 1, kAdviceEps);
  EXPECT_EQ(f.bottleneck_instances, 2u);
  EXPECT_NEAR(ExcessTime(f), 8, kAdviceEps);
  ASSERT_EQ(f.root_causes.size(), 1u);
  EXPECT_EQ(f.root_causes[0].callpath, waiting.Callpath("main/b"));
  p.deviation_low = 0.3;
  Analysis deviating = AdviseOn(LateSecondSend(), nullptr, p);
  EXPECT_EQ(Patterns(deviating), std::vector<std::string>{"late_sender at main/MPI_Recv on 1"});
  EXPECT_EQ(deviating.result.advice->findings[0].filter, DetectionFilter::kDeviation);
}

// Su 2010's barrier: 16 processes work 1 s and enter MPI_Barrier at 1, except process 8 (at
// 6) and process 15 (at 9); all leave at 10. The barrier lasts 9 s on 14 processes, 4 on
// process 8 and 1 on process 15: mean 131/16 = 8.1875, min/mean = 0.12 < 0.5. The 14 instances
// above the mean waited for processes 8 (entered 5 s after them) and 15 (8 s after).
TEST(AdviceTest, ABarrierWaitsForItsLateEntrants) {
  Scenario s(16);
  for (int r = 0; r < 16; ++r) {
    const uint64_t work = r == 8 ? 6 : r == 15 ? 9 : 1;
    s.rank(r)
        .Enter(0, "main")
        .Call(0, work, "work")
        .Collective(work, 10, "MPI_Barrier", OTF2_COLLECTIVE_OP_BARRIER, 0, 0)
        .Leave(20, "main");
  }
  Analysis a = AdviseOn(s);
  // Also: nobody communicated before the barrier, so it is redundant (its 131 s are the excess:
  // removed, it takes none). work is imbalanced (29 s over 16 processes, mean 1.8125, max 9 on
  // process 15: 7.19 s over the mean > 3.2 s, 1 % of 320), and process 15 is a cause of the
  // wait: its root cause. By excess: 131, 11.375.
  EXPECT_EQ(Patterns(a),
            (std::vector<std::string>{
                "redundant_barrier at main/MPI_Barrier on 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15",
                "wait_on_group at main/MPI_Barrier on 0 1 2 3 4 5 6 7 9 10 11 12 13 14"}))
      << Describe(a);
  const AdviceFinding& f = Finding(a, AdvicePattern::kWaitOnGroup, "main/MPI_Barrier");
  ASSERT_EQ(f.root_causes.size(), 1u);
  EXPECT_EQ(f.root_causes[0].callpath, a.Callpath("main/work"));
  EXPECT_EQ(f.root_causes[0].location, 15u);
  EXPECT_EQ(f.callpath, a.Callpath("main/MPI_Barrier"));
  EXPECT_EQ(f.type, GenericType::kGroupSync);
  EXPECT_EQ(f.locations, (std::vector<uint32_t>{0, 1, 2, 3, 4, 5, 6, 7, 9, 10, 11, 12, 13, 14}));
  EXPECT_EQ(f.time, 131u);
  EXPECT_EQ(f.bottleneck_instances, 14u);
  EXPECT_EQ(f.bottleneck_time, 14u * 9);
  EXPECT_EQ(f.pattern_counts[static_cast<size_t>(AdvicePattern::kWaitOnGroup)], 14u);
  ASSERT_EQ(f.causes.size(), 2u);
  EXPECT_EQ(f.causes[0].location, 15u);
  EXPECT_EQ(f.causes[0].time, 14u * 8);
  EXPECT_EQ(f.causes[0].instances, 14u);
  EXPECT_EQ(f.causes[0].first, 9u);
  EXPECT_EQ(f.causes[1].location, 8u);
  EXPECT_EQ(f.causes[1].time, 14u * 5);
  EXPECT_EQ(f.causes[1].first, 6u);
  EXPECT_EQ(f.causes[1].callpath, a.Callpath("main/MPI_Barrier"));
  EXPECT_NEAR(ExcessTime(f), 126 - 14 * 8.1875, kAdviceEps);
}

// Su 2010's lock: rank 0 holds an exclusive lock on rank 2's window from 1 and unlocks at 4;
// rank 1 asks at 2 and gets it at 5. With a baseline of 0.5 s for MPI_Win_lock on 3 processes,
// the mean instance (1 and 3 s: 2) is 4 times the baseline: a bottleneck by the baseline
// filter, whose bound 2 x 0.5 = 1 leaves rank 0's instance out. Rank 1's waited 4 - 2 = 2 s for
// rank 0's MPI_Win_unlock.
TEST(AdviceTest, TheBaselineFilterFindsAWaitForALock) {
  Scenario s(3);
  const uint32_t win = s.AddWindow(0);
  s.rank(0)
      .Enter(0, "main")
      .RmaLock(0, 1, "MPI_Win_lock", win, 2, 1, true)
      .Call(1, 4, "crit")
      .RmaUnlock(4, 5, "MPI_Win_unlock", win, 2, 1)
      .Leave(10, "main");
  s.rank(1)
      .Enter(0, "main")
      .RmaLock(2, 5, "MPI_Win_lock", win, 2, 1, true)
      .RmaUnlock(5, 6, "MPI_Win_unlock", win, 2, 1)
      .Leave(10, "main");
  s.rank(2).Enter(0, "main").Leave(10, "main");
  const Baselines baselines = ParseOrDie("MPI_Win_lock 3 0 0.5\n");
  Analysis a = AdviseOn(s, &baselines);
  EXPECT_EQ(a.result.advice->baselines, "baselines.txt");
  // Also imbalanced call paths: main's exclusive time is 5, 6 and 10 s (mean 7; 3 s over it,
  // 43 %); crit runs on rank 0 only (3 s, mean 1), the holder rank 1 waited for: the wait's root
  // cause. By excess: 3, 3 - 0.5.
  EXPECT_EQ(Patterns(a), (std::vector<std::string>{"imbalanced_callpath at main on 2",
                                                   "wait_on_lock at main/MPI_Win_lock on 1"}))
      << Describe(a);
  const AdviceFinding& f = Finding(a, AdvicePattern::kWaitOnLock, "main/MPI_Win_lock");
  ASSERT_EQ(f.root_causes.size(), 1u);
  EXPECT_EQ(f.root_causes[0].callpath, a.Callpath("main/crit"));
  EXPECT_EQ(f.callpath, a.Callpath("main/MPI_Win_lock"));
  EXPECT_EQ(f.filter, DetectionFilter::kBaseline);
  ASSERT_TRUE(f.expected.has_value());
  EXPECT_NEAR(*f.expected, 0.5, kAdviceEps);
  EXPECT_EQ(f.locations, std::vector<uint32_t>{1});
  EXPECT_EQ(f.bottleneck_instances, 1u);
  ASSERT_EQ(f.causes.size(), 1u);
  EXPECT_EQ(f.causes[0].location, 0u);
  EXPECT_EQ(f.causes[0].callpath, a.Callpath("main/MPI_Win_unlock"));
  EXPECT_EQ(f.causes[0].time, 2u);
  EXPECT_EQ(f.causes[0].first, 4u);
  EXPECT_NEAR(ExcessTime(f), 3 - 0.5, kAdviceEps);
}

// Su 2010's FT example: the upc_barrier at line 1943 averaged 78.71 ms against an expected 2 ms
// on 16 PEs. Here (10 us ticks) processes 0..14 enter MPI_Barrier at 0 and process 15, which
// computed 83.84 ms first, at 8384; all leave at 8395 (83.95 ms): the mean instance is
// (15 x 83.95 + 0.11) / 16 = 78.71 ms. With a baseline of 2 ms on 16 processes, 78.71 / 2 =
// 39.4 > 2: a bottleneck by the baseline filter, whose bound max(2 x 2, 0.5 x 78.71) ms leaves
// process 15's instance out. The other 15 waited 83.84 ms each for process 15 (more than half of
// their 83.95 ms): Wait on group, 15 x 83.95 - 15 x 2 = 1229.25 ms beyond the baseline; process
// 15's computation in main (99.89 ms against a mean of 21.3 ms) is its root cause.
TEST(AdviceTest, SeedsBarrierOf78MsAgainstABaselineOf2Ms) {
  Scenario s(16, 100000);
  for (int r = 0; r < 16; ++r) {
    const uint64_t entered = r == 15 ? 8384 : 0;
    s.rank(r)
        .Enter(0, "main")
        .Collective(entered, 8395, "MPI_Barrier", OTF2_COLLECTIVE_OP_BARRIER, 0, 0)
        .Leave(10000, "main");
  }
  const Baselines baselines = ParseOrDie("MPI_Barrier 16 0 0.002\n");
  Analysis a = AdviseOn(s, &baselines);
  // (Nobody communicates before it here, unlike FT's memgets: the barrier is also redundant.)
  EXPECT_EQ(Patterns(a),
            (std::vector<std::string>{
                "redundant_barrier at main/MPI_Barrier on 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15",
                "wait_on_group at main/MPI_Barrier on 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14"}))
      << Describe(a);
  const AdviceFinding& f = Finding(a, AdvicePattern::kWaitOnGroup, "main/MPI_Barrier");
  EXPECT_EQ(f.filter, DetectionFilter::kBaseline);
  EXPECT_NEAR(*f.expected, 200, kAdviceEps);  // ticks: 2 ms
  EXPECT_NEAR(f.mean, 7871, kAdviceEps);      // 78.71 ms
  EXPECT_EQ(f.bottleneck_instances, 15u);
  ASSERT_EQ(f.causes.size(), 1u);
  EXPECT_EQ(f.causes[0].location, 15u);
  EXPECT_EQ(f.causes[0].time, 15u * 8384);
  EXPECT_NEAR(ExcessTime(f), 15 * 8395 - 15 * 200, kAdviceEps);
  ASSERT_EQ(f.root_causes.size(), 1u);
  EXPECT_EQ(f.root_causes[0].callpath, a.Callpath("main"));
  EXPECT_EQ(f.root_causes[0].location, 15u);
  EXPECT_EQ(f.root_causes[0].time, 10000u - 11);
}

// A Late Receiver: rank 0's MPI_Ssend lasts 1..7, rank 1 computes in `work` until 5 and
// receives 5..7. With a baseline of 0.5 s for MPI_Ssend on 2 processes, its 6 s instance (mean 6
// > 2 x 0.5) is a bottleneck (bound max(1, 3)); the wait-state analysis charged it 5 - 1 = 4 s
// for rank 1's MPI_Recv (at least half of the call): late_receiver. `work` runs on rank 1 only
// (5 s against a mean of 2.5 over the two processes): the imbalance behind the wait, its root
// cause.
// The scheduler behind a wait: test::LateSecondSend's Late Sender at main/MPI_Recv on rank 1 is
// caused by rank 0 (its send entered at 10). Where rank 0's samples measured 10 s of its
// computation and found 3 s of it descheduled (30 %, above trace::kContendedShare's 10 %), the
// finding's first hint says that part of the waiting is the scheduler's; at 0.5 s (5 %), or
// with rank 1 descheduled instead (not the cause), it says nothing of the kind.
TEST(AdviceTest, AWaitForADescheduledProcessSaysSoFirst) {
  struct Case {
    uint32_t rank;
    int64_t descheduled_ms;
    bool hinted;
  };
  for (const Case c : {Case{0, 3000, true}, Case{0, 500, false}, Case{1, 3000, false}}) {
    SCOPED_TRACE(std::to_string(c.rank) + " " + std::to_string(c.descheduled_ms));
    Result<trace::Trace> read =
        otf2::ReadTrace(LateSecondSend().WriteOrDie(testing::MakeTempDir("descheduled")), {});
    ASSERT_TRUE(read.has_value());
    trace::Trace trace = std::move(*read);
    for (uint32_t r = 0; r < 2; ++r) {
      trace::Definitions::RankSchedule s;
      s.rank = r;
      s.host = "node";
      s.cpus_allowed = s.cpus_online = 2;
      s.computation_measured_ns = 10'000'000'000;
      s.computation_descheduled_ns = r == c.rank ? c.descheduled_ms * 1'000'000 : 0;
      trace.defs.rank_schedules.push_back(s);
    }
    const match::SyncGraph graph = match::MatchTrace(trace, 2);
    AnalysisOptions options;
    options.advice = true;
    const AnalysisResult result = AnalyzeTrace(trace, graph, options);
    ASSERT_TRUE(result.advice.has_value());
    ASSERT_EQ(result.advice->findings.size(), 1u);
    const AdviceFinding& f = result.advice->findings[0];
    ASSERT_EQ(f.pattern, AdvicePattern::kLateSender);
    ASSERT_FALSE(f.hints.empty());
    const std::string told =
        "rank 0, which it waited for most, was descheduled 30 % of its computation: part of the "
        "waiting is the scheduler's; measure again with at most one process or thread per CPU "
        "(and pinned) before changing the program";
    if (c.hinted) {
      EXPECT_EQ(f.hints[0], told);
    } else {
      for (const std::string& h : f.hints) EXPECT_EQ(h.find("descheduled"), std::string::npos) << h;
    }
  }
}

TEST(AdviceTest, ASendWaitingForItsReceiveIsALateReceiver) {
  Scenario s(2);
  s.rank(0).Enter(0, "main").Send(1, 7, 1, 0, 8, "MPI_Ssend").Leave(10, "main");
  s.rank(1).Enter(0, "main").Call(0, 5, "work").Recv(5, 7, 0, 0, 8).Leave(10, "main");
  const Baselines baselines = ParseOrDie("MPI_Ssend 2 8 0.5\n");
  Analysis a = AdviseOn(s, &baselines);
  EXPECT_EQ(Patterns(a), (std::vector<std::string>{"late_receiver at main/MPI_Ssend on 0"}))
      << Describe(a);
  const AdviceFinding& f = Finding(a, AdvicePattern::kLateReceiver, "main/MPI_Ssend");
  EXPECT_EQ(f.filter, DetectionFilter::kBaseline);
  ASSERT_EQ(f.causes.size(), 1u);
  EXPECT_EQ(f.causes[0].location, 1u);
  EXPECT_EQ(f.causes[0].callpath, a.Callpath("main/MPI_Recv"));
  EXPECT_EQ(f.causes[0].time, 4u);
  EXPECT_EQ(f.causes[0].first, 5u);
  ASSERT_EQ(f.root_causes.size(), 1u);
  EXPECT_EQ(f.root_causes[0].callpath, a.Callpath("main/work"));
  EXPECT_EQ(f.root_causes[0].location, 1u);
}

// Wait on value, as in tests/waitstates/shmem_patterns_test.cc: PE 1 waits in
// shmem_int_wait_until from 2 to 9 for the value PE 2 puts at 6 (PE 0's put at 0..1 came before
// the wait). With a baseline of 0.5 s on 3 processes, the 7 s wait is a bottleneck (bound
// max(1, 3.5)); the analysis charged it 6 - 2 = 4 s for PE 2's shmem_int_put: wait_on_value.
TEST(AdviceTest, AWaitForAValueWaitsForTheWriteThatEndedIt) {
  Scenario s(3);
  const uint32_t heap = s.AddShmemWindow({0, 1, 2});
  s.rank(0).Enter(0, "main").ShmemPut(0, 1, "shmem_int_p", heap, 1, 4, 1).Leave(20, "main");
  s.rank(1).Enter(0, "main").ShmemWaitUntil(2, 9, heap).Leave(20, "main");
  s.rank(2).Enter(0, "main").ShmemPut(6, 7, "shmem_int_put", heap, 1, 4, 1).Leave(20, "main");
  const Baselines baselines = ParseOrDie("shmem_int_wait_until 3 0 0.5\n");
  Analysis a = AdviseOn(s, &baselines);
  const AdviceFinding& f = Finding(a, AdvicePattern::kWaitOnValue, "main/shmem_int_wait_until");
  EXPECT_EQ(f.type, GenericType::kWaitOnValue);
  EXPECT_EQ(f.filter, DetectionFilter::kBaseline);
  EXPECT_EQ(f.locations, std::vector<uint32_t>{1});
  ASSERT_EQ(f.causes.size(), 1u);
  EXPECT_EQ(f.causes[0].location, 2u);
  EXPECT_EQ(f.causes[0].callpath, a.Callpath("main/shmem_int_put"));
  EXPECT_EQ(f.causes[0].time, 4u);
}

// Both ranks enter MPI_Allreduce together (0..5 and 10..15), 8 bytes sent and 8 received: no
// member waited for another, yet each took 5 s. Baselines on 2 processes of 0.1 s at 0 bytes
// and 0.9 s at 64: at 16 bytes, 0.1 + 0.8 x 16/64 = 0.3 s; 5 / 0.3 > 2, and all four instances
// exceed the bound 0.6: the operation itself was slow.
TEST(AdviceTest, ACollectiveSlowerThanItsBaselineHasNoRemoteCause) {
  Scenario s(2);
  for (int r = 0; r < 2; ++r) {
    s.rank(r)
        .Enter(0, "main")
        .Collective(0, 5, "MPI_Allreduce", OTF2_COLLECTIVE_OP_ALLREDUCE, 8, 8)
        .Collective(10, 15, "MPI_Allreduce", OTF2_COLLECTIVE_OP_ALLREDUCE, 8, 8)
        .Leave(20, "main");
  }
  const Baselines baselines = ParseOrDie(
      "# construct processes bytes seconds\nMPI_Allreduce 2 0 0.1\n"
      "MPI_Allreduce 2 64 0.9\nMPI_Allreduce 4 0 7\n");
  Analysis a = AdviseOn(s, &baselines);
  ASSERT_EQ(a.result.advice->findings.size(), 1u) << Describe(a);
  const AdviceFinding& f = a.result.advice->findings[0];
  EXPECT_EQ(f.pattern, AdvicePattern::kNoRemoteCause);
  EXPECT_EQ(f.filter, DetectionFilter::kBaseline);
  EXPECT_NEAR(*f.expected, 0.3, kAdviceEps);
  EXPECT_EQ(f.bottleneck_instances, 4u);
  EXPECT_EQ(f.pattern_counts[static_cast<size_t>(AdvicePattern::kNoRemoteCause)], 4u);
  EXPECT_TRUE(f.causes.empty());
  EXPECT_NEAR(ExcessTime(f), 20 - 4 * 0.3, kAdviceEps);
  // Without baselines the instances do not deviate: nothing is found.
  EXPECT_TRUE(AdviseOn(s).result.advice->findings.empty());
}

// A member late by less than half of a slow collective does not explain it. Rank 1 enters the
// allreduce at 1 and 12, rank 0 at 0 and 10; both leave at 5 and 15. With the baselines above
// (0.3 s at 16 bytes; the mean (5 + 4 + 5 + 3) / 4 = 4.25 s is 14 times that) every instance
// exceeds max(2 x 0.3, 0.5 x 4.25 = 2.125). Rank 0's first instance (0..5) had rank 1 enter 1 s
// after it, and 2 x 1 < 5: the operation itself was slow. Its second (10..15) had rank 1 enter
// 2 s after it, 2 x 2 < 5 again. With rank 1's second entry at 13 instead, the mean is
// (5 + 4 + 5 + 2) / 4 = 4 and rank 1's 2 s instance is no longer above 0.5 x 4; rank 0's second
// is a group wait (2 x 3 >= 5) caused by rank 1, 3 s.
TEST(AdviceTest, AMemberLateByLessThanHalfOfACollectiveIsNoCause) {
  auto scenario = [](uint64_t second_entry) {
    Scenario s(2);
    for (int r = 0; r < 2; ++r) {
      s.rank(r)
          .Enter(0, "main")
          .Collective(r == 0 ? 0 : 1, 5, "MPI_Allreduce", OTF2_COLLECTIVE_OP_ALLREDUCE, 8, 8)
          .Collective(r == 0 ? 10 : second_entry, 15, "MPI_Allreduce", OTF2_COLLECTIVE_OP_ALLREDUCE,
                      8, 8)
          .Leave(20, "main");
    }
    return s;
  };
  const Baselines baselines = ParseOrDie("MPI_Allreduce 2 0 0.1\nMPI_Allreduce 2 64 0.9\n");
  Analysis a = AdviseOn(scenario(12), &baselines);
  ASSERT_EQ(a.result.advice->findings.size(), 1u) << Describe(a);
  const AdviceFinding& slow = a.result.advice->findings[0];
  EXPECT_EQ(slow.pattern, AdvicePattern::kNoRemoteCause);
  EXPECT_EQ(slow.bottleneck_instances, 4u);
  EXPECT_EQ(slow.pattern_counts[static_cast<size_t>(AdvicePattern::kNoRemoteCause)], 4u);
  EXPECT_TRUE(slow.causes.empty());

  Analysis b = AdviseOn(scenario(13), &baselines);
  ASSERT_EQ(b.result.advice->findings.size(), 1u) << Describe(b);
  const AdviceFinding& mixed = b.result.advice->findings[0];
  EXPECT_EQ(mixed.bottleneck_instances, 3u);
  EXPECT_EQ(mixed.pattern_counts[static_cast<size_t>(AdvicePattern::kWaitOnGroup)], 1u);
  EXPECT_EQ(mixed.pattern_counts[static_cast<size_t>(AdvicePattern::kNoRemoteCause)], 2u);
  ASSERT_EQ(mixed.causes.size(), 1u);
  EXPECT_EQ(mixed.causes[0].location, 1u);
  EXPECT_EQ(mixed.causes[0].time, 3u);
  // The wait's instance took 5 s, the other two 5 + 4: no_remote_cause leads.
  EXPECT_EQ(mixed.pattern, AdvicePattern::kNoRemoteCause);
}

// Ranks 1 and 2 put into rank 0's window: rank 1's MPI_Put lasts 1..6, rank 2's 2..3 and 4..5
// (puts of 5, 1 and 1 s: mean 7/3, max/mean = 2.14). Rank 1's overlapped both of rank 2's
// transfers to the same target, issued at 2 and 4: they competed for 6 - 2 + 6 - 4 = 6 s.
TEST(AdviceTest, OverlappingTransfersToOneTargetCompete) {
  Analysis a = AdviseOn(test::CompetingPuts(10));
  // Also: main's exclusive time is 10, 5 and 8 s (mean 23/3; 2.33 s over it, 30 %).
  EXPECT_EQ(Patterns(a), (std::vector<std::string>{"competing_transfer at main/MPI_Put on 1",
                                                   "imbalanced_callpath at main on 0"}))
      << Describe(a);
  const AdviceFinding& f = Finding(a, AdvicePattern::kCompetingTransfer, "main/MPI_Put");
  EXPECT_EQ(f.callpath, a.Callpath("main/MPI_Put"));
  EXPECT_EQ(f.type, GenericType::kPut);
  EXPECT_EQ(f.locations, std::vector<uint32_t>{1});
  ASSERT_EQ(f.causes.size(), 1u);
  EXPECT_EQ(f.causes[0].location, 2u);
  EXPECT_EQ(f.causes[0].time, 6u);
  EXPECT_EQ(f.causes[0].instances, 1u);
  EXPECT_EQ(f.causes[0].first, 2u);
}

TEST(AdviceTest, AUserFunctionDeviatesWithinAProcessOnly) {
  // Rank 0 calls step three times for 1, 1 and 7 s (mean 3, max/mean 2.33): a bottleneck with
  // no remote cause. Rank 1 calls it three times for 4 s: across processes the instances
  // differ (1 to 7), but within rank 1 they do not, and rank 1 has no bottleneck instance.
  Scenario s(2);
  s.rank(0)
      .Enter(0, "main")
      .Call(0, 1, "step")
      .Call(1, 2, "step")
      .Call(2, 9, "step")
      .Leave(20, "main");
  s.rank(1)
      .Enter(0, "main")
      .Call(0, 4, "step")
      .Call(4, 8, "step")
      .Call(8, 12, "step")
      .Leave(20, "main");
  Analysis a = AdviseOn(s);
  ASSERT_EQ(a.result.advice->findings.size(), 1u) << Describe(a);
  const AdviceFinding& f = a.result.advice->findings[0];
  EXPECT_EQ(f.pattern, AdvicePattern::kNoRemoteCause);
  EXPECT_EQ(f.type, GenericType::kLocal);
  // Over both processes the mean is 21/6 = 3.5: rank 0's 7 s and rank 1's three 4 s lie above.
  EXPECT_EQ(f.locations, (std::vector<uint32_t>{0, 1}));
  EXPECT_EQ(f.bottleneck_instances, 4u);
}

TEST(AdviceTest, FindingsAreTheSameOnAnyThreadCount) {
  Scenario s = LateSecondSend();
  const std::string one = report::ToJson(AdviseOn(s, nullptr, {}, 1).report);
  for (unsigned threads : {2u, 4u}) {
    Analysis a = AdviseOn(s, nullptr, {}, threads);
    EXPECT_EQ(nlohmann::json::parse(report::ToJson(a.report))["advice"],
              nlohmann::json::parse(one)["advice"])
        << threads << " threads";
  }
}

// Rank 1's receives take 6, 4, 1, 1, 1 and 1 s (mean 14/6 = 2.33 s, max/mean 2.57 > 2: the
// deviation filter). The 6 s one (0..6) had its send entered at 0: slow with no remote cause;
// the 4 s one (7..11) waited 3 s for the send entered at 10: a Late Sender. By count a tie, by
// time no_remote_cause (6 s against 4 s) is the finding's pattern, and the report shows the split.
TEST(AdviceTest, AFindingsPatternHoldsMostOfItsTimeAndTheReportShowsTheSplit) {
  Scenario s(2);
  testing::RankScript& r0 = s.rank(0).Enter(0, "main").Send(0, 1, 1, 0, 8).Send(10, 11, 1, 0, 8);
  testing::RankScript& r1 = s.rank(1).Enter(0, "main").Recv(0, 6, 0, 0, 8).Recv(7, 11, 0, 0, 8);
  for (uint64_t k = 0; k < 4; ++k) {
    r0.Send(12 + 2 * k, 13 + 2 * k, 1, 0, 8);
    r1.Recv(12 + 2 * k, 13 + 2 * k, 0, 0, 8);
  }
  r0.Leave(30, "main");
  r1.Leave(30, "main");
  Analysis a = AdviseOn(s);
  const AdviceFinding& f = Finding(a, AdvicePattern::kNoRemoteCause, "main/MPI_Recv");
  EXPECT_EQ(f.filter, DetectionFilter::kDeviation);
  EXPECT_EQ(f.pattern_counts[static_cast<size_t>(AdvicePattern::kLateSender)], 1u);
  EXPECT_EQ(f.pattern_counts[static_cast<size_t>(AdvicePattern::kNoRemoteCause)], 1u);
  EXPECT_EQ(f.pattern_time[static_cast<size_t>(AdvicePattern::kLateSender)], 4u);
  EXPECT_EQ(f.pattern_time[static_cast<size_t>(AdvicePattern::kNoRemoteCause)], 6u);
  const nlohmann::json j = nlohmann::json::parse(report::ToJson(a.report));
  bool found = false;
  for (const nlohmann::json& finding : j.at("advice").at("findings")) {
    if (finding.at("pattern") != "no_remote_cause") continue;
    found = true;
    EXPECT_EQ(finding.at("pattern_time"),
              nlohmann::json({{"late_sender", 4.0}, {"no_remote_cause", 6.0}}));
  }
  EXPECT_TRUE(found);
  const std::string text = report::ToSummaryText(a.report);
  EXPECT_NE(text.find("    split: late_sender 4.00 s, no_remote_cause 6.00 s\n"), std::string::npos)
      << text;
}

TEST(AdviceTest, TheReportsCarryTheFindings) {
  Analysis a = AdviseOn(LateSecondSend());
  const nlohmann::json j = nlohmann::json::parse(report::ToJson(a.report));
  const nlohmann::json& advice = j.at("advice");
  EXPECT_EQ(advice.at("parameters").at("hotspot_share"), 0.01);
  EXPECT_EQ(advice.at("parameters").at("deviation_high"), 2.0);
  EXPECT_TRUE(advice.at("baselines").is_null());
  ASSERT_EQ(advice.at("findings").size(), 1u);
  EXPECT_EQ(advice.at("load_balance").at("processes").size(), 2u);
  const nlohmann::json& f = advice.at("findings")[0];
  EXPECT_EQ(f.at("pattern"), "late_sender");
  EXPECT_EQ(f.at("callpath"), a.Callpath("main/MPI_Recv"));
  EXPECT_EQ(f.at("locations"), nlohmann::json::array({1}));
  EXPECT_EQ(f.at("filter"), "deviation");
  EXPECT_EQ(f.at("time"), 11.0);
  EXPECT_TRUE(f.at("expected").is_null());
  EXPECT_EQ(f.at("pattern_counts").at("late_sender"), 1);
  EXPECT_EQ(f.at("causes")[0].at("location"), 0);
  EXPECT_EQ(f.at("causes")[0].at("time"), 7.0);
  EXPECT_EQ(f.at("root_causes")[0].at("callpath"), a.Callpath("main/b"));
  EXPECT_EQ(f.at("root_causes")[0].at("time"), 8.0);
  EXPECT_EQ(f.at("imbalanced_blocks"), 0);
  EXPECT_TRUE(f.at("predicted_saving").is_null());
  EXPECT_FALSE(f.at("hints").empty());
  const std::string text = report::ToSummaryText(a.report);
  EXPECT_NE(text.find("Bottlenecks and what to do"), std::string::npos) << text;
  EXPECT_NE(text.find("main/MPI_Recv on rank 1"), std::string::npos) << text;
  // Without --advice the report says nothing of it.
  EXPECT_TRUE(nlohmann::json::parse(report::ToJson(test::AnalyzeScenario(LateSecondSend()).report))
                  .at("advice")
                  .is_null());
}

}  // namespace
}  // namespace cw::analysis
