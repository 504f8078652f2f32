// What a subcommand that does not write a report says about the problems it worked around
// (`causeway export`): every repair and inconsistency the reader and matcher found, as
// analyze's summary lists them, so that no output rests on a damaged trace without a word.
#pragma once

#include <cstdio>

#include "base/diagnostics.h"

namespace cw::cli {

// Writes "Trace problems: none." or one line per problem kind to `out`.
void PrintTraceProblems(const Diagnostics& problems, std::FILE* out);

}  // namespace cw::cli
