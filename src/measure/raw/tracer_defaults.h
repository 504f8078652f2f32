// The tracer's defaults, in one place: libcauseway-mpi.so applies them when its environment
// says nothing, and `causeway trace --help` shows them from here.
#pragma once

#include <cstdint>

namespace cw::measure {

inline constexpr uint64_t kDefaultBufferBytes = uint64_t{1} << 20;  // per rank, before a flush
inline constexpr uint64_t kDefaultPollGapNs = 1000;        // unsuccessful polls closer are folded
inline constexpr uint32_t kDefaultMaxDepth = 128;          // innermost frames a stack walk keeps
inline constexpr uint64_t kDefaultSamplingNs = 2'000'000;  // CPU time between two samples

}  // namespace cw::measure
