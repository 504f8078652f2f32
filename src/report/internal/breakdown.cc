#include "report/internal/breakdown.h"

namespace cw::report::internal {

using analysis::MetricId;

std::vector<BreakdownRow> BreakdownRows(const Report& r) {
  std::vector<BreakdownRow> rows;
  const auto add = [&](MetricId m, int depth) {
    const double seconds = r.Total(m);
    if (depth == 0 || seconds != 0) rows.push_back({BreakdownLabel(m), seconds, depth});
  };
  add(MetricId::kComp, 0);
  add(MetricId::kMpi, 0);
  for (MetricId m : {MetricId::kMpiPoint2Point, MetricId::kMpiCollective,
                     MetricId::kMpiSyncCollective, MetricId::kMpiRmaSynchronization,
                     MetricId::kMpiRmaCommunication, MetricId::kMpiIo, MetricId::kMpiManagement}) {
    add(m, 1);
  }
  const double other_mpi = r.Total(MetricId::kMpi) - r.Total(MetricId::kMpiCommunication) -
                           r.Total(MetricId::kMpiSynchronization) - r.Total(MetricId::kMpiIo) -
                           r.Total(MetricId::kMpiManagement);
  // The remainder is a difference of sums; what is only rounding is left out.
  if (other_mpi > 1e-9 * r.Total(MetricId::kTime))
    rows.push_back({"Other MPI calls", other_mpi, 1});
  const auto paradigm = [&](MetricId m, std::initializer_list<MetricId> parts) {
    if (r.Total(m) == 0) return;
    add(m, 0);
    for (MetricId part : parts) add(part, 1);
  };
  paradigm(MetricId::kShmem, {MetricId::kShmemRma, MetricId::kShmemSync, MetricId::kShmemCollective,
                              MetricId::kShmemManagement});
  paradigm(MetricId::kOmpTime,
           {MetricId::kOmpManagement, MetricId::kOmpEbarrier, MetricId::kOmpIbarrier,
            MetricId::kOmpCritical, MetricId::kOmpLockApi, MetricId::kOmpOrdered,
            MetricId::kOmpTaskwait, MetricId::kOmpFlush});
  for (MetricId m : {MetricId::kPthreadTime, MetricId::kCudaTime, MetricId::kOpenClTime,
                     MetricId::kOpenAccTime, MetricId::kOverhead}) {
    paradigm(m, {});
  }
  paradigm(MetricId::kOmpIdleThreads, {MetricId::kOmpLimitedParallelism});
  return rows;
}

const char* BreakdownLabel(MetricId metric) {
  switch (metric) {
    case MetricId::kMpiCollective:
      return "Collective communication";
    case MetricId::kMpiSyncCollective:
      return "Barriers";
    case MetricId::kMpiRmaSynchronization:
      return "One-sided synchronization";
    case MetricId::kMpiRmaCommunication:
      return "One-sided transfers";
    case MetricId::kMpiIo:
      return "File I/O";
    case MetricId::kOverhead:
      return "Measurement overhead";
    case MetricId::kShmemRma:
      return "Transfers and atomics";
    case MetricId::kShmemSync:
      return "Synchronization";
    case MetricId::kShmemCollective:
      return "Collectives";
    case MetricId::kOmpManagement:
      return "Thread management";
    case MetricId::kOmpEbarrier:
      return "Explicit barriers";
    case MetricId::kOmpIbarrier:
      return "Implicit barriers";
    case MetricId::kOmpCritical:
      return "Critical sections";
    case MetricId::kOmpLockApi:
      return "Lock routines";
    default:
      return analysis::Metric(metric).display.data();
  }
}

}  // namespace cw::report::internal
