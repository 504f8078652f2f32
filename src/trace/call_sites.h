// Where in the source each call path is called from: causeway's walked call paths (causeway
// trace --callpaths) give the Enter of each walked function and of each call the attribute
// "causeway::call_site", a source location (the line in the calling function).
//
// A call path is one (parent, region) pair, so the calls of one function from several lines of
// the same caller share it: its call site is the first one recorded, and `sites` counts the
// distinct ones.
//
//   std::vector<CallSite> sites = CallSites(trace);   // by call-path id
//   if (sites[cp].location != kNone) ... defs.source_locations[sites[cp].location]
#pragma once

#include <cstdint>
#include <vector>

#include "trace/trace.h"

namespace cw::trace {

inline constexpr const char* kCallSiteAttribute = "causeway::call_site";

struct CallSite {
  uint32_t location = kNone;  // index into Definitions::source_locations
  uint32_t sites = 0;         // distinct call sites of the call path
};

std::vector<CallSite> CallSites(const Trace& trace);

}  // namespace cw::trace
