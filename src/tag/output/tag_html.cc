#include "base/html_text.h"
#include "tag/output/internal/tag_assets.h"
#include "tag/output/tag_writers.h"

namespace cw::tag {

std::string TagHtml(const TagDocument& doc) {
  PageParts page;
  page.title = "causeway task activity graphs: " + doc.source;
  page.css = internal::kTagCss;
  page.body = internal::kTagBody;
  page.d3 = internal::kD3;
  page.data_name = "TAG";
  page.data_json = TagJson(doc);
  page.script = internal::kTagJs;
  return SelfContainedPage(page);
}

}  // namespace cw::tag
