// The call path of an activity as Sikora et al. 2016 §3.3 identifies it: the return addresses on
// the stack, from the program's outermost frame to the call site of the activity, read by a stack
// walk at the activity's entry.
//
// The walk is measure/stack_walk's, shared with libcauseway-mpi.so; the frames of
// libcauseway-tag.so itself are left out. A call site that recurs more than `depth` times on
// the path is folded (Sikora et al. 2016's SMG2000 limitation): the frames from its (depth+1)-th
// occurrence on count as the frames after its depth-th, so that a deep recursion cannot create
// a node per level. `causeway tag` folds again by function name (tag/online), which is what
// the report's call paths show.
//
// Open user regions are frames too (layout.h's kRegionFrame), placed after the return address
// of the function that began them.
//
//   CallPaths paths;                         // once, at MPI_Init
//   Frame frames[kMaxFrames]; bool truncated;
//   uint32_t n = paths.Capture(frames, regions, region_count, &truncated);
#pragma once

#include <cstdint>

#include "measure/stack_walk/stack_walker.h"
#include "measure/tag_segment/layout.h"

namespace cw::measure::tag_runtime {

using tag_segment::Frame;

inline constexpr uint32_t kMaxFrames = 256;

// An open user region: its name's id in the segment and the number of return addresses on the
// stack of the call that began it.
struct OpenRegion {
  uint32_t name;
  uint32_t depth;
};

class CallPaths {
 public:
  // `depth`: see above (0: no folding).
  explicit CallPaths(uint32_t depth) : depth_(depth) {}

  // The call path of the caller of the wrapper that calls this, outermost frame first, with
  // the open regions interleaved: at most kMaxFrames entries in `out`. `truncated`: the stack
  // was deeper than a walk keeps (its outermost frames are missing).
  uint32_t Capture(Frame* out, const OpenRegion* regions, uint32_t region_count,
                   bool* truncated) const;

  // The number of return addresses of the caller's stack (for OpenRegion::depth).
  uint32_t Depth() const;

  bool fast() const { return walker_.fast(); }

 private:
  uint32_t Walk(uintptr_t* pcs) const;  // innermost first, this library's frames dropped

  stack_walk::StackWalker walker_;
  uint32_t depth_;
};

}  // namespace cw::measure::tag_runtime
