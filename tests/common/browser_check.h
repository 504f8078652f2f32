// report.html in a real browser: headless Chromium (Debian's `chromium`) loads the page; the
// checks read the document after its script ran and the console messages it produced, and
// keep a screenshot of each section in build/test-artifacts/html/ for people to look at.
#pragma once

#include <string>

#include "tests/common/analysis_fixture.h"

namespace cw::test {

struct LoadedPage {
  std::string dom;      // the document after the scripts ran
  std::string console;  // console messages the page produced, one per line
};

LoadedPage LoadInBrowser(const std::string& page);

// Occurrences of `what` in `text`.
size_t Count(const std::string& text, const std::string& what);

// Writes the report of `a` as report.html, loads it and checks that it drew every section
// without a console message, that it stays under 5 MB, and that the charts hold shapes (the
// waiting heat map and the timelines only if `expect_waits`); keeps screenshots named `name`.
// Returns the page as loaded, for checks of its own.
LoadedPage ExpectReportDrawn(const Analysis& a, const std::string& name, bool expect_waits);

}  // namespace cw::test
