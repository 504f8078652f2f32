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
  std::string page;
  page += "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n";
  page += "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n";
  page += "<title>causeway report: " + HtmlText(report.trace.path) + "</title>\n<style>\n";
  page += internal::kReportCss;
  page += "</style></head>\n<body data-status=\"loading\">\n";
  page += internal::kReportBody;
  page += "<script>\n";
  page += internal::kD3;
  page += "\n</script>\n<script>\nconst CAUSEWAY = ";
  page += JsonForScript(internal::HtmlData(report, trace, views));
  page += ";\n</script>\n<script>\n";
  page += internal::kReportJs;
  page += "\n</script>\n</body></html>\n";
  return page;
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
