// The call paths of a trace as the task activity graph names its nodes: recursion folded beyond
// a depth (tag/model/callpath_folding.h's rule, on the trace's call tree) and loop markers left
// out of the paths of what runs inside the loops (private to tag/build).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "trace/trace.h"

namespace cw::tag::internal {

// Loop markers: a region of the loop role (a loop's begin and end) and an iteration marker (a
// zero-length artificial region of the user's, include/causeway's causeway_loop_iteration).
bool IsLoopRegion(const trace::Region& r);
bool IsIterationMarker(const trace::Region& r);

struct FoldedPaths {
  std::vector<uint32_t> of_callpath;  // trace call path -> folded path (its children's parent)
  std::vector<uint32_t> own;          // trace call path -> the folded path naming its node
  std::vector<std::string> name;      // folded path -> "main/solve/MPI_Send"
  uint64_t folded = 0;                // trace call paths whose folded path differs
};

FoldedPaths FoldCallpaths(const trace::Trace& t, uint32_t depth);

}  // namespace cw::tag::internal
