// Which thread of a process is its master, for the call paths of OpenMP threads.
//
// A worker thread's records begin at the parallel region it runs (Score-P's and causeway's
// traces alike); its master's begin at main. The reader hangs a worker's root parallel region
// where the master first entered that region below another one (AssembleCallTree in trace.h;
// sim's streamed reading follows the same rule), so that every thread of a team shares the
// construct's call paths, as Cube shows threads.
#pragma once

#include <cstdint>
#include <vector>

#include "trace/definitions.h"

namespace cw::trace {

// The master thread of each location's process: the first CPU thread of its location group
// (kNone for the master itself and for locations outside a process).
std::vector<uint32_t> MastersOfThreads(const Definitions& defs);

// Whether `region` is an OpenMP parallel region (role parallel, paradigm OpenMP).
bool IsOmpParallelRegion(const Definitions& defs, uint32_t region);

}  // namespace cw::trace
