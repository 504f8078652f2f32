#include "tests/common/traced_checks.h"

#include <algorithm>
#include <fstream>
#include <map>
#include <regex>
#include <vector>

#include <gtest/gtest.h>

#include "otf2/trace_reader.h"
#include "testing/scenario.h"
#include "tests/common/paths.h"

namespace cw::test {

// Events per kind over all locations, as `causeway info --json` counts them.
json Info(const std::string& dir) {
  std::string out;
  EXPECT_EQ(RunCommand(CausewayBinary() + " info --json " + dir, &out), 0) << out;
  return json::parse(out.substr(out.find('{')));
}

uint64_t Count(const json& info, const std::string& kind) {
  const json& kinds = info["events_by_kind"];
  return kinds.contains(kind) ? kinds[kind].get<uint64_t>() : 0;
}

json Analyze(const std::string& dir) {
  std::string out;
  const std::string report = cw::testing::MakeTempDir("traced-report");
  EXPECT_EQ(RunCommand(CausewayBinary() + " analyze -q " + dir + " -o " + report, &out), 0) << out;
  std::ifstream in(report + "/report.json");
  return json::parse(in);
}

// The value of `metric` summed over locations, at call paths whose region is `region` (any if
// empty).
double MetricTotal(const json& report, const std::string& metric, const std::string& region) {
  std::map<uint64_t, std::string> regions;
  for (const json& c : report["callpaths"]) regions[c["id"].get<uint64_t>()] = c["region"];
  double total = 0;
  for (const json& v : report["values"]) {
    if (v["metric"] != metric) continue;
    if (!region.empty() && regions[v["callpath"].get<uint64_t>()] != region) continue;
    total += v["value"].get<double>();
  }
  return total;
}

// The value of `metric` at the call path written as "main/solve/inner" on `location`.
namespace {

// The call paths by id, written as "main/solve/inner".
std::map<uint64_t, std::string> PathsById(const json& report) {
  std::map<uint64_t, std::string> paths;
  for (const json& c : report["callpaths"]) {  // parents come before their children
    const std::string region = c["region"];
    paths[c["id"].get<uint64_t>()] =
        c["parent"].is_null() ? region : paths[c["parent"].get<uint64_t>()] + "/" + region;
  }
  return paths;
}

}  // namespace

std::set<std::string> CallPaths(const json& report) {
  std::set<std::string> names;
  for (const auto& [id, path] : PathsById(report)) names.insert(path);
  return names;
}

std::string CallPathName(const json& report, uint64_t id) { return PathsById(report)[id]; }

double ValueAt(const json& report, const std::string& metric, const std::string& path,
               uint64_t location) {
  std::map<uint64_t, std::string> paths = PathsById(report);
  for (const json& v : report["values"]) {
    if (v["metric"] == metric && v["location"].get<uint64_t>() == location &&
        paths[v["callpath"].get<uint64_t>()] == path) {
      return v["value"].get<double>();
    }
  }
  return 0;
}

// A programmed wait, measured in a real run: within 5 % or 20 ms per programmed wait (a value
// that sums `parts` of them may be off by as much in each).
void ExpectWait(double measured, double programmed, int parts) {
  EXPECT_NEAR(measured, programmed, std::max(0.05 * programmed, 0.02 * parts));
}

// otf2-print reads the whole trace without a warning or an error.
void ExpectOtf2PrintReads(const std::string& dir) {
  std::string out;
  EXPECT_EQ(RunCommand("otf2-print " + dir + "/traces.otf2", &out), 0) << out.substr(0, 2000);
  EXPECT_EQ(out.find("[OTF2]"), std::string::npos) << out.substr(0, 2000);
  EXPECT_EQ(std::regex_search(out, std::regex("warning|error", std::regex::icase)), false);
}

// What a reader that orders each location's events by time alone (Pipit sorts them with an
// unstable sort) needs to rebuild the nesting: the program region `main` begins strictly before
// and ends strictly after everything else on its location, and, ordering events by time with
// ties in any order (reversed here, the worst case), every region's exclusive time is
// non-negative. Before main was entered at process start, it shared MPI_Init's Enter timestamp
// and Pipit computed an exclusive time of -0.5 s for MPI_Init.
void ExpectNestingSurvivesTimeOrder(const std::string& dir) {
  Result<trace::Trace> read = otf2::ReadTrace(dir + "/traces.otf2", otf2::ReadOptions{});
  ASSERT_TRUE(read) << read.error().message();
  const trace::Trace& t = *read;
  for (uint32_t l = 0; l < t.location_count(); ++l) {
    SCOPED_TRACE("location " + std::to_string(l));
    const trace::LocationEvents& ev = t.location(l);
    struct Visit {
      bool enter;
      uint64_t time;
      std::string region;
      uint32_t order;
    };
    std::vector<Visit> visits;
    for (uint32_t i = 0; i < ev.size(); ++i) {
      if (ev.kind(i) != trace::EventKind::kEnter && ev.kind(i) != trace::EventKind::kLeave) {
        continue;
      }
      const uint32_t callpath = ev.ref(i);
      visits.push_back({ev.kind(i) == trace::EventKind::kEnter, ev.time(i),
                        std::string(t.defs.RegionName(t.call_tree.region(callpath))), i});
    }
    if (visits.empty()) continue;
    if (visits.front().region == "main") {
      ASSERT_GE(visits.size(), 4u);
      EXPECT_LT(visits.front().time, visits[1].time) << "main begins with its first call";
      EXPECT_EQ(visits.back().region, "main");
      EXPECT_GT(visits.back().time, visits[visits.size() - 2].time)
          << "main ends with its last call";
    }
    std::stable_sort(visits.begin(), visits.end(), [](const Visit& a, const Visit& b) {
      return a.time != b.time ? a.time < b.time : a.order > b.order;
    });
    struct Open {
      uint64_t begin;
      uint64_t children = 0;
    };
    std::vector<Open> stack;
    for (const Visit& v : visits) {
      if (v.enter) {
        stack.push_back({v.time});
        continue;
      }
      ASSERT_FALSE(stack.empty()) << v.region << " left before it was entered";
      const Open open = stack.back();
      stack.pop_back();
      const int64_t inclusive = static_cast<int64_t>(v.time - open.begin);
      EXPECT_GE(inclusive - static_cast<int64_t>(open.children), 0) << v.region;
      if (!stack.empty()) stack.back().children += v.time - open.begin;
    }
  }
}

// The `count` most severe instances of `metric` are each a programmed wait of `seconds`; the
// others (scheduling jitter between phases) stay below the tolerance of one.
void ExpectInstances(const json& report, const std::string& metric, size_t count, double seconds) {
  SCOPED_TRACE(metric);
  std::vector<double> values;
  for (const json& i : report["instances"]) {
    if (i["metric"] == metric) values.push_back(i["value"].get<double>());
  }
  std::sort(values.rbegin(), values.rend());
  ASSERT_GE(values.size(), count) << metric;
  for (size_t k = 0; k < count; ++k) ExpectWait(values[k], seconds);
  if (values.size() > count) {
    EXPECT_LT(values[count], 0.02) << metric;
  }
}

}  // namespace cw::test
