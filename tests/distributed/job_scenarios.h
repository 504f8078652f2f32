// Hand-built traces for the analysis as an MPI job: inconsistent ones (unmatched messages, a
// collective one location never calls, a location whose events end early) and one-sided
// epochs whose pairs span analysis ranks. Each writes its trace and returns the anchor file.
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace cw::test {

// (name, anchor) of every job scenario, written under a fresh temporary directory.
std::vector<std::pair<std::string, std::string>> WriteJobScenarios();

}  // namespace cw::test
