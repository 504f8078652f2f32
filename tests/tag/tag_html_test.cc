// tag.html in a real browser (headless Chromium): the halo exchange's classes, each class's
// graph with a box per node and a path per local edge, a node's statistics and its class
// members' values when it is selected, sections, causal paths and the communication matrix;
// drawn without a console message; a hostile region name stays text.
#include <gtest/gtest.h>

#include <fstream>

#include "tag/output/tag_writers.h"
#include "testing/scenario.h"
#include "tests/common/browser_check.h"
#include "tests/tag/tag_fixture.h"

namespace cw::test {
namespace {

tag::TagDocument Document(const TagRun& run, const std::string& source) {
  tag::TagDocument doc;
  doc.source = source;
  doc.processes = run.graphs.processes;
  tag::AnalyzeGraphs(doc);
  return doc;
}

LoadedPage Load(const tag::TagDocument& doc, const std::string& hash = "") {
  const std::string path = cw::testing::MakeTempDir("tag-html") + "/tag.html";
  std::ofstream(path) << tag::TagHtml(doc);
  return LoadInBrowser(path + hash);
}

TEST(TagHtmlTest, TheClassesAndTheirGraphsAreDrawn) {
  // HaloExchange(3) (tests/tag/tag_fixture.h): classes {0}, {1, 2}, {3}.
  const TagRun run = BuildScenarioTags(HaloExchange(3));
  const tag::TagDocument doc = Document(run, "halo </script><b>x</b>");
  const LoadedPage page = Load(doc);
  EXPECT_NE(page.dom.find("data-status=\"ok\""), std::string::npos) << page.console;
  EXPECT_TRUE(page.console.empty()) << page.console;
  EXPECT_EQ(Count(page.dom, "class=\"class-row\""), doc.clusters.size());
  // The first class's graph: a box per node, a path per flow and completion edge.
  const tag::ProcessGraph& rep = doc.processes[doc.clusters[0].representative];
  size_t local = 0;
  for (const tag::Edge& e : rep.edges) {
    local += e.kind == tag::EdgeKind::kFlow || e.kind == tag::EdgeKind::kCompletion ? 1 : 0;
  }
  EXPECT_EQ(Count(page.dom, "<g class=\"node"), rep.nodes.size());
  EXPECT_EQ(Count(page.dom, "<path class=\"edge"), local);
  EXPECT_EQ(Count(page.dom, "class=\"edge back"), 1u);  // MPI_Waitall -> MPI_Isend
  EXPECT_GE(Count(page.dom, "class=\"edge completion"), 1u);
  EXPECT_EQ(Count(page.dom, "class=\"cell\""), 6u);         // six pairs of neighbours
  EXPECT_EQ(page.dom.find("<b>x</b>"), std::string::npos);  // the source is text, not markup
}

TEST(TagHtmlTest, ASelectedNodeShowsItsStatisticsAndTheMembers) {
  const TagRun run = BuildScenarioTags(HaloExchange(3));
  const tag::TagDocument doc = Document(run, "halo");
  // Class 2 holds ranks 1 and 2; select its MPI_Recv node.
  ASSERT_EQ(doc.clusters.size(), 3u);
  const tag::ProcessGraph& rep = doc.processes[doc.clusters[1].representative];
  uint32_t recv = 0;
  for (uint32_t v = 0; v < rep.nodes.size(); ++v) {
    if (rep.nodes[v].name == "MPI_Recv") recv = v;
  }
  const LoadedPage page = Load(doc, "#node=1." + std::to_string(recv));
  EXPECT_NE(page.dom.find("data-status=\"ok\""), std::string::npos) << page.console;
  EXPECT_NE(page.dom.find("<h3 id=\"details-name\">MPI_Recv</h3>"), std::string::npos);
  EXPECT_EQ(Count(page.dom, "class=\"member\""), 2u);   // ranks 1 and 2
  EXPECT_EQ(Count(page.dom, "class=\"message\""), 2u);  // from 0 and from 2 (or 1 and 3)
  EXPECT_EQ(Count(page.dom, "class=\"node selected\""), 1u);
}

}  // namespace
}  // namespace cw::test
