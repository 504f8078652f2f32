// The call tree: call paths interned as (parent call path, region) pairs.
//
// Ids are dense from 0 and a parent always has a smaller id than its children, so a loop over
// ids visits parents first. Roots have parent kNone.
//
//   CallTree tree;
//   uint32_t main = tree.Intern(kNone, main_region);
//   uint32_t send = tree.Intern(main, send_region);   // "main/MPI_Send"
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <unordered_map>
#include <vector>

#include "trace/enums.h"

namespace cw::trace {

// The innermost regions a shortened call-path label keeps (CallTree::PathLabel, and the reports'
// labels of their call paths).
inline constexpr size_t kPathLabelTail = 4;

class CallTree {
 public:
  struct Node {
    uint32_t region;
    uint32_t parent;  // kNone for a root
  };

  // The id of the call path `parent`/`region`, created if new.
  uint32_t Intern(uint32_t parent, uint32_t region);

  uint32_t size() const { return static_cast<uint32_t>(nodes_.size()); }
  const Node& node(uint32_t id) const { return nodes_[id]; }
  uint32_t region(uint32_t id) const { return nodes_[id].region; }
  uint32_t parent(uint32_t id) const { return nodes_[id].parent; }
  const std::vector<Node>& nodes() const { return nodes_; }

  // Number of ancestors (0 for a root).
  uint32_t Depth(uint32_t id) const;

  // "main/foo/MPI_Send": the names of the regions from the root down to `id`, as
  // `region_name` gives them; "<none>" for an id the tree does not hold.
  std::string PathName(uint32_t id,
                       const std::function<std::string(uint32_t region)>& region_name) const;
  // The same for a person to read: a path deeper than kPathLabelTail + 2 regions keeps its root
  // and its innermost kPathLabelTail ("main/.../a/b/c/MPI_Send"), which say where the call is.
  std::string PathLabel(uint32_t id,
                        const std::function<std::string(uint32_t region)>& region_name) const;

 private:
  static uint64_t Key(uint32_t parent, uint32_t region) {
    return (static_cast<uint64_t>(parent) << 32) | region;
  }

  std::vector<Node> nodes_;
  std::unordered_map<uint64_t, uint32_t> index_;
};

}  // namespace cw::trace
