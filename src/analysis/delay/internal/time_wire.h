// A time vector on the wire between the ranks of an MPI analysis job (private to analysis/delay):
// its call paths ascend, so they travel as differences, and its ticks as varints. The count is
// the caller's to write, so that it can share a varint with flags.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

#include "analysis/syncpoints/time_map.h"
#include "comm/wire.h"

namespace cw::analysis::internal {

inline void PutTimeEntries(comm::ByteWriter& out, std::span<const CallpathTicks> time) {
  uint32_t previous = 0;
  for (const CallpathTicks& t : time) {
    out.PutDelta(t.callpath, previous);
    previous = t.callpath;
    out.PutVarint(static_cast<uint64_t>(t.ticks));  // time is never negative
  }
}

inline TimeVector GetTimeEntries(comm::ByteReader& in, size_t count) {
  TimeVector time(count);
  uint32_t previous = 0;
  for (CallpathTicks& t : time) {
    t.callpath = previous = in.GetDelta32(previous);
    t.ticks = static_cast<int64_t>(in.GetVarint());
  }
  return time;
}

}  // namespace cw::analysis::internal
