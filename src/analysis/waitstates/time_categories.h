// Where a region's time goes in the time tree.
//
// Follows Scalasca 2.6's rules (its Cube remapping spec): MPI calls by name (MPI_Wait* and
// MPI_Test* are point-to-point, MPI_Barrier is collective synchronisation, MPI_Start and
// MPI_Request_free stay in the bare "mpi" node); OpenMP, POSIX-thread, CUDA, OpenCL and OpenACC
// regions by paradigm; trace-buffer flushes are overhead; everything else is computation,
// including OpenMP parallel-region bodies and measurement-off gaps.
#pragma once

#include <vector>

#include "analysis/metrics/metric_catalog.h"
#include "trace/definitions.h"

namespace cw::analysis {

// The most specific time metric of `region`.
MetricId TimeCategoryOf(const trace::Definitions& defs, uint32_t region);

// TimeCategoryOf for every region, indexed by region id.
std::vector<MetricId> TimeCategories(const trace::Definitions& defs);

}  // namespace cw::analysis
