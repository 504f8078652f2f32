#include "measure/core/patterns.h"

namespace cw::measure {

std::vector<std::string> SplitPatterns(const char* text) {
  std::vector<std::string> patterns;
  if (text == nullptr) return patterns;
  std::string item;
  for (const char* c = text;; ++c) {
    if (*c == ',' || *c == '\0') {
      if (!item.empty()) patterns.push_back(item);
      item.clear();
      if (*c == '\0') break;
    } else {
      item += *c;
    }
  }
  return patterns;
}

}  // namespace cw::measure
