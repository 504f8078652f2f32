// Resolution hints (PPW §5.2.5, Table 5-3, with what MPI users need besides: a receive posted
// earlier, message aggregation, another collective, overlap of communication and computation).
#pragma once

#include <string>
#include <vector>

#include "analysis/advice/advice_types.h"

namespace cw::analysis {

// What to try against a finding of `pattern` on a construct of generic type `type`; with
// `between_threads`, one that synchronises the threads of a process (OpenMP's barriers, critical
// sections and locks, a parallel region's work).
std::vector<std::string> HintsFor(AdvicePattern pattern, GenericType type,
                                  bool between_threads = false);

// A possibly redundant barrier's: what would have to be checked for each UnseenDependency bit
// of `unseen` before removing it.
std::vector<std::string> PossiblyRedundantHints(uint8_t unseen);

}  // namespace cw::analysis
