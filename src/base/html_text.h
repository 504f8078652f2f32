// Untrusted text (names of regions, runs and files) on the pages causeway writes.
#pragma once

#include <string>

namespace cw {

// `text` as HTML text or attribute value: <, >, & and " escaped.
std::string HtmlText(const std::string& text);

// JSON placed inside <script>: "</script>" or "<!--" in a name must not end the element, so every
// '<' is written as its JSON escape (the JSON means the same), and so are the two line
// separators older JavaScript parsers reject in strings.
std::string JsonForScript(const std::string& json);

// What a self-contained page of causeway's is made of: its style, markup and script (embedded
// at build time, cw_embed_assets), Debian's d3, and the JSON document the script draws, bound to
// `data_name`. The page only draws: everything it shows is in the document.
struct PageParts {
  std::string title;  // untrusted text: escaped
  const char* css = "";
  const char* body = "";
  const char* d3 = "";
  const char* data_name = "DATA";  // the script's constant holding the document
  std::string data_json;           // untrusted text: kept inside its script element
  const char* script = "";
};

// One HTML page holding everything it needs (report.html, compare.html, tag.html): it opens
// from a file, offline, with nothing beside it.
std::string SelfContainedPage(const PageParts& parts);

}  // namespace cw
