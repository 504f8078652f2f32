#include "tag/model/callpath_folding.h"

#include <utility>

namespace cw::tag {

std::vector<std::string> FoldRecursion(std::vector<std::string> path, uint32_t depth) {
  if (depth == 0) return path;
  std::vector<std::string> folded;
  for (std::string& element : path) {
    uint32_t seen = 0;
    size_t at_depth = 0;
    for (size_t i = 0; i < folded.size(); ++i) {
      if (folded[i] == element && ++seen == depth) at_depth = i;
    }
    if (seen >= depth) {
      folded.resize(at_depth + 1);  // this call is a call at the depth-th occurrence
      continue;
    }
    folded.push_back(std::move(element));
  }
  return folded;
}

}  // namespace cw::tag
