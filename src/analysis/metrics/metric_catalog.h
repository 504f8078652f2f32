// The metrics causeway computes: names, tree, units and definitions, as data.
//
// Names and the tree are Scalasca's wherever Scalasca has the metric, so that reports can be
// compared with Scalasca's and opened in Cube. A metric's value includes its children's values
// (inclusive along the metric tree): mpi_latesender includes mpi_latesender_wo. The same table
// generates the metric list of report.json; docs/metrics.md explains each metric.
//
//   const MetricInfo& info = Metric(MetricId::kMpiLateSender);
//   info.name == "mpi_latesender"; Metric(info.parent).name == "mpi_point2point"
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string_view>

namespace cw::analysis {

enum class MetricId : uint16_t {
  // Time tree.
  kTime,
  kExecution,
  kComp,
  kMpi,
  kMpiManagement,
  kMpiInitExit,
  kMpiInitCompletion,
  kMpiFinalizeWait,
  kMpiMgmtComm,
  kMpiMgmtFile,
  kMpiMgmtWin,
  kMpiRmaWaitAtCreate,
  kMpiRmaWaitAtFree,
  kMpiSynchronization,
  kMpiSyncCollective,
  kMpiBarrierWait,
  kMpiBarrierCompletion,
  kMpiRmaSynchronization,
  kMpiRmaSyncActive,
  kMpiRmaSyncLatePost,
  kMpiRmaEarlyWait,
  kMpiRmaLateComplete,
  kMpiRmaWaitAtFence,
  kMpiRmaEarlyFence,
  kMpiRmaSyncPassive,
  kMpiRmaSyncLockCompetition,
  kMpiCommunication,
  kMpiPoint2Point,
  kMpiLateSender,
  kMpiLateSenderWo,
  kMpiLswoDifferent,
  kMpiLswoSame,
  kMpiLateReceiver,
  kMpiCollective,
  kMpiEarlyReduce,
  kMpiEarlyScan,
  kMpiLateBroadcast,
  kMpiWaitNxn,
  kMpiNxnCompletion,
  kMpiWaitSenders,
  kMpiRmaCommunication,
  kMpiRmaCommLatePost,
  kMpiRmaCommLockCompetition,
  kMpiIo,
  kMpiIoIndividual,
  kMpiIoCollective,
  kShmem,
  kShmemManagement,
  kShmemSync,
  kShmemBarrierWait,
  kShmemLockContention,
  kShmemWaitOnValue,
  kShmemWaitForProgress,
  kShmemRma,
  kShmemCollective,
  kShmemCollectiveWait,
  kOmpTime,
  kOmpManagement,
  kOmpFork,
  kOmpSynchronization,
  kOmpBarrier,
  kOmpEbarrier,
  kOmpEbarrierWait,
  kOmpIbarrier,
  kOmpIbarrierWait,
  kOmpCritical,
  kOmpLockContentionCritical,
  kOmpLockApi,
  kOmpLockContentionApi,
  kOmpOrdered,
  kOmpTaskwait,
  kOmpFlush,
  kPthreadTime,
  kCudaTime,
  kOpenClTime,
  kOpenAccTime,
  kOverhead,
  kOmpIdleThreads,
  kOmpLimitedParallelism,
  // Visits.
  kVisits,
  // Synchronisations (zero-byte messages and collectives).
  kSyncs,
  kSyncsP2p,
  kSyncsSend,
  kMpiSlrCount,
  kSyncsRecv,
  kMpiSlsCount,
  kMpiSlswoCount,
  kSyncsColl,
  // Communications (messages and collectives that move data).
  kComms,
  kCommsP2p,
  kCommsSend,
  kMpiClrCount,
  kCommsRecv,
  kMpiClsCount,
  kMpiClswoCount,
  kCommsColl,
  kCommsCxch,
  kCommsCsrc,
  kCommsCdst,
  kCommsRma,
  kCommsRmaPuts,
  kCommsRmaGets,
  // Bytes.
  kBytes,
  kBytesP2p,
  kBytesSent,
  kBytesRcvd,
  kBytesColl,
  kBytesCout,
  kBytesCin,
  kBytesRma,
  kBytesPut,
  kBytesGet,
  // MPI file operations and their bytes (Scalasca's MPI_FILE_* patterns, which Scalasca 2.6
  // defines but leaves uncomputed): individual and collective, reads and writes.
  kMpiFileOps,
  kMpiFileIops,
  kMpiFileIrops,
  kMpiFileIwops,
  kMpiFileCops,
  kMpiFileCrops,
  kMpiFileCwops,
  kMpiFileBytes,
  kMpiFileIbytes,
  kMpiFileIrbytes,
  kMpiFileIwbytes,
  kMpiFileCbytes,
  kMpiFileCrbytes,
  kMpiFileCwbytes,
  // Delay costs: the waiting time a delay caused, charged to the delaying call paths.
  kDelay,
  kDelayMpi,
  kDelayP2p,
  kDelayLateSenderAggregate,
  kDelayLateSender,
  kDelayLateSenderLongterm,
  kDelayLateReceiverAggregate,
  kDelayLateReceiver,
  kDelayLateReceiverLongterm,
  kDelayCollective,
  kDelayBarrierAggregate,
  kDelayBarrier,
  kDelayBarrierLongterm,
  kDelaySendersAggregate,
  kDelaySenders,
  kDelaySendersLongterm,
  kDelayN2nAggregate,
  kDelayN2n,
  kDelayN2nLongterm,
  kDelay12nAggregate,
  kDelay12n,
  kDelay12nLongterm,
  kDelayN21Aggregate,
  kDelayN21,
  kDelayN21Longterm,
  kDelayScanAggregate,
  kDelayScan,
  kDelayScanLongterm,
  kDelayFinalizeAggregate,
  kDelayFinalize,
  kDelayFinalizeLongterm,
  kDelayRma,
  kDelayRmaCollectiveAggregate,
  kDelayRmaCollective,
  kDelayRmaCollectiveLongterm,
  kDelayRmaLatePostAggregate,
  kDelayRmaLatePost,
  kDelayRmaLatePostLongterm,
  kDelayRmaEarlyWaitAggregate,
  kDelayRmaEarlyWait,
  kDelayRmaEarlyWaitLongterm,
  kDelayRmaLockAggregate,
  kDelayRmaLock,
  kDelayRmaLockLongterm,
  kDelayShmem,
  kDelayShmemBarrierWaitAggregate,
  kDelayShmemBarrierWait,
  kDelayShmemBarrierWaitLongterm,
  kDelayShmemCollectiveWaitAggregate,
  kDelayShmemCollectiveWait,
  kDelayShmemCollectiveWaitLongterm,
  kDelayShmemLockContentionAggregate,
  kDelayShmemLockContention,
  kDelayShmemLockContentionLongterm,
  kDelayShmemWaitOnValueAggregate,
  kDelayShmemWaitOnValue,
  kDelayShmemWaitOnValueLongterm,
  kDelayOmp,
  kDelayOmpBarrierAggregate,
  kDelayOmpBarrier,
  kDelayOmpBarrierLongterm,
  // Wait states by cause: direct or indirect (propagated).
  kWaitstatesDirectVsIndirect,
  kMpiWaitDirect,
  kMpiWaitDirectLateSender,
  kMpiWaitDirectLateReceiver,
  kMpiWaitDirectCollective,
  kMpiWaitDirectRma,
  kMpiWaitIndirect,
  kMpiWaitIndirectLateSender,
  kMpiWaitIndirectLateReceiver,
  kMpiWaitIndirectCollective,
  kMpiWaitIndirectRma,
  kShmemWaitDirect,
  kShmemWaitIndirect,
  // Wait states by effect: propagating (caused later waits) or terminal.
  kWaitstatesPropagatingVsTerminal,
  kMpiWaitPropagating,
  kMpiWaitPropagatingLs,
  kMpiWaitPropagatingLr,
  kMpiWaitPropagatingCollective,
  kMpiWaitPropagatingRma,
  kMpiWaitTerminal,
  kMpiWaitTerminalLs,
  kMpiWaitTerminalLr,
  kMpiWaitTerminalCollective,
  kMpiWaitTerminalRma,
  kShmemWaitPropagating,
  kShmemWaitTerminal,
  // The critical path and the performance impact of call paths.
  kCriticalPath,
  kCriticalPathImbalance,
  kPerformanceImpact,
  kPerformanceImpactCriticalpath,
  kCriticalPathActivities,
  kCriticalImbalanceImpact,
  kIntraPartitionImbalance,
  kInterPartitionImbalance,
  kNonCriticalPathActivities,
};

inline constexpr int kMetricCount = static_cast<int>(MetricId::kNonCriticalPathActivities) + 1;

enum class MetricUnit : uint8_t {
  kSeconds,      // stored in clock ticks, converted at the report boundary
  kOccurrences,  // a count
  kBytes,
};

struct MetricInfo {
  MetricId id;
  std::string_view name;     // Scalasca/Cube unique name
  std::string_view display;  // what people read
  MetricUnit unit;
  std::optional<MetricId> parent;
  std::string_view description;  // one sentence; docs/metrics.md has the full definition
};

const MetricInfo& Metric(MetricId id);
std::span<const MetricInfo> AllMetrics();
// The metric with this unique name, if any.
std::optional<MetricId> FindMetric(std::string_view name);

// `id` followed by its ancestors up to its root (at most kMaxMetricDepth entries).
inline constexpr size_t kMaxMetricDepth = 12;
std::span<const MetricId> MetricWithAncestors(MetricId id);

inline int Index(MetricId id) { return static_cast<int>(id); }

}  // namespace cw::analysis
