// compare.html: one self-contained page (like report.html: its style, Debian's d3 and its own
// script inside it, no network needed) with the comparison's efficiency against the ideal line,
// the time per category stacked per run, each dominating call path's measured points with its
// model drawn through them, and the revisions' call paths side by side.
#pragma once

#include <string>

#include "compare/comparison.h"

namespace cw::compare {

// `title`: what the page's title names (untrusted: escaped).
std::string CompareHtml(const Comparison& c, const std::string& title);

}  // namespace cw::compare
