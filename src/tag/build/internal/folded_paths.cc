#include "tag/build/internal/folded_paths.h"

#include <unordered_map>

namespace cw::tag::internal {

using trace::kNone;

// Neither loop marker is part of the call paths of what runs inside the loop: the task activity
// graph recorded online walks the stack, which holds no loops, and the two must agree.
bool IsLoopRegion(const trace::Region& r) { return r.role == trace::RegionRole::kLoop; }
bool IsIterationMarker(const trace::Region& r) {
  return r.role == trace::RegionRole::kArtificial && r.paradigm == trace::Paradigm::kUser;
}

// Call paths with recursion folded and loop markers left out: a tree of its own over the
// trace's call tree.
FoldedPaths FoldCallpaths(const trace::Trace& t, uint32_t depth) {
  const trace::CallTree& tree = t.call_tree;
  FoldedPaths f;
  f.of_callpath.resize(tree.size());
  f.own.resize(tree.size());
  std::vector<trace::CallTree::Node> nodes;
  std::unordered_map<uint64_t, uint32_t> index;
  std::vector<uint32_t> occurrences;
  std::vector<bool> changed(tree.size(), false);  // the folded path differs from the call path
  auto intern = [&](uint32_t region, uint32_t parent) {
    uint64_t key = (static_cast<uint64_t>(parent) << 32) | region;
    auto [it, inserted] = index.try_emplace(key, static_cast<uint32_t>(nodes.size()));
    if (inserted) {
      nodes.push_back({region, parent});
      std::string name(t.defs.RegionName(region));
      f.name.push_back(parent == kNone ? name : f.name[parent] + "/" + name);
    }
    return it->second;
  };
  for (uint32_t c = 0; c < tree.size(); ++c) {  // parents come before their children
    uint32_t parent = tree.parent(c) == kNone ? kNone : f.of_callpath[tree.parent(c)];
    uint32_t region = tree.region(c);
    const bool inherited = tree.parent(c) != kNone && changed[tree.parent(c)];
    if (region < t.defs.regions.size() &&
        (IsLoopRegion(t.defs.regions[region]) || IsIterationMarker(t.defs.regions[region]))) {
      // Transparent: what runs inside has the parent's path; the marker's own node is named
      // by the parent's path and its name.
      f.of_callpath[c] = parent;
      f.own[c] = intern(region, parent);
      changed[c] = inherited;
      continue;
    }
    occurrences.clear();
    for (uint32_t p = parent; p != kNone; p = nodes[p].parent) {
      if (nodes[p].region == region) occurrences.push_back(p);  // deepest first
    }
    if (depth > 0 && occurrences.size() >= depth) {
      // A call deeper than the limit is a call at the limit's depth (the depth-th occurrence
      // from the root).
      f.of_callpath[c] = f.own[c] = occurrences[occurrences.size() - depth];
      changed[c] = true;
      ++f.folded;
      continue;
    }
    if (inherited) {
      changed[c] = true;
      ++f.folded;
    }
    f.of_callpath[c] = f.own[c] = intern(region, parent);
  }
  return f;
}

}  // namespace cw::tag::internal
