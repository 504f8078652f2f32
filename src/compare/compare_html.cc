#include "compare/compare_html.h"

#include "base/html_text.h"
#include "compare/compare_json.h"
#include "compare/internal/compare_assets.h"

namespace cw::compare {

std::string CompareHtml(const Comparison& c, const std::string& title) {
  PageParts page;
  page.title = "causeway comparison: " + title;
  page.css = internal::kCompareCss;
  page.body = internal::kCompareBody;
  page.d3 = internal::kD3;
  page.data_name = "COMPARE";
  page.data_json = CompareJson(c);
  page.script = internal::kCompareJs;
  return SelfContainedPage(page);
}

}  // namespace cw::compare
