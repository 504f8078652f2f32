// report.cubex: read back with the test reader, every value equals report.json's, and its
// anchor.xml has the structure of Score-P's profile.cubex samples.
#include <filesystem>
#include <map>
#include <set>
#include <string>
#include <utility>

#include <gtest/gtest.h>

#include "analysis/metrics/metric_catalog.h"
#include "base/utf8.h"
#include "report/cube_writer.h"
#include "tests/common/analysis_fixture.h"
#include "tests/common/cube_reader.h"
#include "tests/common/paths.h"

namespace cw::report {
namespace {

// Writes the analysis's report as .cubex, reads it back and compares every value.
void ExpectRoundTrip(const test::Analysis& a, const std::string& name) {
  const std::string path = testing::MakeTempDir(name) + "/report.cubex";
  Status written = WriteCubex(a.report, a.trace, path);
  ASSERT_TRUE(written) << written.error().message();
  Result<test::CubeFile> cube = test::ReadCubex(path);
  ASSERT_TRUE(cube) << cube.error().message();

  // The metric tree is the catalog's, every metric with its parent.
  std::map<std::string, std::string> parents;
  for (const test::CubeMetric& m : cube->metrics) parents[m.uniq_name] = m.parent;
  for (const analysis::MetricInfo& m : analysis::AllMetrics()) {
    ASSERT_TRUE(parents.count(std::string(m.name))) << m.name;
    EXPECT_EQ(parents[std::string(m.name)],
              m.parent ? std::string(analysis::Metric(*m.parent).name) : "")
        << m.name;
  }
  // Call paths by name, locations by (process, thread within it).
  std::map<std::string, uint32_t> cnode;
  for (uint32_t c = 0; c < cube->cnodes.size(); ++c) cnode[cube->cnodes[c]] = c;
  EXPECT_EQ(cube->cnodes.size(), a.report.callpaths.size());
  std::map<std::pair<std::string, uint32_t>, uint32_t> cube_location;
  for (uint32_t l = 0; l < cube->locations.size(); ++l) {
    cube_location[{cube->locations[l].group, cube->locations[l].thread}] = l;
  }
  ASSERT_EQ(cube->locations.size(), a.report.locations.size());
  std::vector<uint32_t> location(a.report.locations.size());
  std::map<uint32_t, uint32_t> threads_in_group;
  for (uint32_t l = 0; l < a.report.locations.size(); ++l) {
    uint32_t thread = threads_in_group[a.trace.defs.locations[l].group]++;
    auto it = cube_location.find({a.report.locations[l].group, thread});
    ASSERT_NE(it, cube_location.end()) << "location " << l;
    location[l] = it->second;
  }
  // Every value of the report is in the cube, and nothing else.
  std::map<std::string, size_t> expected_count;
  for (const Value& v : a.report.values) {
    const std::string metric(analysis::Metric(v.metric).name);
    // Names travel as valid UTF-8 (a stray byte becomes U+FFFD).
    const std::string path_name = ValidUtf8(a.report.CallpathName(v.callpath));
    ASSERT_TRUE(cnode.count(path_name)) << path_name;
    const auto& values = cube->values[metric];
    auto it = values.find({cnode[path_name], location[v.location]});
    ASSERT_NE(it, values.end()) << metric << " " << path_name << " location " << v.location;
    EXPECT_EQ(it->second, v.value) << metric << " " << path_name << " location " << v.location;
    ++expected_count[metric];
  }
  for (const auto& [metric, values] : cube->values) {
    EXPECT_EQ(values.size(), expected_count[metric]) << metric;
  }
}

TEST(CubeWriterTest, LateSenderRoundTrips) {
  // Rank 1 waits 4..10 for rank 0's send: 6 s of Late Sender at main/MPI_Recv on location 1,
  // inside mpi_point2point, mpi and time (the values include their children's).
  testing::Scenario s(2);
  s.rank(0).Enter(0, "main").Call(0, 10, "work").Send(10, 11, 1, 0, 8).Leave(20, "main");
  s.rank(1).Enter(0, "main").Recv(4, 12, 0, 0, 8).Leave(20, "main");
  test::Analysis a = test::AnalyzeScenario(s);
  ASSERT_EQ(a.Value("mpi_latesender", "main/MPI_Recv", 1), 6.0);
  ExpectRoundTrip(a, "cube-late-sender");
}

TEST(CubeWriterTest, HostileNamesRoundTrip) {
  ExpectRoundTrip(test::AnalyzeScenario(test::HostileNamesLateSender()), "cube-hostile");
}

TEST(CubeWriterTest, EveryRealTraceRoundTrips) {
  for (const std::string& name : test::RealTraceNames()) {
    SCOPED_TRACE(name);
    ExpectRoundTrip(test::AnalyzeFile(test::RealTrace(name) + "/traces.otf2"), "cube-" + name);
  }
}

TEST(CubeWriterTest, AnchorHasTheStructureOfScorePsProfiles) {
  // The Score-P samples, read by the same reader (which checks their binary layout too).
  std::map<std::string, std::set<std::string>> sample;
  int samples = 0;
  for (const std::string& name : test::RealTraceNames()) {
    const std::string path = test::RealTrace(name) + "/profile.cubex";
    if (!std::filesystem::exists(path)) continue;
    Result<test::CubeFile> cube = test::ReadCubex(path);
    ASSERT_TRUE(cube) << cube.error().message();
    EXPECT_FALSE(cube->values["visits"].empty()) << path;
    for (const auto& [element, attributes] : cube->structure) {
      sample[element].insert(attributes.begin(), attributes.end());
    }
    ++samples;
  }
  ASSERT_GE(samples, 2);
  test::Analysis a = test::AnalyzeFile(test::RealTrace("ping-pong-otf2") + "/traces.otf2");
  const std::string path = testing::MakeTempDir("cube-structure") + "/report.cubex";
  ASSERT_TRUE(WriteCubex(a.report, a.trace, path));
  Result<test::CubeFile> ours = test::ReadCubex(path);
  ASSERT_TRUE(ours) << ours.error().message();
  // Every element causeway writes appears at the same place in the samples, with no attribute
  // they lack; and the elements a reader looks for are all there.
  for (const auto& [element, attributes] : ours->structure) {
    ASSERT_TRUE(sample.count(element)) << element << " is not in Score-P's profiles";
    for (const std::string& attribute : attributes) {
      EXPECT_TRUE(sample[element].count(attribute)) << element << " @" << attribute;
    }
  }
  for (const char* required :
       {"/cube/metrics/metric/uniq_name", "/cube/metrics/metric/disp_name",
        "/cube/metrics/metric/dtype", "/cube/metrics/metric/uom", "/cube/metrics/metric/descr",
        "/cube/program/region/name", "/cube/program/cnode",
        "/cube/system/systemtreenode/locationgroup/location/name"}) {
    EXPECT_TRUE(ours->structure.count(required)) << required;
  }
}

}  // namespace
}  // namespace cw::report
