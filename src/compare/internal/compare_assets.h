// compare.html's assets, embedded at build time (src/compare/CMakeLists.txt,
// cmake/EmbedAssets.cmake).
#pragma once

namespace cw::compare::internal {

extern const char kD3[];           // Debian's d3 (libjs-d3)
extern const char kCompareCss[];   // html/compare.css
extern const char kCompareBody[];  // html/compare_body.html
extern const char kCompareJs[];    // html/compare.js

}  // namespace cw::compare::internal
