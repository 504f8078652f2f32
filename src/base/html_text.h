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

}  // namespace cw
