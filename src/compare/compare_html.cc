#include "compare/compare_html.h"

#include "base/html_text.h"
#include "compare/compare_json.h"
#include "compare/internal/compare_assets.h"

namespace cw::compare {

std::string CompareHtml(const Comparison& c, const std::string& title) {
  std::string page;
  page += "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n";
  page += "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n";
  page += "<title>causeway comparison: " + HtmlText(title) + "</title>\n<style>\n";
  page += internal::kCompareCss;
  page += "</style></head>\n<body data-status=\"loading\">\n";
  page += internal::kCompareBody;
  page += "<script>\n";
  page += internal::kD3;
  page += "\n</script>\n<script>\nconst COMPARE = ";
  page += JsonForScript(CompareJson(c));
  page += ";\n</script>\n<script>\n";
  page += internal::kCompareJs;
  page += "\n</script>\n</body></html>\n";
  return page;
}

}  // namespace cw::compare
