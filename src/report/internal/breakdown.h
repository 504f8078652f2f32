// The time breakdown of summary.txt and report.html alike (private to report/): which metrics
// it shows at which depth, and their labels.
#pragma once

#include <string>
#include <vector>

#include "analysis/metrics/metric_catalog.h"
#include "report/report.h"

namespace cw::report::internal {

struct BreakdownRow {
  std::string label;
  double seconds = 0;  // all locations together
  int depth = 0;       // 0: a paradigm (or computation), 1: a part of it
};

// Computation and MPI always; OpenSHMEM, OpenMP, POSIX threads, CUDA, OpenCL, OpenACC and the
// measurement overhead where the run spent time in them; below each, its parts that took time
// (MPI's with "Other MPI calls", the calls in none of its parts).
std::vector<BreakdownRow> BreakdownRows(const Report& r);

// The metric's name where it reads well without the metric tree around it, else a clearer one
// (Scalasca names both the collectives and the barriers "Collective").
const char* BreakdownLabel(analysis::MetricId metric);

}  // namespace cw::report::internal
