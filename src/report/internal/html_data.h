// What report.html draws, as one JSON document (private to report/): the overview, the values
// for the metric / call-tree / location browser, the chart data and the timelines of the worst
// wait-state instances. Everything is aggregated here, in C++, so that the page stays small and
// its script only draws.
#pragma once

#include <string>

#include "report/event_views.h"
#include "report/report.h"
#include "trace/trace.h"

namespace cw::report::internal {

// The document, serialised (UTF-8 JSON; untrusted names are JSON strings, escaped by the
// serialiser, with invalid UTF-8 replaced).
// `trace` names the call paths; `views` holds what comes from the events.
std::string HtmlData(const Report& report, const trace::Trace& trace, const EventViews& views);

}  // namespace cw::report::internal
