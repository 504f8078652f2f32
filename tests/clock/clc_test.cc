// The controlled logical clock (`--time-correct`) on traces with injected clock-condition
// violations: Haus 2024's test cases §4.2.2 and §4.2.3, and a ring with one rank's clock behind.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "clock/clock_condition.h"
#include "clock/controlled_logical_clock.h"
#include "match/matcher.h"
#include "otf2/trace_reader.h"
#include "testing/scenario.h"
#include "tests/common/analysis_fixture.h"

namespace cw::clock {
namespace {

using testing::Scenario;
using trace::EventKind;

trace::Trace Read(const Scenario& s) {
  Result<trace::Trace> t =
      otf2::ReadTrace(s.WriteOrDie(testing::MakeTempDir("clc")), otf2::ReadOptions{});
  EXPECT_TRUE(t) << t.error().message();
  return std::move(*t);
}

// Index of the `nth` event of `kind` on `location`.
uint32_t Find(const trace::Trace& t, uint32_t location, EventKind kind, int nth = 0) {
  const trace::LocationEvents& ev = t.location(location);
  for (uint32_t i = 0; i < ev.size(); ++i) {
    if (ev.kind(i) == kind && nth-- == 0) return i;
  }
  ADD_FAILURE() << "no such event";
  return 0;
}

std::vector<std::vector<uint64_t>> Times(const trace::Trace& t) {
  std::vector<std::vector<uint64_t>> times(t.location_count());
  for (uint32_t l = 0; l < t.location_count(); ++l) {
    for (uint32_t i = 0; i < t.location(l).size(); ++i) times[l].push_back(t.location(l).time(i));
  }
  return times;
}

// Local order is kept and no distance between consecutive events shrinks by more than γ.
void ExpectLocalStructureKept(const std::vector<std::vector<uint64_t>>& before,
                              const trace::Trace& after, double gamma) {
  for (uint32_t l = 0; l < after.location_count(); ++l) {
    const trace::LocationEvents& ev = after.location(l);
    ASSERT_EQ(ev.size(), before[l].size());
    for (uint32_t i = 1; i < ev.size(); ++i) {
      ASSERT_LE(ev.time(i - 1), ev.time(i)) << "location " << l << " event " << i;
      const double old_gap = static_cast<double>(before[l][i] - before[l][i - 1]);
      ASSERT_GE(static_cast<double>(ev.time(i) - ev.time(i - 1)), std::ceil(gamma * old_gap))
          << "location " << l << " event " << i;
    }
  }
}

// Haus 2024 §4.2.2: a send-probe violation (timestamps edited so that the probe ends before the
// message it found was sent). One tick is one second, so the minimum latency (1 µs) is 0 ticks.
//   A: Init [0,1] Probe(B) [2,3] Recv<-B [3,4] work [4,6] Finalize [6,9]
//   B: Init [0,1] work [1,5] Send->A [5,5] Finalize [5,9]
TEST(ClockCorrectionTest, SendProbeViolationIsCorrectedAtTheProbe) {
  Scenario s(2);
  for (int r = 0; r < 2; ++r) s.rank(r).Enter(0, "main").Call(0, 1, "MPI_Init");
  s.rank(0).Probe(2, 3, 1, 0).Recv(3, 4, 1, 0, 4).Call(4, 6, "work").Call(6, 9, "MPI_Finalize");
  s.rank(1).Call(1, 5, "work").Send(5, 5, 0, 0, 4).Call(5, 9, "MPI_Finalize");
  for (int r = 0; r < 2; ++r) s.rank(r).Leave(9, "main");
  trace::Trace t = Read(s);
  auto before = Times(t);
  match::SyncGraph g = match::MatchTrace(t, 1);
  ASSERT_EQ(g.stats.probes_linked, 1u);

  ClockCorrection c = CorrectTimestamps(t, g, ClockOptions{});
  // Only the probe violates (its receive is the probe's: the receive is not checked again).
  EXPECT_EQ(c.before.probe, 1u);
  EXPECT_EQ(c.before.p2p, 0u);
  EXPECT_EQ(c.after.total(), 0u);
  EXPECT_EQ(c.jumps, 1u);
  // Forward: the probe's Leave jumps from 3 to B's send at 5 (Δ = 2); everything after it on A
  // keeps its distances: Recv [5,6], work [6,8], Finalize Enter 8.
  const uint32_t probe_leave = t.location(0).pair(3);  // main 0, Init 1-2, Probe Enter 3
  EXPECT_EQ(t.location(0).time(probe_leave), 5u);
  EXPECT_EQ(t.location(0).time(Find(t, 0, EventKind::kMpiRecv)), 6u);
  // Backward: the 2 ticks are spread over (0, 3] with slope 2/3: the probe's Enter moves from 2
  // to 2 + floor(4/3) = 3, MPI_Init's Leave from 1 to 1 + floor(2/3) = 1.
  EXPECT_EQ(t.location(0).time(3), 3u);
  EXPECT_EQ(t.location(0).time(2), 1u);
  // B is untouched but for its Finalize Leave, which must follow A's Finalize Enter (8 < 9).
  EXPECT_EQ(Times(t)[1], before[1]);
  ExpectLocalStructureKept(before, t, ClockOptions{}.gamma);
}

// Haus 2024 §4.2.3: A sends m1 to B, B probes and receives it, then sends m2 to A; A's receive of
// m2 was edited to precede B's send. Correcting it moves A's earlier events later, but A's send
// of m1 may only move up to B's probe (12), not to B's receive (13): otherwise the correction
// would create a send-probe violation.
//   A: Init [0,1] Send->B [10,11] work [11,20] Recv<-B [20,21] Finalize [22,40]
//   B: Init [0,1] Probe(A) [5,12] Recv<-A [12,13] work [13,30] Send->A [30,31] Finalize [31,40]
TEST(ClockCorrectionTest, BackwardAmortisationStopsAtTheProbe) {
  Scenario s(2);
  for (int r = 0; r < 2; ++r) s.rank(r).Enter(0, "main").Call(0, 1, "MPI_Init");
  s.rank(0).Send(10, 11, 1, 1, 4).Call(11, 20, "work").Recv(20, 21, 1, 2, 4);
  s.rank(0).Call(22, 40, "MPI_Finalize");
  s.rank(1).Probe(5, 12, 0, 1).Recv(12, 13, 0, 1, 4).Call(13, 30, "work").Send(30, 31, 0, 2, 4);
  s.rank(1).Call(31, 40, "MPI_Finalize");
  for (int r = 0; r < 2; ++r) s.rank(r).Leave(40, "main");
  trace::Trace t = Read(s);
  auto before = Times(t);
  match::SyncGraph g = match::MatchTrace(t, 1);
  ClockCorrection c = CorrectTimestamps(t, g, ClockOptions{});
  EXPECT_EQ(c.before.p2p, 1u);
  EXPECT_EQ(c.before.probe, 0u);
  EXPECT_EQ(c.after.total(), 0u);

  // Forward: A's receive record jumps from 21 to 30 (Δ = 9). Backward over (0, 21]: the plain
  // line of slope 9/21 would move the send record (10) by 4 to 14, past its limit, B's probe
  // Leave at 12 (slack 2). So the line bends there: from the send on, 2 + 7/11 (t - 10); before
  // it, slope 2/10. Send record 10 -> 12; Send Leave 11 -> 13; work [11,20] -> [13,28]; Recv
  // Enter 20 -> 28; Send Enter 10 -> 10 + 2 = 12; Init Leave 1 -> 1.
  const trace::LocationEvents& a = t.location(0);
  const uint32_t send = Find(t, 0, EventKind::kMpiSend);
  EXPECT_EQ(a.time(send), 12u);
  EXPECT_EQ(a.time(a.pair(send)), 12u);          // Enter of MPI_Send
  EXPECT_EQ(a.time(a.pair(a.pair(send))), 13u);  // its Leave
  const uint32_t recv = Find(t, 0, EventKind::kMpiRecv);
  EXPECT_EQ(a.time(recv), 30u);
  EXPECT_EQ(a.time(a.pair(recv)), 28u);
  const uint32_t b_probe_leave = t.location(1).pair(3);
  EXPECT_EQ(t.location(1).time(b_probe_leave), 12u);
  EXPECT_LE(a.time(send), t.location(1).time(b_probe_leave));
  EXPECT_NEAR(c.max_slope, 7.0 / 11, 1e-12);
  ExpectLocalStructureKept(before, t, ClockOptions{}.gamma);
}

// A ring of 4 ranks exchanging messages for 12 iterations with a barrier every 4, one tick per
// microsecond (so the minimum latency is one tick), and rank 2's clock 50 µs behind: its
// receives seem to precede their sends and its barrier ends precede the others' begins.
Scenario SkewedRing(int64_t skew) {
  Scenario s(4, /*ticks_per_second=*/1000000);
  for (int r = 0; r < 4; ++r) {
    auto at = [&](uint64_t t) {
      return static_cast<uint64_t>(static_cast<int64_t>(t) + (r == 2 ? skew : 0));
    };
    testing::RankScript& rank = s.rank(r);
    rank.Enter(at(1000), "main").Call(at(1000), at(1010), "MPI_Init");
    uint64_t t = 1010;
    for (int k = 0; k < 12; ++k) {
      uint64_t work = 100 + 5 * static_cast<uint64_t>((r + k) % 4);
      rank.Call(at(t), at(t + work), "compute");
      t = 1010 + 200 * static_cast<uint64_t>(k) + 120;
      rank.Send(at(t), at(t + 2), (r + 1) % 4, 0, 64);
      rank.Recv(at(t + 2), at(t + 30), (r + 3) % 4, 0, 64);
      t += 30;
      if (k % 4 == 3) {
        rank.Collective(at(t), at(t + 20), "MPI_Barrier", OTF2_COLLECTIVE_OP_BARRIER, 0, 0);
      }
      t = 1010 + 200 * static_cast<uint64_t>(k + 1);
    }
    rank.Call(at(t), at(t + 10), "MPI_Finalize").Leave(at(t + 10), "main");
  }
  return s;
}

TEST(ClockCorrectionTest, SkewedRingHasNoViolationsLeft) {
  trace::Trace t = Read(SkewedRing(-50));
  auto before = Times(t);
  match::SyncGraph g = match::MatchTrace(t, 2);
  ClockCorrection c = CorrectTimestamps(t, g, ClockOptions{});
  // Rank 2 receives from rank 1 12 times (each 50 - 28 = 22 ticks too early) and ends 3
  // barriers and MPI_Init/MPI_Finalize before the others began them.
  EXPECT_EQ(c.before.p2p, 12u);
  EXPECT_GE(c.before.collective, 3u);
  EXPECT_EQ(c.after.total(), 0u);
  // The latency is enforced too: every receive-like event is at least 1 tick after its sources.
  g = match::MatchTrace(t, 2);
  EXPECT_EQ(CountViolations(t, BuildClockCondition(t, g), /*latency=*/1).total(), 0u);
  EXPECT_GT(c.corrected_events, 0u);
  EXPECT_LE(c.max_shift, 80);
  ExpectLocalStructureKept(before, t, ClockOptions{}.gamma);
  // Ranks whose clocks were right and that never waited for rank 2's corrected events keep their
  // compute regions: every compute region of every rank keeps its length within 1 %.
  for (uint32_t l = 0; l < 4; ++l) {
    const trace::LocationEvents& ev = t.location(l);
    for (uint32_t i = 0; i < ev.size(); ++i) {
      if (ev.kind(i) != EventKind::kEnter ||
          t.defs.RegionName(t.CallpathRegion(ev.ref(i))) != "compute")
        continue;
      double old_length = static_cast<double>(before[l][ev.pair(i)] - before[l][i]);
      double new_length = static_cast<double>(ev.time(ev.pair(i)) - ev.time(i));
      EXPECT_NEAR(new_length, old_length, 0.01 * old_length + 1) << "location " << l;
    }
  }
}

TEST(ClockCorrectionTest, ReportShowsViolationsBeforeAndAfter) {
  // The analysis after correction sees no violation; the report keeps both counts.
  trace::Trace t = Read(SkewedRing(-50));
  match::SyncGraph g = match::MatchTrace(t, 2);
  ClockCorrection c = CorrectTimestamps(t, g, ClockOptions{});
  g = match::MatchTrace(t, 2);
  analysis::AnalysisResult a = analysis::AnalyzeTrace(t, g, {.threads = 2});
  report::Report r = report::BuildReport(t, g, a, &c);
  EXPECT_TRUE(r.trace.time_corrected);
  ASSERT_TRUE(r.clock_correction.has_value());
  EXPECT_EQ(r.clock_correction->before.p2p, 12u);
  EXPECT_EQ(r.clock_correction->after.total(), 0u);
  EXPECT_EQ(r.trace.clock_violations_p2p + r.trace.clock_violations_collective +
                r.trace.clock_violations_probe,
            0u);
}

}  // namespace
}  // namespace cw::clock
