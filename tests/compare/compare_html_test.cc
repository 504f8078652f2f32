// compare.html in a real browser (headless Chromium): a scaling study and a set of revisions,
// each drawn without a console message, with its charts holding shapes; a hostile run label
// stays text.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>

#include "compare/compare_html.h"
#include "compare/comparison.h"
#include "testing/scenario.h"
#include "tests/common/browser_check.h"

namespace cw::compare {
namespace {

RunSummary MakeRun(const std::string& label, uint32_t processes, double runtime, double solve,
                   double exchange) {
  RunSummary r;
  r.label = label;
  r.source = label;
  r.processes = processes;
  r.runtime = runtime;
  r.callpaths["main/solve"] = CallpathTime{solve, solve * processes};
  r.callpaths["main/MPI_Alltoall"] = CallpathTime{exchange, exchange * processes};
  r.callpaths["main/MPI_Init"] = CallpathTime{0.2, 0.2 * processes};
  r.setup.insert("main/MPI_Init");
  r.metrics["time"] = runtime * processes;
  r.categories = {Category{"comp", "Computation", solve * processes},
                  Category{"mpi", "MPI", (exchange + 0.2) * processes}};
  r.pop.parallel = 0.8;
  r.pop.average_computation = solve;
  return r;
}

// Writes the page to a file and loads it.
test::LoadedPage Load(const std::string& html) {
  const std::string path = cw::testing::MakeTempDir("compare-html") + "/compare.html";
  std::ofstream(path) << html;
  return test::LoadInBrowser(path);
}

TEST(CompareHtmlTest, AScalingStudyIsDrawn) {
  std::vector<RunSummary> runs;
  for (uint32_t p : {2u, 4u, 8u, 16u}) {
    runs.push_back(
        MakeRun("p" + std::to_string(p), p, 40.0 / p + 0.01 * p + 0.2, 40.0 / p, 0.01 * p));
    // A query that takes a microsecond on every count (and 10 ns more per process: a model
    // with a term, as the drawn paths have).
    const double query = 1e-6 + 1e-8 * p;
    runs.back().callpaths["main/MPI_Comm_size"] = CallpathTime{query, query * p};
  }
  runs[0].label = "</script><b>p2</b>";  // untrusted text
  Result<Comparison> c = Compare(runs, {});
  ASSERT_TRUE(c.has_value());
  const test::LoadedPage page = Load(CompareHtml(*c, runs[0].label));
  EXPECT_NE(page.dom.find("data-status=\"ok\""), std::string::npos) << page.console;
  EXPECT_TRUE(page.console.empty()) << page.console;
  // The efficiency line with a point per run, the stacked categories (2 per run), and a model
  // curve with its points for each non-setup call path (the setup one is not drawn, nor the
  // query that takes a microsecond: below 1 % of the runtime, it dominates nothing).
  EXPECT_EQ(test::Count(page.dom, "class=\"run\""), 4u);
  EXPECT_EQ(test::Count(page.dom, "class=\"category\""), 8u);
  EXPECT_EQ(test::Count(page.dom, "class=\"model\""), 2u);
  EXPECT_EQ(test::Count(page.dom, "class=\"point\""), 8u);
  EXPECT_EQ(test::Count(page.dom, "class=\"ideal\""), 1u);
  EXPECT_EQ(page.dom.find("<b>p2</b>"), std::string::npos);  // text, not markup
  EXPECT_NE(page.dom.find("&lt;/script&gt;&lt;b&gt;p2"), std::string::npos);
}

TEST(CompareHtmlTest, RevisionsAreDrawnSideBySide) {
  Result<Comparison> c = Compare({MakeRun("old", 8, 10, 6, 2), MakeRun("new", 8, 8, 4, 2)}, {});
  ASSERT_TRUE(c.has_value());
  const test::LoadedPage page = Load(CompareHtml(*c, "old, new"));
  EXPECT_NE(page.dom.find("data-status=\"ok\""), std::string::npos) << page.console;
  EXPECT_TRUE(page.console.empty()) << page.console;
  // Two call paths (solve, MPI_Alltoall; MPI_Init is setup), two revisions each.
  EXPECT_EQ(test::Count(page.dom, "class=\"revision\""), 4u);
  EXPECT_EQ(test::Count(page.dom, "class=\"category\""), 4u);
  EXPECT_EQ(test::Count(page.dom, "class=\"run\""), 0u);  // no efficiency chart
  EXPECT_NE(page.dom.find("main/solve"), std::string::npos);
}

}  // namespace
}  // namespace cw::compare
