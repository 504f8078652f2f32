#include "report/html_report.h"

#include "base/html_text.h"
#include "report/internal/html_assets.h"
#include "report/internal/html_data.h"
#include "report/output_file.h"

namespace cw::report {

std::string HtmlReport(const Report& report, const trace::Trace& trace,
                       const match::SyncGraph& graph) {
  return HtmlReport(report, trace, EventViewsOf(report, trace, graph, AllLocations(trace)));
}

std::string HtmlReport(const Report& report, const trace::Trace& trace, const EventViews& views) {
  PageParts page;
  page.title = "causeway report: " + report.trace.path;
  page.css = internal::kReportCss;
  page.body = internal::kReportBody;
  page.d3 = internal::kD3;
  page.data_name = "CAUSEWAY";
  page.data_json = internal::HtmlData(report, trace, views);
  page.script = internal::kReportJs;
  return SelfContainedPage(page);
}

Status WriteHtmlReport(const Report& report, const trace::Trace& trace,
                       const match::SyncGraph& graph, const std::string& path) {
  return WriteTextFile(path, HtmlReport(report, trace, graph));
}

Status WriteHtmlReport(const Report& report, const trace::Trace& trace, const EventViews& views,
                       const std::string& path) {
  return WriteTextFile(path, HtmlReport(report, trace, views));
}

}  // namespace cw::report
