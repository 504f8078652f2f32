// Hand-built traces for the analysis as an MPI job: inconsistent ones (unmatched messages, a
// collective one location never calls, a location whose events end early, synchronisations that
// contradict each other), one-sided epochs whose pairs span analysis ranks, v-collectives whose
// members name their senders, and one-sided transfers that compete for a target. Each writes
// its trace and returns the anchor file.
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace cw::test {

// (name, anchor) of every job scenario, written under a fresh temporary directory.
std::vector<std::pair<std::string, std::string>> WriteJobScenarios();

// One of them: four ranks, a barrier, an allreduce rank 3 never calls (its later calls slide one
// instance ahead), a bcast from rank 2 and a reduce to rank 1; then two fences on a window of
// which rank 0 calls one. Written into `dir`, with how ranks' recording ended as `endings` notes
// (rank, how), as causeway's tracer notes it.
std::string WriteMissingCollectiveTrace(
    const std::string& dir, const std::vector<std::pair<int, std::string>>& endings = {});

}  // namespace cw::test
