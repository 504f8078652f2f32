// The comma-separated lists of the measurement libraries' environment (CAUSEWAY_FILTER_*,
// CAUSEWAY_FOLD, CAUSEWAY_TAG_REGIONS, ...), read the same way by both.
#pragma once

#include <string>
#include <vector>

namespace cw::measure {

// The non-empty items of `text` between commas (none for nullptr).
std::vector<std::string> SplitPatterns(const char* text);

}  // namespace cw::measure
