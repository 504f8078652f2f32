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
