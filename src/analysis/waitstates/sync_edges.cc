#include "analysis/waitstates/sync_edges.h"

#include <algorithm>

namespace cw::analysis {

std::string_view SyncPatternName(SyncPattern p) {
  switch (p) {
    case SyncPattern::kLateSender:
      return "Late Sender";
    case SyncPattern::kLateReceiver:
      return "Late Receiver";
    case SyncPattern::kBarrier:
      return "Wait at Barrier";
    case SyncPattern::kNxN:
      return "Wait at N x N";
    case SyncPattern::kOneToN:
      return "Late Broadcast";
    case SyncPattern::kNToOne:
      return "Early Reduce";
    case SyncPattern::kScan:
      return "Early Scan";
    case SyncPattern::kFinalize:
      return "Wait at Finalize";
  }
  return "?";
}

void KeepFollowedEdges(SyncEdges& sync, Semantics semantics) {
  std::erase_if(sync.edges,
                [semantics](const WaitEdge& e) { return !FollowedUnder(e.pattern, semantics); });
}

}  // namespace cw::analysis
