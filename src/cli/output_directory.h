// Where a subcommand writes its files unless -o says otherwise.
#pragma once

#include <string>

namespace cw::cli {

// "<prefix><name of the trace's directory>": "run1/traces.otf2" and "run1/" both give
// "causeway-run1" for the prefix "causeway-".
std::string DefaultOutputDirectory(const std::string& trace_path, const std::string& prefix);

}  // namespace cw::cli
