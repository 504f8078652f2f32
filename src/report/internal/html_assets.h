// The files report.html inlines (private to report/), embedded at build time by
// cmake/EmbedAssets.cmake: Debian's d3 and the page's own style, markup and script
// (src/report/html/).
#pragma once

namespace cw::report::internal {

extern const char kD3[];          // /usr/share/javascript/d3/d3.min.js (libjs-d3)
extern const char kReportCss[];   // html/report.css
extern const char kReportBody[];  // html/report_body.html
extern const char kReportJs[];    // html/report.js

}  // namespace cw::report::internal
