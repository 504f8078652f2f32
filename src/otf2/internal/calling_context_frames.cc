#include "otf2/internal/calling_context_frames.h"

#include <algorithm>
#include <string>

namespace cw::otf2::internal {

bool CallingContextFrames::BuildPath(EventContext& ctx, uint32_t context) {
  const std::vector<trace::CallingContext>& tree = ctx.defs->calling_contexts;
  path_.clear();
  // Every node on a path is a distinct node of the tree: a longer path holds a cycle. No stack
  // is deeper than kMaxCallingContextDepth; a chain that is (a hostile file's) would make every
  // record cost its length.
  const size_t longest = std::min<size_t>(tree.size(), kMaxCallingContextDepth);
  for (uint32_t node = context; node != trace::kNone; node = tree[node].parent) {
    if (node >= tree.size() || !tree[node].defined || path_.size() >= longest) {
      ctx.diagnostics.Report(kBadCallingContext, "calling context " + std::to_string(context));
      path_.clear();
      return false;
    }
    path_.push_back(node);
  }
  std::reverse(path_.begin(), path_.end());
  return true;
}

void CallingContextFrames::LeaveBeyond(EventContext& ctx, uint64_t time, size_t keep) {
  while (open_.size() > keep) {
    ctx.builder.LeaveFrame(time, open_.back().region);
    open_.pop_back();
  }
}

void CallingContextFrames::MoveTo(EventContext& ctx, uint64_t time, uint32_t context,
                                  uint32_t distance) {
  if (!BuildPath(ctx, context)) return;
  const std::vector<trace::CallingContext>& tree = ctx.defs->calling_contexts;
  // The frames that were not entered again: all of the path for D = 0, else the outermost
  // L-D+1 (the one that made progress included); never more than are open with the same
  // regions, whatever a damaged distance says.
  size_t keep =
      distance == 0 ? path_.size() : (distance > path_.size() ? 0 : path_.size() - distance + 1);
  keep = std::min(keep, open_.size());
  for (size_t i = 0; i < keep; ++i) {
    if (open_[i].region != CheckedRegion(ctx, tree[path_[i]].region)) {
      keep = i;
      break;
    }
  }
  LeaveBeyond(ctx, time, keep);
  for (size_t i = 0; i < keep; ++i) open_[i].context = path_[i];
  for (size_t i = keep; i < path_.size(); ++i) {
    const uint32_t region = CheckedRegion(ctx, tree[path_[i]].region);
    ctx.builder.EnterFrame(time, region);
    const uint32_t site = i > 0 ? tree[path_[i - 1]].source_location : trace::kNone;
    if (site != trace::kNone && ctx.call_site_attribute != trace::kNone) {
      ctx.builder.AddAttribute(ctx.call_site_attribute, OTF2_TYPE_SOURCE_CODE_LOCATION, site);
    }
    open_.push_back(Frame{path_[i], region});
  }
}

void CallingContextFrames::Leave(EventContext& ctx, uint64_t time, uint32_t context) {
  // The left node made progress (distance 1): its frame stays open until its own Leave.
  MoveTo(ctx, time, context, 1);
  if (!path_.empty() && open_.size() == path_.size()) LeaveBeyond(ctx, time, open_.size() - 1);
}

void CallingContextFrames::LeaveAll(EventContext& ctx) {
  LeaveBeyond(ctx, ctx.builder.last_time(), 0);
}

}  // namespace cw::otf2::internal
