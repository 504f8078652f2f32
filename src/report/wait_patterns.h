// The wait-state patterns a report ranks and explains (summary.txt, report.html): the metrics
// whose values are time spent waiting, none inside another, in the order of the metric tree.
#pragma once

#include <span>
#include <string_view>

#include "analysis/metrics/metric_catalog.h"

namespace cw::report {

struct WaitPattern {
  analysis::MetricId metric;
  const char* explanation;  // what happened, in words
  // The name the reports give it where its metric's display name is ambiguous ("Wait at
  // Barrier" is MPI's, OpenSHMEM's and twice OpenMP's); nullptr: the display name.
  const char* label = nullptr;

  std::string_view name() const;
};

std::span<const WaitPattern> WaitPatterns();

}  // namespace cw::report
