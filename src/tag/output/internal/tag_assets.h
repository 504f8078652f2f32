// tag.html's assets, embedded at build time (cmake/EmbedAssets.cmake): Debian's d3 and the
// page's own style, markup and script (tag/output/html/).
#pragma once

namespace cw::tag::internal {

extern const char kD3[];
extern const char kTagCss[];
extern const char kTagBody[];
extern const char kTagJs[];

}  // namespace cw::tag::internal
