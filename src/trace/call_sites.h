// Where in the source each call path is called from: causeway's walked call paths (causeway
// trace --callpaths) give the Enter of each walked function and of each call the attribute
// "causeway::call_site", a source location (the line in the calling function).
//
// A call path is one (parent, region) pair, so the calls of one function from several lines of
// the same caller share it: its call site is the one whose source location was defined first,
// and `sites` counts the distinct ones. Each location's pairs are found apart (CallSiteUses), so
// that the ranks of an MPI job can gather them and agree with one process.
//
//   std::vector<CallSiteUse> uses = CallSiteUses(trace, location);   // per location
//   std::vector<CallSite> sites = CallSites(uses, trace.call_tree.size());  // by call path
//   if (sites[cp].location != kNone) ... defs.source_locations[sites[cp].location]
#pragma once

#include <cstdint>
#include <vector>

#include "trace/trace.h"

namespace cw::trace {

inline constexpr const char* kCallSiteAttribute = "causeway::call_site";

// One call path entered at one source location, on some location of the trace.
struct CallSiteUse {
  uint32_t callpath = kNone;
  uint32_t location = kNone;  // index into Definitions::source_locations
};

struct CallSite {
  uint32_t location = kNone;  // the first defined of its source locations
  uint32_t sites = 0;         // distinct source locations
};

// The distinct (call path, source location) pairs of `location`'s Enter events.
std::vector<CallSiteUse> CallSiteUses(const Trace& trace, uint32_t location);

// Per call path (`callpaths` of them), from the pairs of every location in any order.
std::vector<CallSite> CallSites(std::vector<CallSiteUse> uses, uint32_t callpaths);

}  // namespace cw::trace
