#include "analysis/metrics/metric_catalog.h"

#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include <gtest/gtest.h>

namespace cw::analysis {
namespace {

TEST(MetricCatalogTest, TableIsInIdOrderAndParentsComeFirst) {
  std::set<std::string_view> names;
  int index = 0;
  for (const MetricInfo& m : AllMetrics()) {
    EXPECT_EQ(static_cast<int>(m.id), index++) << m.name;
    if (m.parent) {
      EXPECT_LT(static_cast<int>(*m.parent), static_cast<int>(m.id)) << m.name;
    }
    EXPECT_TRUE(names.insert(m.name).second) << "duplicate " << m.name;
    EXPECT_FALSE(m.description.empty()) << m.name;
    if (m.parent) {
      EXPECT_EQ(Metric(*m.parent).unit, m.unit) << m.name;
    }
  }
  EXPECT_EQ(index, kMetricCount);
}

TEST(MetricCatalogTest, ScalascaNamesAndTree) {
  EXPECT_EQ(Metric(MetricId::kMpiLateSender).name, "mpi_latesender");
  EXPECT_EQ(Metric(*Metric(MetricId::kMpiLateSender).parent).name, "mpi_point2point");
  EXPECT_EQ(Metric(*Metric(MetricId::kMpiLateSenderWo).parent).name, "mpi_latesender");
  EXPECT_EQ(Metric(*Metric(MetricId::kMpiBarrierWait).parent).name, "mpi_sync_collective");
  EXPECT_EQ(FindMetric("mpi_wait_nxn"), MetricId::kMpiWaitNxn);
  EXPECT_FALSE(FindMetric("no_such_metric"));
}

TEST(MetricCatalogTest, EveryMetricIsDocumented) {
  // A path, not `std::string + "..."`: GCC 12 warns wrongly (-Warray-bounds) about that sum of
  // a macro's string literal when the standard headers come precompiled.
  std::ifstream in(std::filesystem::path(CW_SOURCE_DIR) / "docs" / "metrics.md");
  ASSERT_TRUE(in) << "docs/metrics.md missing";
  std::stringstream text;
  text << in.rdbuf();
  for (const MetricInfo& m : AllMetrics()) {
    EXPECT_NE(text.str().find("`" + std::string(m.name) + "`"), std::string::npos)
        << m.name << " is not in docs/metrics.md";
  }
}

}  // namespace
}  // namespace cw::analysis

namespace cw::analysis {
namespace {

TEST(MetricCatalogTest, AncestorChainsEndAtTheRoot) {
  std::span<const MetricId> chain = MetricWithAncestors(MetricId::kMpiLswoSame);
  std::vector<std::string_view> names;
  for (MetricId m : chain) names.push_back(Metric(m).name);
  EXPECT_EQ(names, (std::vector<std::string_view>{
                       "mpi_lswo_same", "mpi_latesender_wo", "mpi_latesender", "mpi_point2point",
                       "mpi_communication", "mpi", "execution", "time"}));
  EXPECT_EQ(MetricWithAncestors(MetricId::kVisits).size(), 1u);
}

}  // namespace
}  // namespace cw::analysis
