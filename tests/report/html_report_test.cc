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
  const size_t chart = loaded.dom.find("id=\"chart-balance\"");
  ASSERT_NE(chart, std::string::npos);
  EXPECT_NE(loaded.dom.find("<rect", chart), std::string::npos);
  // Without the analysis the section says it was turned off.
  test::Analysis plain = test::AnalyzeScenario(s);
  ASSERT_TRUE(WriteHtmlReport(plain.report, plain.trace, plain.graph, page));
  EXPECT_NE(test::LoadInBrowser(page).dom.find("causeway analyze ran with --no-advice"),
            std::string::npos);
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
