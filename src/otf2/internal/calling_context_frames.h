// The frames of Score-P's calling-context records, as Enters and Leaves (private to otf2/).
//
// With unwinding or sampling, Score-P writes no Enter or Leave for the program's own functions:
// each CallingContextEnter, CallingContextLeave and CallingContextSample names a node of the
// calling-context tree (trace::CallingContext) and an unwind distance D that says which frames
// changed since the location's previous such record (OTF2's CallingContext definition):
//   - of the node's path from the root (L nodes), the first D-1 nodes from the node up were
//     entered since the previous record, the D-th made progress (the same frame, perhaps at
//     another line, so perhaps another node of the same region), and the rest did not change;
//   - every frame open below the D-th was left; D = 0 means that nothing changed;
//   - after a CallingContextLeave (D = 1) the node's parent is the previous context.
// CallingContextFrames keeps the frames open on one location and turns each record into the
// Leaves and Enters that change them, at the record's time, so that every analysis sees the
// program's call paths as it sees those of Enter and Leave records. A frame's Enter carries its
// parent node's source location as the call-site attribute (trace/call_sites.h).
//
// Damaged trees (an undefined node or parent, a parent cycle) never loop: a path is at most as
// long as the tree and kMaxCallingContextDepth, and a record whose path cannot be built is
// reported and leaves the frames as they were.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "otf2/internal/event_callbacks.h"

namespace cw::otf2::internal {

inline constexpr DiagnosticKind kBadCallingContext{
    "otf2.bad_calling_context", Severity::kWarning,
    "a calling-context record names a node that is not defined or whose parents do not reach a "
    "root within 65536 frames; the record was skipped"};
inline constexpr size_t kMaxCallingContextDepth = 65536;

class CallingContextFrames {
 public:
  // CallingContextEnter and CallingContextSample: the open frames become `context`'s path.
  void MoveTo(EventContext& ctx, uint64_t time, uint32_t context, uint32_t distance);
  // CallingContextLeave: the frames below `context` and then its own are left.
  void Leave(EventContext& ctx, uint64_t time, uint32_t context);
  // Leaves every open frame at the location's last time (the end of the location: frames found
  // by unwinding have no Leave record of their own).
  void LeaveAll(EventContext& ctx);

  bool empty() const { return open_.empty(); }

 private:
  struct Frame {
    uint32_t context;
    uint32_t region;  // as given to the builder (undefined regions replaced)
  };

  // `context`'s path from the root into path_; false (reported) if it cannot be built.
  bool BuildPath(EventContext& ctx, uint32_t context);
  // Leaves the open frames beyond the first `keep` (innermost first).
  void LeaveBeyond(EventContext& ctx, uint64_t time, size_t keep);

  std::vector<Frame> open_;     // outermost first
  std::vector<uint32_t> path_;  // scratch: the record's path, root first
};

}  // namespace cw::otf2::internal
