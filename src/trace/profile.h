// Time per call path and location: exclusive time, inclusive time and visits.
//
// Exclusive time is the time a call path spends in itself, without its children; inclusive time
// includes them. Both are in ticks and come from the Enter/Leave nesting only.
//
//   LocationProfile p = ComputeLocationProfile(trace, loc);
//   uint64_t self = p.exclusive[callpath];
#pragma once

#include <cstdint>
#include <vector>

#include "trace/trace.h"

namespace cw::trace {

struct LocationProfile {
  std::vector<uint64_t> exclusive;  // indexed by call path
  std::vector<uint64_t> inclusive;
  std::vector<uint64_t> visits;
  uint64_t total = 0;  // sum of the inclusive time of the root call paths
};

LocationProfile ComputeLocationProfile(const Trace& trace, uint32_t location);

}  // namespace cw::trace
