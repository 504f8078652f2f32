#include "analysis/metrics/waiting_metrics.h"

namespace cw::analysis {
namespace {

constexpr MetricId kWaiting[] = {
    MetricId::kMpiLateSender,
    MetricId::kMpiLateReceiver,
    MetricId::kMpiBarrierWait,
    MetricId::kMpiWaitNxn,
    MetricId::kMpiWaitSenders,
    MetricId::kMpiLateBroadcast,
    MetricId::kMpiEarlyReduce,
    MetricId::kMpiEarlyScan,
    MetricId::kMpiRmaWaitAtFence,
    MetricId::kMpiRmaWaitAtCreate,
    MetricId::kMpiRmaWaitAtFree,
    MetricId::kMpiRmaSyncLatePost,
    MetricId::kMpiRmaCommLatePost,
    MetricId::kMpiRmaEarlyWait,
    MetricId::kMpiRmaSyncLockCompetition,
    MetricId::kMpiRmaCommLockCompetition,
    MetricId::kShmemBarrierWait,
    MetricId::kShmemLockContention,
    MetricId::kShmemWaitOnValue,
    MetricId::kShmemWaitForProgress,
    MetricId::kShmemCollectiveWait,
    MetricId::kOmpEbarrierWait,
    MetricId::kOmpIbarrierWait,
    MetricId::kOmpLockContentionCritical,
    MetricId::kOmpLockContentionApi,
};

}  // namespace

std::span<const MetricId> WaitingMetrics() { return kWaiting; }

}  // namespace cw::analysis
