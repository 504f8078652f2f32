#include "tests/common/browser_check.h"

#include <filesystem>
#include <fstream>
#include <iterator>

#include <gtest/gtest.h>

#include "report/html_report.h"
#include "tests/common/paths.h"

namespace cw::test {
namespace {

namespace fs = std::filesystem;

const char* kSections[] = {"overview", "browser", "charts", "instances"};

std::string Chromium(const std::string& profile) {
  // Root needs --no-sandbox; a profile of its own lets tests run side by side.
  return "timeout 120 chromium --headless --no-sandbox --disable-gpu --hide-scrollbars "
         "--user-data-dir=" +
         profile + " ";
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
  const std::string dir = ArtifactDir("html");
  for (const char* section : kSections) {
    const std::string png = dir + "/" + name + "-" + section + ".png";
    std::string log;
    fs::remove(png);
    EXPECT_EQ(RunCommand(Chromium(profile) + "--window-size=1400,1000 --screenshot=" + png +
                             " 'file://" + page + "#" + section + "'",
                         &log),
              0)
        << log;
    ASSERT_TRUE(fs::exists(png)) << png << ": " << log;
    EXPECT_GT(fs::file_size(png), 10000u) << png << " looks empty";
  }
}

}  // namespace

size_t Count(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

LoadedPage LoadInBrowser(const std::string& page) {
  const std::string profile = testing::MakeTempDir("chromium-profile");
  LoadedPage out;
  std::string log;
  const std::string dom_file = profile + "/dom.html";
  int rc = RunCommand(Chromium(profile) + "--enable-logging=stderr --v=0 --dump-dom file://" +
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

LoadedPage ExpectReportDrawn(const Analysis& a, const std::string& name, bool expect_waits) {
  const std::string page = testing::MakeTempDir("html-" + name) + "/report.html";
  Status written = report::WriteHtmlReport(a.report, a.trace, a.graph, page);
  EXPECT_TRUE(written) << written.error().message();
  if (!written) return {};
  EXPECT_LT(fs::file_size(page), 5u * 1000 * 1000) << "report.html must stay under 5 MB";
  LoadedPage loaded = LoadInBrowser(page);
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
  return loaded;
}

}  // namespace cw::test
