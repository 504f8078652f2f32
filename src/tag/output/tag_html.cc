#include "base/html_text.h"
#include "tag/output/internal/tag_assets.h"
#include "tag/output/tag_writers.h"

namespace cw::tag {

std::string TagHtml(const TagDocument& doc) {
  std::string page;
  page += "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n";
  page += "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n";
  page += "<title>causeway task activity graphs: " + HtmlText(doc.source) + "</title>\n<style>\n";
  page += internal::kTagCss;
  page += "</style></head>\n<body data-status=\"loading\">\n";
  page += internal::kTagBody;
  page += "<script>\n";
  page += internal::kD3;
  page += "\n</script>\n<script>\nconst TAG = ";
  page += JsonForScript(TagJson(doc));
  page += ";\n</script>\n<script>\n";
  page += internal::kTagJs;
  page += "\n</script>\n</body></html>\n";
  return page;
}

}  // namespace cw::tag
