// report.html in a real browser: headless Chromium (Debian's `chromium`) loads the page, the
// script draws every section without a console message, the DOM after loading holds the
// charts, untrusted region names stay text, and a screenshot of each section is kept in
// build/test-artifacts/html/ for people to look at.
#include <filesystem>
#include <fstream>
#include <regex>
#include <string>

#include <gtest/gtest.h>

#include "report/html_report.h"
#include "tests/common/analysis_fixture.h"
#include "tests/common/paths.h"
#include "tests/common/traced_program.h"

namespace cw::report {
namespace {

namespace fs = std::filesystem;

const char* kSections[] = {"overview", "browser", "charts", "instances"};

std::string Chromium(const std::string& profile) {
  // Root needs --no-sandbox; a profile of its own lets tests run side by side.
  return "timeout 120 chromium --headless --no-sandbox --disable-gpu --hide-scrollbars "
         "--user-data-dir=" +
         profile + " ";
}

struct Loaded {
  std::string dom;      // the document after the scripts ran
  std::string console;  // console messages the page produced
};

Loaded Load(const std::string& page) {
  const std::string profile = testing::MakeTempDir("chromium-profile");
  Loaded out;
  std::string log;
  const std::string dom_file = profile + "/dom.html";
  int rc = test::RunCommand(Chromium(profile) + "--enable-logging=stderr --v=0 --dump-dom file://" +
                                page + " > " + dom_file,
                            &log);
  EXPECT_EQ(rc, 0) << log;
  std::ifstream in(dom_file);
  out.dom.assign(std::istreambuf_iterator<char>(in), {});
  for (size_t at = log.find("CONSOLE"); at != std::string::npos; at = log.find("CONSOLE", at + 1)) {
    out.console += log.substr(at, log.find('\n', at) - at) + "\n";
  }
  return out;
}

size_t Count(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

// The number of <rect> elements inside the first <svg class="cls">.
size_t RectsIn(const std::string& dom, const std::string& cls) {
  size_t start = dom.find("<svg class=\"" + cls + "\"");
  if (start == std::string::npos) return 0;
  size_t end = dom.find("</svg>", start);
  return Count(dom.substr(start, end - start), "<rect");
}

void Screenshots(const std::string& page, const std::string& name) {
  const std::string profile = testing::MakeTempDir("chromium-profile");
  const std::string dir = test::ArtifactDir("html");
  for (const char* section : kSections) {
    const std::string png = dir + "/" + name + "-" + section + ".png";
    std::string log;
    fs::remove(png);
    EXPECT_EQ(test::RunCommand(Chromium(profile) + "--window-size=1400,1000 --screenshot=" + png +
                                   " 'file://" + page + "#" + section + "'",
                               &log),
              0)
        << log;
    ASSERT_TRUE(fs::exists(png)) << png << ": " << log;
    EXPECT_GT(fs::file_size(png), 10000u) << png << " looks empty";
  }
}

// Writes the report of `a` as HTML, loads it, checks every section drew, keeps screenshots.
void ExpectDrawn(const test::Analysis& a, const std::string& name, bool expect_waits) {
  const std::string page = testing::MakeTempDir("html-" + name) + "/report.html";
  Status written = WriteHtmlReport(a.report, a.trace, a.graph, page);
  ASSERT_TRUE(written) << written.error().message();
  EXPECT_LT(fs::file_size(page), 5u * 1000 * 1000) << "report.html must stay under 5 MB";
  Loaded loaded = Load(page);
  EXPECT_NE(loaded.dom.find("data-status=\"ok\""), std::string::npos) << loaded.dom.substr(0, 400);
  EXPECT_EQ(loaded.console, "") << "the page logged to the console";
  // The overview, the browser panes and the charts are there.
  EXPECT_GE(Count(loaded.dom, "<dt>"), 5u);
  EXPECT_GE(Count(loaded.dom, "<li>"), 3u);
  EXPECT_GT(RectsIn(loaded.dom, "chart-stacked"), 0u);
  if (expect_waits) {
    EXPECT_GT(RectsIn(loaded.dom, "chart-heatmap"), 0u);
    EXPECT_GT(RectsIn(loaded.dom, "chart-timeline"), 1u);
  }
  if (!a.graph.messages.empty()) {
    EXPECT_GT(RectsIn(loaded.dom, "chart-matrix"), 0u);
    EXPECT_GT(RectsIn(loaded.dom, "chart-histogram"), 0u);
  }
  Screenshots(page, name);
}

TEST(HtmlReportTest, HostileRegionNamesStayText) {
  // Rank 1 waits in a region whose name would be markup, and one that would close the
  // script element holding the data.
  testing::Scenario s(2);
  s.rank(0)
      .Enter(0, "main")
      .Call(0, 10, "<script>alert(1)</script>")
      .Send(10, 11, 1, 0, 8)
      .Leave(20, "main");
  s.rank(1)
      .Enter(0, "main")
      .Enter(1, "</script><script>alert(2)</script><!--")
      .Recv(4, 12, 0, 0, 8)
      .Leave(13, "</script><script>alert(2)</script><!--")
      .Leave(20, "main");
  test::Analysis a = test::AnalyzeScenario(s);
  const std::string html = HtmlReport(a.report, a.trace, a.graph);
  EXPECT_EQ(html.find("<script>alert"), std::string::npos);
  EXPECT_EQ(html.find("</script><script>alert"), std::string::npos);
  EXPECT_EQ(Count(html, "<script>"), 3u);  // d3, the data, the page's own script
  ExpectDrawn(a, "hostile-names", /*expect_waits=*/true);
  // In the live document the names are text: escaped when serialised, never elements.
  const std::string page = testing::MakeTempDir("html-hostile") + "/report.html";
  ASSERT_TRUE(WriteHtmlReport(a.report, a.trace, a.graph, page));
  Loaded loaded = Load(page);
  EXPECT_NE(loaded.dom.find("&lt;script&gt;alert(1)&lt;/script&gt;"), std::string::npos);
  EXPECT_EQ(loaded.dom.find("<script>alert"), std::string::npos);
  EXPECT_EQ(Count(loaded.dom, "<script"), 3u);
}

TEST(HtmlReportTest, RealTracesDraw) {
  for (const char* name : {"2_jacobi_blame_cpu_015", "sst-macro-otf2_test_traces"}) {
    SCOPED_TRACE(name);
    ExpectDrawn(test::AnalyzeFile(test::RealTrace(name) + "/traces.otf2"), name,
                /*expect_waits=*/true);
  }
}

}  // namespace
}  // namespace cw::report
