// The time breakdown's labels (summary.txt and report.html alike): the metric's name where it
// reads well without the metric tree around it, else a clearer one (Scalasca names both the
// collectives and the barriers "Collective"; private to report/).
#pragma once

#include "analysis/metrics/metric_catalog.h"

namespace cw::report::internal {

const char* BreakdownLabel(analysis::MetricId metric);

}  // namespace cw::report::internal
