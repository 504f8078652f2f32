#include "trace/call_tree.h"

namespace cw::trace {

uint32_t CallTree::Intern(uint32_t parent, uint32_t region) {
  auto [it, inserted] = index_.try_emplace(Key(parent, region), size());
  if (inserted) nodes_.push_back(Node{region, parent});
  return it->second;
}

uint32_t CallTree::Depth(uint32_t id) const {
  uint32_t depth = 0;
  for (uint32_t p = nodes_[id].parent; p != kNone; p = nodes_[p].parent) ++depth;
  return depth;
}

std::string CallTree::PathName(
    uint32_t id, const std::function<std::string(uint32_t region)>& region_name) const {
  if (id >= size()) return "<none>";
  std::vector<uint32_t> chain;
  for (uint32_t c = id; c != kNone; c = parent(c)) chain.push_back(c);
  std::string name;
  for (auto it = chain.rbegin(); it != chain.rend(); ++it) {
    if (!name.empty()) name += '/';
    name += region_name(region(*it));
  }
  return name;
}

std::string CallTree::PathLabel(
    uint32_t id, const std::function<std::string(uint32_t region)>& region_name) const {
  if (id >= size()) return "<none>";
  std::vector<uint32_t> chain;
  for (uint32_t c = id; c != kNone; c = parent(c)) chain.push_back(c);
  if (chain.size() <= kPathLabelTail + 2) return PathName(id, region_name);
  std::string label = region_name(region(chain.back())) + "/...";
  for (size_t k = kPathLabelTail; k-- > 0;) label += "/" + region_name(region(chain[k]));
  return label;
}

}  // namespace cw::trace
