// summary.txt of `causeway compare`: what a person reads first.
#pragma once

#include <string>

#include "compare/comparison.h"

namespace cw::compare {

std::string CompareSummaryText(const Comparison& c);

}  // namespace cw::compare
