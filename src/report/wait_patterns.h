// The wait-state patterns a report ranks and explains (summary.txt, report.html): the metrics
// whose values are time spent waiting, none inside another, in the order of the metric tree.
#pragma once

#include <span>

#include "analysis/metrics/metric_catalog.h"

namespace cw::report {

struct WaitPattern {
  analysis::MetricId metric;
  const char* explanation;  // what happened, in words
};

std::span<const WaitPattern> WaitPatterns();

}  // namespace cw::report
