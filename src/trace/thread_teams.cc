#include "trace/thread_teams.h"

#include <algorithm>
#include <unordered_map>

#include "trace/location_builder.h"

namespace cw::trace {

std::vector<uint32_t> MastersOfThreads(const Definitions& defs) {
  std::vector<uint32_t> first(defs.location_groups.size(), kNone);
  std::vector<uint32_t> master(defs.locations.size(), kNone);
  for (uint32_t loc = 0; loc < defs.locations.size(); ++loc) {
    const Location& l = defs.locations[loc];
    if (l.group >= first.size() || l.type != LocationType::kCpuThread) continue;
    if (first[l.group] == kNone) {
      first[l.group] = loc;
    } else {
      master[loc] = first[l.group];
    }
  }
  return master;
}

bool IsOmpParallelRegion(const Definitions& defs, uint32_t region) {
  return region < defs.regions.size() && defs.regions[region].paradigm == Paradigm::kOpenMp &&
         defs.regions[region].role == RegionRole::kParallel;
}

std::vector<ForkPoint> ForkPoints(const LocationEvents& master) {
  std::vector<ForkPoint> forks;
  std::vector<uint32_t> open;
  for (uint32_t i = 0; i < master.size(); ++i) {
    switch (master.kind(i)) {
      case EventKind::kEnter:
        open.push_back(master.ref(i));
        break;
      case EventKind::kLeave:
        if (!open.empty()) open.pop_back();
        break;
      case EventKind::kThreadFork:
      case EventKind::kOmpFork:
        forks.push_back({master.time(i), open.empty() ? kNone : open.back()});
        break;
      default:
        break;
    }
  }
  return forks;
}

namespace {

// The worker's call paths in its new tree: (kMasterCallpath node or kNone, old id) -> new id.
class GraftedTree {
 public:
  explicit GraftedTree(const CallTree& old) : old_(old) {}

  uint32_t MasterNode(uint32_t master_callpath) {
    return tree_.Intern(kNone, kMasterCallpath | master_callpath);
  }
  // Without recursion: a hostile trace may nest regions a million deep.
  uint32_t Translate(uint32_t graft, uint32_t old) {
    const uint64_t team = uint64_t{graft} << 32;
    path_.clear();  // the old ids not yet translated below `graft`, innermost first
    uint32_t id = old;
    auto known = ids_.end();
    while (id != kNone && (known = ids_.find(team | id)) == ids_.end()) {
      path_.push_back(id);
      id = old_.parent(id);
    }
    uint32_t translated = id == kNone ? graft : known->second;
    for (auto p = path_.rbegin(); p != path_.rend(); ++p) {
      translated = tree_.Intern(translated, old_.region(*p));
      ids_.emplace(team | *p, translated);
    }
    return translated;
  }
  CallTree Take() { return std::move(tree_); }

 private:
  const CallTree& old_;
  CallTree tree_;
  std::unordered_map<uint64_t, uint32_t> ids_;
  std::vector<uint32_t> path_;
};

}  // namespace

void GraftTeamsAtForks(std::span<const ForkPoint> forks, const Definitions& defs,
                       uint32_t calls_attribute, CallTree& tree, LocationEvents& events) {
  if (forks.empty()) return;
  GraftedTree grafted(tree);
  uint32_t depth = 0;
  uint32_t graft = kNone;  // the master's call path node the current team hangs below
  // The fork that started a team entered at `time`: the latest one at or before it.
  const auto graft_at = [&](uint32_t root, uint64_t time) {
    if (tree.parent(root) != kNone || !IsOmpParallelRegion(defs, tree.region(root))) return kNone;
    auto after = std::upper_bound(forks.begin(), forks.end(), time,
                                  [](uint64_t t, const ForkPoint& f) { return t < f.time; });
    if (after == forks.begin() || std::prev(after)->callpath == kNone) return kNone;
    return grafted.MasterNode(std::prev(after)->callpath);
  };
  LocationBuilder::ReplaceCallpaths(
      events,
      [&](uint32_t event, uint32_t old) {
        if (events.kind(event) == EventKind::kEnter) {
          if (depth++ == 0) graft = graft_at(old, events.time(event));
        } else if (depth > 0) {
          --depth;
        }
        return grafted.Translate(graft, old);
      },
      calls_attribute);
  tree = grafted.Take();
}

}  // namespace cw::trace
