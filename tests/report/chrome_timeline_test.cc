// The Chrome/Perfetto timeline: its structure follows the rules of Perfetto's JSON importer
// (slices on a thread nest, every flow event binds to a slice of its thread, every track is
// named), untrusted names survive as text, and the range, window and size options work.
#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include <nlohmann/json.hpp>

#include <gtest/gtest.h>

#include "report/chrome_timeline.h"
#include "tests/common/analysis_fixture.h"
#include "tests/common/paths.h"

namespace cw::report {
namespace {

using nlohmann::json;

json Load(const std::string& path) {
  std::ifstream in(path);
  return json::parse(in);  // throws (and fails the test) on malformed JSON or bad UTF-8
}

// Checks the rules Perfetto's importer relies on; returns the number of slices.
size_t ExpectValidStructure(const json& timeline) {
  using Track = std::pair<int64_t, int64_t>;
  // Times are microseconds with nanosecond decimals: compared in whole nanoseconds.
  auto ns = [](const json& us) { return std::llround(us.get<double>() * 1e3); };
  std::map<Track, std::vector<std::pair<int64_t, int64_t>>> slices;  // (start, end) per track
  std::map<Track, std::set<std::string>> names;                      // metadata per track
  std::vector<json> flows;
  EXPECT_TRUE(timeline.contains("traceEvents"));
  for (const json& e : timeline["traceEvents"]) {
    const std::string ph = e["ph"];
    const Track track{e["pid"].get<int64_t>(), e["tid"].get<int64_t>()};
    if (ph == "X") {
      const int64_t ts = ns(e["ts"]), dur = ns(e["dur"]);
      EXPECT_GE(ts, 0);
      EXPECT_GE(dur, 0);
      EXPECT_TRUE(e["name"].is_string());
      slices[track].emplace_back(ts, ts + dur);
    } else if (ph == "M") {
      names[track].insert(e["name"].get<std::string>());
    } else if (ph == "s" || ph == "f") {
      flows.push_back(e);
    } else {
      EXPECT_EQ(ph, "i") << e.dump();
    }
  }
  size_t count = 0;
  for (auto& [track, list] : slices) {
    EXPECT_TRUE(names[track].count("thread_name") && names[track].count("process_name"))
        << "track " << track.first << "/" << track.second << " has no names";
    // Nesting: sorted by start (longer first on ties), each slice lies inside the innermost
    // open one or starts after it ended.
    std::sort(list.begin(), list.end(), [](const auto& a, const auto& b) {
      return a.first != b.first ? a.first < b.first : a.second > b.second;
    });
    std::vector<int64_t> open;
    for (const auto& [start, end] : list) {
      while (!open.empty() && open.back() <= start && !(open.back() == start && end == start)) {
        open.pop_back();
      }
      if (!open.empty()) {
        EXPECT_LE(end, open.back()) << "a slice overlaps its parent's end";
      }
      open.push_back(end);
    }
    count += list.size();
  }
  // Flows: one start and one end per id, each at a time inside a slice of its own track.
  std::map<int64_t, std::pair<int, int>> ends;
  for (const json& f : flows) {
    const Track track{f["pid"].get<int64_t>(), f["tid"].get<int64_t>()};
    const int64_t ts = ns(f["ts"]);
    const auto& list = slices[track];
    bool bound = std::any_of(list.begin(), list.end(),
                             [ts](const auto& s) { return s.first <= ts && ts < s.second; });
    EXPECT_TRUE(bound) << "flow event binds to no slice: " << f.dump();
    auto& [starts, finishes] = ends[f["id"].get<int64_t>()];
    (f["ph"] == "s" ? starts : finishes) += 1;
    if (f["ph"] == "f") {
      EXPECT_EQ(f["bp"], "e");
    }
  }
  for (const auto& [id, pair] : ends) {
    EXPECT_EQ(pair, std::make_pair(1, 1)) << "flow " << id;
  }
  return count;
}

TEST(ChromeTimelineTest, SlicesNestFlowsBindAndNamesSurvive) {
  test::Analysis a = test::AnalyzeScenario(test::HostileNamesLateSender());
  const std::string path = testing::MakeTempDir("timeline") + "/timeline.json";
  Result<TimelineStats> stats =
      WriteChromeTimeline(a.trace, a.graph, a.result.waitstates.instances, {}, path);
  ASSERT_TRUE(stats) << stats.error().message();
  const json timeline = Load(path);
  // main, the script region and MPI_Send on rank 0; main, the quoted region and MPI_Recv on 1.
  EXPECT_EQ(ExpectValidStructure(timeline), 6u);
  EXPECT_EQ(stats->slices, 6u);
  EXPECT_EQ(stats->flows, 1u);
  EXPECT_EQ(stats->bytes, std::filesystem::file_size(path));
  std::set<std::string> slice_names;
  const json* late_sender = nullptr;
  for (const json& e : timeline["traceEvents"]) {
    if (e["ph"] == "X") slice_names.insert(e["name"].get<std::string>());
    if (e["ph"] == "i" && e["args"]["metric"] == "mpi_latesender") late_sender = &e;
  }
  EXPECT_TRUE(slice_names.count(test::kMarkupRegion));
  // The stray byte became U+FFFD.
  EXPECT_TRUE(slice_names.count("</script><script>alert(2)</script><!-- \"q\" \\ \xEF\xBF\xBD"));
  ASSERT_NE(late_sender, nullptr);
  EXPECT_EQ((*late_sender)["args"]["seconds"].get<double>(), 6.0);
  EXPECT_EQ((*late_sender)["tid"], 1);
  EXPECT_EQ((*late_sender)["ts"].get<double>(), 4e6);  // the receive's Enter, in microseconds
}

TEST(ChromeTimelineTest, RanksAndWindowNarrowIt) {
  test::Analysis a = test::AnalyzeScenario(test::HostileNamesLateSender());
  const std::string path = testing::MakeTempDir("timeline-narrow") + "/timeline.json";
  TimelineOptions only_rank_1;
  only_rank_1.ranks = {1, 1};
  ASSERT_TRUE(
      WriteChromeTimeline(a.trace, a.graph, a.result.waitstates.instances, only_rank_1, path));
  json timeline = Load(path);
  ExpectValidStructure(timeline);
  for (const json& e : timeline["traceEvents"]) EXPECT_EQ(e["tid"], 1) << e.dump();

  // 3..5 s: main and the hostile region on rank 1 clamped to it, MPI_Recv from 4; rank 0's
  // script region (0..10) and main; no arrow (the send at 10 is outside).
  TimelineOptions window;
  window.window = {3.0, 5.0};
  Result<TimelineStats> stats =
      WriteChromeTimeline(a.trace, a.graph, a.result.waitstates.instances, window, path);
  ASSERT_TRUE(stats);
  timeline = Load(path);
  EXPECT_EQ(ExpectValidStructure(timeline), 5u);
  EXPECT_EQ(stats->flows, 0u);
  for (const json& e : timeline["traceEvents"]) {
    if (e["ph"] != "X") continue;
    EXPECT_GE(e["ts"].get<double>(), 3e6);
    EXPECT_LE(e["ts"].get<double>() + e["dur"].get<double>(), 5e6);
  }
}

TEST(ChromeTimelineTest, TooLargeATimelineIsRefusedWithTheWayToNarrowIt) {
  test::Analysis a = test::AnalyzeScenario(test::HostileNamesLateSender());
  const std::string path = testing::MakeTempDir("timeline-big") + "/timeline.json";
  TimelineOptions options;
  options.max_bytes = 500;
  Result<TimelineStats> stats =
      WriteChromeTimeline(a.trace, a.graph, a.result.waitstates.instances, options, path);
  ASSERT_FALSE(stats);
  EXPECT_EQ(stats.error().code(), ErrorCode::kResourceLimit);
  EXPECT_NE(stats.error().message().find("--timeline-ranks"), std::string::npos);
  EXPECT_FALSE(std::filesystem::exists(path));
}

TEST(ChromeTimelineTest, RangesAndWindowsAreChecked) {
  EXPECT_EQ(*ParseRankRange("3"), std::make_pair(3u, 3u));
  EXPECT_EQ(*ParseRankRange("0-15"), std::make_pair(0u, 15u));
  for (const char* bad : {"", "-3", "3-", "a-b", "3-1", "1-2-3", "99999999999"}) {
    EXPECT_FALSE(ParseRankRange(bad)) << bad;
  }
  EXPECT_EQ(*ParseTimeWindow("1.5:2"), std::make_pair(1.5, 2.0));
  for (const char* bad : {"", "1", "2:1", "-1:2", "1:inf", "1:2x"}) {
    EXPECT_FALSE(ParseTimeWindow(bad)) << bad;
  }
}

TEST(ChromeTimelineTest, EveryRealTraceGivesAValidTimeline) {
  for (const std::string& name : test::RealTraceNames()) {
    SCOPED_TRACE(name);
    test::Analysis a = test::AnalyzeFile(test::RealTrace(name) + "/traces.otf2");
    const std::string path = testing::MakeTempDir("timeline-real") + "/timeline.json";
    Result<TimelineStats> stats =
        WriteChromeTimeline(a.trace, a.graph, a.result.waitstates.instances, {}, path);
    ASSERT_TRUE(stats) << stats.error().message();
    EXPECT_EQ(ExpectValidStructure(Load(path)), stats->slices);
    EXPECT_EQ(stats->bytes, std::filesystem::file_size(path));
    // The size guard's estimate is close enough to decide before writing.
    EXPECT_NEAR(static_cast<double>(stats->estimated_bytes), static_cast<double>(stats->bytes),
                0.25 * static_cast<double>(stats->bytes));
  }
}

}  // namespace
}  // namespace cw::report
