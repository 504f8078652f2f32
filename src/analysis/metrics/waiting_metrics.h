// The wait-state metrics whose values are time a process spent waiting for another process
// (a late sender, the last member of a collective, a lock's holder, a late post), none inside
// another. Completion metrics (time after the first member left), MPI_Init's and MPI_Finalize's
// waits are left out: they are no process waiting for another's work.
#pragma once

#include <span>

#include "analysis/metrics/metric_catalog.h"

namespace cw::analysis {

std::span<const MetricId> WaitingMetrics();

}  // namespace cw::analysis
