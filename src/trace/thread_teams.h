// Which thread of a process is its master, and where the teams of its worker threads hang in
// the call tree.
//
// A worker thread's records begin at the parallel region it runs (Score-P's and causeway's
// traces alike); its master's begin at main. Each team a worker runs hangs below the call path
// its master was in when it forked that team (ThreadFork, or the legacy OmpFork), as Scalasca's
// call trees have them: a parallel region in a routine called from many places runs on every
// thread under each of those places, and its threads' time there compares with the master's
// (idle threads, limited parallelism). The reader rewrites a worker's location-local tree and
// records so (GraftTeamsAtForks); where its master's forks are not at hand, AssembleCallTree
// (trace.h) hangs the worker's root parallel regions where the master first entered them below
// another region, and sim's streamed reading does the same.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "trace/call_tree.h"
#include "trace/definitions.h"
#include "trace/location_events.h"

namespace cw::trace {

// The master thread of each location's process: the first CPU thread of its location group
// (kNone for the master itself and for locations outside a process).
std::vector<uint32_t> MastersOfThreads(const Definitions& defs);

// Whether `region` is an OpenMP parallel region (role parallel, paradigm OpenMP).
bool IsOmpParallelRegion(const Definitions& defs, uint32_t region);

// A fork of a master: when, and the call path (an id of the master's location-local tree) that
// was open at it, kNone if none was.
struct ForkPoint {
  uint64_t time = 0;
  uint32_t callpath = kNone;
};

// The forks in a master's records, in time order; its Enters still carry local call paths.
std::vector<ForkPoint> ForkPoints(const LocationEvents& master);

// A worker's location-local tree marks the master's call path `c` with a root node of region
// kMasterCallpath | c; AssembleCallTree puts the master's global call path there.
inline constexpr uint32_t kMasterCallpath = 0x80000000u;
inline bool IsMasterCallpath(uint32_t region) { return (region & kMasterCallpath) != 0; }

// Rewrites a worker's local tree and its records' call paths: each parallel region it enters at
// its top level hangs below a kMasterCallpath node of the master's call path at the latest of
// `forks` at or before that Enter. Regions entered before any fork stay roots. A Leave carrying
// `calls_attribute` counts its calls as visits (trace/polling.h), as when it was read.
void GraftTeamsAtForks(std::span<const ForkPoint> forks, const Definitions& defs,
                       uint32_t calls_attribute, CallTree& tree, LocationEvents& events);

}  // namespace cw::trace
