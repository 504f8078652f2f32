#include "base/html_text.h"

namespace cw {

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

std::string JsonForScript(const std::string& json) {
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

std::string SelfContainedPage(const PageParts& parts) {
  std::string page;
  page += "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n";
  page += "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n";
  page += "<title>" + HtmlText(parts.title) + "</title>\n<style>\n";
  page += parts.css;
  page += "</style></head>\n<body data-status=\"loading\">\n";
  page += parts.body;
  page += "<script>\n";
  page += parts.d3;
  page += "\n</script>\n<script>\nconst ";
  page += parts.data_name;
  page += " = ";
  page += JsonForScript(parts.data_json);
  page += ";\n</script>\n<script>\n";
  page += parts.script;
  page += "\n</script>\n</body></html>\n";
  return page;
}

}  // namespace cw
