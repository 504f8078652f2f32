#include "report/html_report.h"

#include "report/internal/html_assets.h"
#include "report/internal/html_data.h"
#include "report/output_file.h"

namespace cw::report {
namespace {

// JSON placed inside <script>: "</script>" or "<!--" in a name must not end the element, so
// every '<' is written as its JSON escape (the JSON means the same), and so are the two line
// separators older JavaScript parsers reject in strings.
std::string ForScript(const std::string& json) {
  std::string out;
  out.reserve(json.size() + json.size() / 64);
  for (size_t i = 0; i < json.size(); ++i) {
    char c = json[i];
    if (c == '<') {
      out += "\\u003c";
    } else if (c == '\xE2' && i + 2 < json.size() && json[i + 1] == '\x80' &&
               (json[i + 2] == '\xA8' || json[i + 2] == '\xA9')) {
      out += json[i + 2] == '\xA8' ? "\\u2028" : "\\u2029";
      i += 2;
    } else {
      out += c;
    }
  }
  return out;
}

// The title is the trace's directory name, escaped as HTML text.
std::string HtmlText(const std::string& text) {
  std::string out;
  for (char c : text) {
    switch (c) {
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '&':
        out += "&amp;";
        break;
      case '"':
        out += "&quot;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

}  // namespace

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
  page += ForScript(internal::HtmlData(report, trace, views));
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
