// The automatic bottleneck analysis (analysis/advice/) on hand-built traces, one tick per
// second: each filter, each pattern of cause analysis, with the expected numbers derived
// beside them (seed 004's worked examples: the barrier whose late entrants are processes 8 and
// 15, the lock wait ended by an unlock at 4).
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "analysis/advice/baselines.h"
#include "report/json_writer.h"
#include "report/text_summary.h"
#include "tests/common/analysis_fixture.h"

namespace cw::analysis {
namespace {

using test::Analysis;
using testing::Scenario;

constexpr double kEps = 1e-9;

Analysis AdviseOn(const Scenario& s, const Baselines* baselines = nullptr,
                  AdviceParameters parameters = {}, unsigned threads = 2) {
  AnalysisOptions options;
  options.threads = threads;
  options.advice = true;
  options.advice_parameters = parameters;
  options.baselines = baselines;
  if (baselines != nullptr) options.baselines_path = "baselines.txt";
  return test::AnalyzeScenarioWith(s, options);
}

Baselines ParseOrDie(const std::string& text) {
  Result<Baselines> b = Baselines::Parse(text, "test");
  EXPECT_TRUE(b.has_value()) << (b ? "" : b.error().message());
  return b ? std::move(*b) : Baselines{};
}

// Rank 0 sends three messages to rank 1, after regions a (0..1), b (2..10) and c (11..12);
// rank 1 receives them in 0..2, 3..11 and 12..13. The receives last 2, 8 and 1 s: mean 11/3,
// max/mean = 8 / (11/3) = 2.18 > 2, so the deviation filter finds main/MPI_Recv; its one
// instance above the mean (3..11) waited 10 - 3 = 7 s for the send entered at 10: a Late
// Sender. The sends (1 s each) do not deviate; a, b, c and main have one instance per process.
Scenario LateSecondSend() {
  Scenario s(2);
  s.rank(0)
      .Enter(0, "main")
      .Call(0, 1, "a")
      .Send(1, 2, 1, 0, 8)
      .Call(2, 10, "b")
      .Send(10, 11, 1, 0, 8)
      .Call(11, 12, "c")
      .Send(12, 13, 1, 0, 8)
      .Leave(40, "main");
  s.rank(1)
      .Enter(0, "main")
      .Recv(0, 2, 0, 0, 8)
      .Recv(3, 11, 0, 0, 8)
      .Recv(12, 13, 0, 0, 8)
      .Leave(40, "main");
  return s;
}

TEST(AdviceTest, TheDeviationFilterFindsALateSender) {
  Analysis a = AdviseOn(LateSecondSend());
  ASSERT_TRUE(a.result.advice.has_value());
  const Advice& advice = *a.result.advice;
  EXPECT_EQ(advice.total_time, 80u);  // two locations of 40 s
  // Past the 1 % hotspot filter (0.8 s): main (exclusive 27 + 29 s), MPI_Recv (11), b (8),
  // MPI_Send (3), a (1) and c (1).
  EXPECT_EQ(advice.candidates, 6u);
  ASSERT_EQ(advice.findings.size(), 1u);
  const AdviceFinding& f = advice.findings[0];
  EXPECT_EQ(f.pattern, AdvicePattern::kLateSender);
  EXPECT_EQ(f.callpath, a.Callpath("main/MPI_Recv"));
  EXPECT_EQ(f.type, GenericType::kReceive);
  EXPECT_EQ(f.filter, DetectionFilter::kDeviation);
  EXPECT_EQ(f.locations, std::vector<uint32_t>{1});
  EXPECT_EQ(f.time, 11u);
  EXPECT_EQ(f.bottleneck_time, 8u);
  EXPECT_NEAR(f.mean, 11.0 / 3, kEps);
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
  EXPECT_NEAR(ExcessTime(f), 8 - 11.0 / 3, kEps);
  EXPECT_FALSE(f.hints.empty());
}

TEST(AdviceTest, TheHotspotFilterComesFirst) {
  // At 20 % (16 s of 80) only main is a candidate: MPI_Recv's 11 s are 13.75 %.
  AdviceParameters p;
  p.hotspot_share = 0.2;
  Analysis a = AdviseOn(LateSecondSend(), nullptr, p);
  EXPECT_EQ(a.result.advice->candidates, 1u);
  EXPECT_TRUE(a.result.advice->findings.empty());
  // A stricter deviation bound (max/mean above 2.5) lets MPI_Recv pass at 1 % too, unless the
  // low bound (min/mean = 1 / (11/3) = 0.27) catches it.
  p.hotspot_share = 0.01;
  p.deviation_high = 2.5;
  p.deviation_low = 0.25;
  EXPECT_TRUE(AdviseOn(LateSecondSend(), nullptr, p).result.advice->findings.empty());
  p.deviation_low = 0.3;
  EXPECT_EQ(AdviseOn(LateSecondSend(), nullptr, p).result.advice->findings.size(), 1u);
}

// Seed 004's barrier: 16 processes work 1 s and enter MPI_Barrier at 1, except process 8 (at
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
  ASSERT_EQ(a.result.advice->findings.size(), 1u);
  const AdviceFinding& f = a.result.advice->findings[0];
  EXPECT_EQ(f.pattern, AdvicePattern::kWaitOnGroup);
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
  EXPECT_NEAR(ExcessTime(f), 126 - 14 * 8.1875, kEps);
}

// Seed 004's lock: rank 0 holds an exclusive lock on rank 2's window from 1 and unlocks at 4;
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
  ASSERT_EQ(a.result.advice->findings.size(), 1u);
  const AdviceFinding& f = a.result.advice->findings[0];
  EXPECT_EQ(f.pattern, AdvicePattern::kWaitOnLock);
  EXPECT_EQ(f.callpath, a.Callpath("main/MPI_Win_lock"));
  EXPECT_EQ(f.filter, DetectionFilter::kBaseline);
  ASSERT_TRUE(f.expected.has_value());
  EXPECT_NEAR(*f.expected, 0.5, kEps);
  EXPECT_EQ(f.locations, std::vector<uint32_t>{1});
  EXPECT_EQ(f.bottleneck_instances, 1u);
  ASSERT_EQ(f.causes.size(), 1u);
  EXPECT_EQ(f.causes[0].location, 0u);
  EXPECT_EQ(f.causes[0].callpath, a.Callpath("main/MPI_Win_unlock"));
  EXPECT_EQ(f.causes[0].time, 2u);
  EXPECT_EQ(f.causes[0].first, 4u);
  EXPECT_NEAR(ExcessTime(f), 3 - 0.5, kEps);
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
  ASSERT_EQ(a.result.advice->findings.size(), 1u);
  const AdviceFinding& f = a.result.advice->findings[0];
  EXPECT_EQ(f.pattern, AdvicePattern::kNoRemoteCause);
  EXPECT_EQ(f.filter, DetectionFilter::kBaseline);
  EXPECT_NEAR(*f.expected, 0.3, kEps);
  EXPECT_EQ(f.bottleneck_instances, 4u);
  EXPECT_EQ(f.pattern_counts[static_cast<size_t>(AdvicePattern::kNoRemoteCause)], 4u);
  EXPECT_TRUE(f.causes.empty());
  EXPECT_NEAR(ExcessTime(f), 20 - 4 * 0.3, kEps);
  // Without baselines the instances do not deviate: nothing is found.
  EXPECT_TRUE(AdviseOn(s).result.advice->findings.empty());
}

