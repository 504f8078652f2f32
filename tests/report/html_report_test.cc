// report.html in a real browser (tests/common/browser_check.h): every section draws on a real
// trace and on hand-built traces, and untrusted region names stay text.
#include <filesystem>
#include <fstream>
#include <regex>
#include <string>

#include <gtest/gtest.h>

#include "report/html_report.h"
#include "tests/common/analysis_fixture.h"
#include "tests/common/browser_check.h"
#include "tests/common/paths.h"

namespace cw::report {
namespace {

namespace fs = std::filesystem;

TEST(HtmlReportTest, HostileRegionNamesStayText) {
  // Region names that would be markup, or would close the script element holding the data.
  test::Analysis a = test::AnalyzeScenario(test::HostileNamesLateSender());
  const std::string html = HtmlReport(a.report, a.trace, a.graph);
  EXPECT_EQ(html.find("<script>alert"), std::string::npos);
  EXPECT_EQ(html.find("</script><script>alert"), std::string::npos);
  EXPECT_EQ(test::Count(html, "<script>"), 3u);  // d3, the data, the page's own script
  test::ExpectReportDrawn(a, "hostile-names", /*expect_waits=*/true);
  // In the live document the names are text: escaped when serialised, never elements.
  const std::string page = testing::MakeTempDir("html-hostile") + "/report.html";
  ASSERT_TRUE(WriteHtmlReport(a.report, a.trace, a.graph, page));
  test::LoadedPage loaded = test::LoadInBrowser(page);
  EXPECT_NE(loaded.dom.find("&lt;script&gt;alert(1)&lt;/script&gt;"), std::string::npos);
  EXPECT_EQ(loaded.dom.find("<script>alert"), std::string::npos);
  EXPECT_EQ(test::Count(loaded.dom, "<script"), 3u);
}

TEST(HtmlReportTest, BottlenecksShowFindingsCausesAndLoadBalance) {
  // advice_test.cc's Late Sender: rank 1's second receive waits for rank 0's send after b.
  const testing::Scenario s = test::LateSecondSend();
  analysis::AnalysisOptions options;
  options.advice = true;
  test::Analysis a = test::AnalyzeScenarioWith(s, options);
  test::ExpectReportDrawn(a, "bottlenecks", /*expect_waits=*/true);
  const std::string page = testing::MakeTempDir("html-advice") + "/report.html";
  ASSERT_TRUE(WriteHtmlReport(a.report, a.trace, a.graph, page));
  test::LoadedPage loaded = test::LoadInBrowser(page);
  EXPECT_EQ(loaded.console, "");
  // The finding as a row, selected, with its cause and its load-balance chart.
  EXPECT_EQ(test::Count(loaded.dom, "<tr class=\"row"), 1u) << loaded.dom;
  EXPECT_NE(loaded.dom.find("<td>late_sender</td>"), std::string::npos);
  EXPECT_NE(loaded.dom.find("<td>main/MPI_Send</td>"), std::string::npos);  // the cause
  // Its root cause, b's imbalance on rank 0: 8 s against a mean of 4 s.
  const size_t roots = loaded.dom.find("id=\"advice-roots\"");
  ASSERT_NE(roots, std::string::npos);
  EXPECT_NE(loaded.dom.find("<td>main/b</td>", roots), std::string::npos) << loaded.dom;
  EXPECT_NE(loaded.dom.find("<td>imbalance</td>", roots), std::string::npos);
  EXPECT_NE(loaded.dom.find("<td>mean 4.00 s</td>", roots), std::string::npos);
  const size_t chart = loaded.dom.find("id=\"chart-balance\"");
  ASSERT_NE(chart, std::string::npos);
  EXPECT_NE(loaded.dom.find("<rect", chart), std::string::npos);
  // Without the analysis the section says it was turned off.
  test::Analysis plain = test::AnalyzeScenario(s);
  ASSERT_TRUE(WriteHtmlReport(plain.report, plain.trace, plain.graph, page));
  EXPECT_NE(test::LoadInBrowser(page).dom.find("causeway analyze ran with --no-advice"),
            std::string::npos);
}

TEST(HtmlReportTest, TheBreakdownNamesBarriersApartFromCollectives) {
  // Two ranks: an MPI_Allreduce (0..2) and an MPI_Barrier (2..3). Scalasca's metric tree names
  // both "Collective"; the breakdown says "Collective communication" and "Barriers", as
  // summary.txt does.
  testing::Scenario s(2);
  for (int r = 0; r < 2; ++r) {
    s.rank(r)
        .Enter(0, "main")
        .Collective(0, 2, "MPI_Allreduce", OTF2_COLLECTIVE_OP_ALLREDUCE, 8, 8)
        .Collective(2, 3, "MPI_Barrier", OTF2_COLLECTIVE_OP_BARRIER, 0, 0)
        .Leave(4, "main");
  }
  test::Analysis a = test::AnalyzeScenario(s);
  const std::string page = testing::MakeTempDir("html-breakdown") + "/report.html";
  ASSERT_TRUE(WriteHtmlReport(a.report, a.trace, a.graph, page));
  const test::LoadedPage loaded = test::LoadInBrowser(page);
  EXPECT_EQ(loaded.console, "");
  const size_t table = loaded.dom.find("id=\"breakdown\"");
  ASSERT_NE(table, std::string::npos);
  const std::string breakdown =
      loaded.dom.substr(table, loaded.dom.find("</table>", table) - table);
  EXPECT_NE(breakdown.find(">Collective communication<"), std::string::npos) << breakdown;
  EXPECT_NE(breakdown.find(">Barriers<"), std::string::npos) << breakdown;
  EXPECT_EQ(breakdown.find(">Collective<"), std::string::npos) << breakdown;
}

TEST(HtmlReportTest, TheRunsFactsCountOneSidedTransfers) {
  // Two puts of 8 bytes and a get of 16 bytes into rank 1's window.
  test::Analysis a = test::AnalyzeScenario(test::TwoPutsAndAGet());
  const std::string page = testing::MakeTempDir("html-one-sided") + "/report.html";
  ASSERT_TRUE(WriteHtmlReport(a.report, a.trace, a.graph, page));
  const test::LoadedPage loaded = test::LoadInBrowser(page);
  EXPECT_EQ(loaded.console, "");
  EXPECT_NE(loaded.dom.find("<dt>Communication</dt><dd>0 messages matched (0 B sent), 0 "
                            "collective operations, 3 one-sided transfers (2 puts of 16 B, 1 "
                            "gets of 16 B)</dd>"),
            std::string::npos)
      << loaded.dom.substr(loaded.dom.find("id=\"facts\""), 1200);
}

TEST(HtmlReportTest, RealTracesDraw) {
  for (const char* name : {"2_jacobi_blame_cpu_015", "sst-macro-otf2_test_traces"}) {
    SCOPED_TRACE(name);
    test::ExpectReportDrawn(test::AnalyzeFile(test::RealTrace(name) + "/traces.otf2"), name,
                            /*expect_waits=*/true);
  }
}

TEST(HtmlReportTest, EveryRealTraceLoadsWithoutAnError) {
  // Without screenshots (one browser start per trace): traces without messages, without
  // ranks (GPU streams) or without waits must draw as well.
  for (const std::string& name : test::RealTraceNames()) {
    SCOPED_TRACE(name);
    test::Analysis a = test::AnalyzeFile(test::RealTrace(name) + "/traces.otf2");
    const std::string page = testing::MakeTempDir("html-real") + "/report.html";
    ASSERT_TRUE(WriteHtmlReport(a.report, a.trace, a.graph, page));
    test::LoadedPage loaded = test::LoadInBrowser(page);
    EXPECT_NE(loaded.dom.find("data-status=\"ok\""), std::string::npos);
    EXPECT_EQ(loaded.console, "");
  }
}

}  // namespace
}  // namespace cw::report
