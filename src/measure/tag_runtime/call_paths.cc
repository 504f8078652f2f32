#include "measure/tag_runtime/call_paths.h"

#include <algorithm>

namespace cw::measure::tag_runtime {

uint32_t CallPaths::Walk(uintptr_t* pcs) const { return walker_.Walk(pcs, kMaxFrames + 8); }

uint32_t CallPaths::Depth() const {
  uintptr_t pcs[kMaxFrames + 8];
  return std::min<uint32_t>(Walk(pcs), kMaxFrames);
}

uint32_t CallPaths::Capture(Frame* out, const OpenRegion* regions, uint32_t region_count,
                            bool* truncated) const {
  uintptr_t pcs[kMaxFrames + 8];
  const uint32_t walked = Walk(pcs);
  *truncated = walked > kMaxFrames;
  const uint32_t total = std::min<uint32_t>(walked, kMaxFrames);
  uint32_t count = 0;
  uint32_t next_region = 0;
  // Outermost first: pcs holds the innermost first.
  for (uint32_t k = 0; k < total; ++k) {
    while (next_region < region_count && regions[next_region].depth <= k && count < kMaxFrames) {
      out[count++] = Frame{tag_segment::kRegionFrame | regions[next_region].name, k, 0};
      ++next_region;
    }
    const uint64_t pc = pcs[total - 1 - k];
    if (depth_ > 0) {
      // Fold a call site's (depth+1)-th occurrence onto its depth-th: drop what came since.
      uint32_t seen = 0, cut = count;
      for (uint32_t i = 0; i < count; ++i) {
        if (out[i].address == pc && ++seen == depth_) cut = i + 1;
      }
      if (seen >= depth_) {
        count = cut;
        continue;
      }
    }
    if (count < kMaxFrames) out[count++] = Frame{pc, 0, 0};
  }
  while (next_region < region_count && count < kMaxFrames) {
    out[count++] = Frame{tag_segment::kRegionFrame | regions[next_region].name, total, 0};
    ++next_region;
  }
  return count;
}

}  // namespace cw::measure::tag_runtime