// Ranks 1 and 2 put into rank 0's window: rank 1's MPI_Put lasts 1..6, rank 2's 2..3 and 4..5
// (puts of 5, 1 and 1 s: mean 7/3, max/mean = 2.14). Rank 1's overlapped both of rank 2's
// transfers to the same target, issued at 2 and 4: they competed for 6 - 2 + 6 - 4 = 6 s.
TEST(AdviceTest, OverlappingTransfersToOneTargetCompete) {
  Scenario s(3);
  const uint32_t win = s.AddWindow(0);
  s.rank(0).Enter(0, "main").Leave(10, "main");
  s.rank(1).Enter(0, "main").RmaTransfer(1, 6, "MPI_Put", win, 0, 4, 1).Leave(10, "main");
  s.rank(2)
      .Enter(0, "main")
      .RmaTransfer(2, 3, "MPI_Put", win, 0, 4, 1)
      .RmaTransfer(4, 5, "MPI_Put", win, 0, 4, 2)
      .Leave(10, "main");
  Analysis a = AdviseOn(s);
  ASSERT_EQ(a.result.advice->findings.size(), 1u);
  const AdviceFinding& f = a.result.advice->findings[0];
  EXPECT_EQ(f.pattern, AdvicePattern::kCompetingTransfer);
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
  ASSERT_EQ(a.result.advice->findings.size(), 1u);
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

TEST(AdviceTest, TheReportsCarryTheFindings) {
  Analysis a = AdviseOn(LateSecondSend());
  const nlohmann::json j = nlohmann::json::parse(report::ToJson(a.report));
  const nlohmann::json& advice = j.at("advice");
  EXPECT_EQ(advice.at("parameters").at("hotspot_share"), 0.01);
  EXPECT_EQ(advice.at("parameters").at("deviation_high"), 2.0);
  EXPECT_TRUE(advice.at("baselines").is_null());
  ASSERT_EQ(advice.at("findings").size(), 1u);
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

TEST(BaselinesTest, LookUpBetweenProcessCountsAndSizes) {
  const Baselines b = ParseOrDie("X 2 0 1\nX 2 100 2  # two sizes\nX 4 0 3\nX 4 100 5\n");
  // At 50 bytes: 1.5 on 2 processes, 4 on 4; on 3 processes halfway, 2.75.
  EXPECT_NEAR(*b.Seconds("X", 3, 50), 2.75, kEps);
  EXPECT_NEAR(*b.Seconds("X", 2, 100), 2, kEps);
  EXPECT_NEAR(*b.Seconds("X", 8, 200), 5, kEps);  // clamped to the largest measured
  EXPECT_NEAR(*b.Seconds("X", 1, 0), 1, kEps);
  EXPECT_FALSE(b.Seconds("Y", 2, 0).has_value());
}

TEST(BaselinesTest, AMalformedLineIsNamed) {
  for (const char* text : {"X 2 0\n", "X two 0 1\n", "X 0 0 1\n", "X 2 0 -1\n", "X 2 0 1 9\n",
                           "X 2.5 0 1\n", "X 2 0 nan\n"}) {
    Result<Baselines> b = Baselines::Parse(std::string("# header\n") + text, "my.baselines");
    ASSERT_FALSE(b.has_value()) << text;
    EXPECT_NE(b.error().message().find("my.baselines:2"), std::string::npos) << b.error().message();
  }
  EXPECT_FALSE(Baselines::Read("/nonexistent/baselines").has_value());
}

}  // namespace
}  // namespace cw::analysis
