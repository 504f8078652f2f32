#include "report/internal/breakdown_label.h"

namespace cw::report::internal {

using analysis::MetricId;

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
    default:
      return analysis::Metric(metric).display.data();
  }
}

}  // namespace cw::report::internal
