// `report.html`: one self-contained page (no network access needed: its script, style and data
// are inlined) with an overview (runtime, POP efficiencies, time breakdown, the three findings
// to read first), a Cube-like browser of metrics, call paths and locations, charts (time per
// location by category, waiting per call path and location, the communication matrix, message
// sizes) and timelines of the worst wait-state instances. It draws with Debian's d3.
//
// Names from the trace are untrusted: they travel as JSON data, never as markup, and the script
// puts them into the page as text only.
#pragma once

#include <string>

#include "base/status.h"
#include "match/sync_graph.h"
#include "report/event_views.h"
#include "report/report.h"
#include "trace/trace.h"

namespace cw::report {

Status WriteHtmlReport(const Report& report, const trace::Trace& trace,
                       const match::SyncGraph& graph, const std::string& path);
// The same with the event views computed elsewhere (report/event_views.h): `trace` then only
// names call paths.
Status WriteHtmlReport(const Report& report, const trace::Trace& trace, const EventViews& views,
                       const std::string& path);

// The page as a string (for tests that check its size and content).
std::string HtmlReport(const Report& report, const trace::Trace& trace, const EventViews& views);
std::string HtmlReport(const Report& report, const trace::Trace& trace,
                       const match::SyncGraph& graph);

}  // namespace cw::report
