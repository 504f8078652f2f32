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
    case SyncPattern::kSenders:
      return "Wait for Senders";
    case SyncPattern::kOmpBarrier:
      return "OpenMP Wait at Barrier";
    case SyncPattern::kOmpLock:
      return "OpenMP Lock Contention";
    case SyncPattern::kRmaCollective:
      return "Wait at Fence, Window Create or Free";
    case SyncPattern::kRmaLatePost:
      return "Late Post";
    case SyncPattern::kRmaEarlyWait:
      return "Early Wait";
    case SyncPattern::kRmaLock:
      return "RMA Lock Contention";
    case SyncPattern::kShmemBarrier:
      return "OpenSHMEM Wait at Barrier";
    case SyncPattern::kShmemCollective:
      return "OpenSHMEM Wait at Collective";
    case SyncPattern::kShmemLock:
      return "OpenSHMEM Lock Contention";
    case SyncPattern::kShmemWaitOnValue:
      return "OpenSHMEM Wait on Value";
  }
  return "?";
}

std::span<const MetricId> WaitMetricsOf(SyncPattern p) {
  using M = MetricId;
  static constexpr M kLateSender[] = {M::kMpiLateSender};
  static constexpr M kLateReceiver[] = {M::kMpiLateReceiver};
  static constexpr M kBarrier[] = {M::kMpiBarrierWait};
  static constexpr M kNxN[] = {M::kMpiWaitNxn};
  static constexpr M kOneToN[] = {M::kMpiLateBroadcast};
  static constexpr M kNToOne[] = {M::kMpiEarlyReduce};
  static constexpr M kScan[] = {M::kMpiEarlyScan};
  static constexpr M kFinalize[] = {M::kMpiFinalizeWait};
  static constexpr M kSenders[] = {M::kMpiWaitSenders};
  static constexpr M kOmpBarrier[] = {M::kOmpEbarrierWait, M::kOmpIbarrierWait};
  static constexpr M kOmpLock[] = {M::kOmpLockContentionCritical, M::kOmpLockContentionApi};
  static constexpr M kRmaCollective[] = {M::kMpiRmaWaitAtFence, M::kMpiRmaWaitAtCreate,
                                         M::kMpiRmaWaitAtFree};
  static constexpr M kRmaLatePost[] = {M::kMpiRmaSyncLatePost, M::kMpiRmaCommLatePost};
  static constexpr M kRmaEarlyWait[] = {M::kMpiRmaEarlyWait};
  static constexpr M kRmaLock[] = {M::kMpiRmaSyncLockCompetition, M::kMpiRmaCommLockCompetition};
  static constexpr M kShmemBarrier[] = {M::kShmemBarrierWait};
  static constexpr M kShmemCollective[] = {M::kShmemCollectiveWait};
  static constexpr M kShmemLock[] = {M::kShmemLockContention};
  static constexpr M kShmemWaitOnValue[] = {M::kShmemWaitOnValue};
  switch (p) {
    case SyncPattern::kLateSender:
      return kLateSender;
    case SyncPattern::kLateReceiver:
      return kLateReceiver;
    case SyncPattern::kBarrier:
      return kBarrier;
    case SyncPattern::kNxN:
      return kNxN;
    case SyncPattern::kOneToN:
      return kOneToN;
    case SyncPattern::kNToOne:
      return kNToOne;
    case SyncPattern::kScan:
      return kScan;
    case SyncPattern::kSenders:
      return kSenders;
    case SyncPattern::kFinalize:
      return kFinalize;
    case SyncPattern::kOmpBarrier:
      return kOmpBarrier;
    case SyncPattern::kOmpLock:
      return kOmpLock;
    case SyncPattern::kRmaCollective:
      return kRmaCollective;
    case SyncPattern::kRmaLatePost:
      return kRmaLatePost;
    case SyncPattern::kRmaEarlyWait:
      return kRmaEarlyWait;
    case SyncPattern::kRmaLock:
      return kRmaLock;
    case SyncPattern::kShmemBarrier:
      return kShmemBarrier;
    case SyncPattern::kShmemCollective:
      return kShmemCollective;
    case SyncPattern::kShmemLock:
      return kShmemLock;
    case SyncPattern::kShmemWaitOnValue:
      return kShmemWaitOnValue;
  }
  return {};
}

std::vector<WaitEdge> KeepFollowedEdges(SyncEdges& sync, Semantics semantics) {
  std::vector<WaitEdge> bottleneck_only;
  std::erase_if(sync.edges, [&](const WaitEdge& e) {
    if (FollowedUnder(e.pattern, semantics)) return false;
    if (FollowedByBottleneckAnalysisOnly(e.pattern)) bottleneck_only.push_back(e);
    return true;
  });
  return bottleneck_only;
}

std::span<const WaitEdge> BottleneckEdges(std::span<const WaitEdge> followed,
                                          std::vector<WaitEdge>& bottleneck_only) {
  if (bottleneck_only.empty()) return followed;
  bottleneck_only.insert(bottleneck_only.begin(), followed.begin(), followed.end());
  return bottleneck_only;
}

}  // namespace cw::analysis
