// compare.json (docs/report-format.md, "compare.json").
#pragma once

#include <string>

#include "compare/comparison.h"

namespace cw::compare {

std::string CompareJson(const Comparison& c);

}  // namespace cw::compare
