#include "trace/trace.h"

#include <algorithm>
#include <unordered_map>

#include "base/parallel.h"
#include "trace/location_builder.h"
#include "trace/thread_teams.h"

namespace cw::trace {

uint64_t Trace::EventCount() const {
  uint64_t n = 0;
  for (const LocationEvents& loc : locations) n += loc.size();
  return n;
}

uint64_t Trace::RecordedEventCount() const {
  uint64_t n = 0;
  for (const LocationEvents& loc : locations) n += loc.recorded_size();
  return n;
}

uint64_t Trace::BeginTime() const {
  uint64_t begin = UINT64_MAX;
  for (const LocationEvents& loc : locations) {
    if (!loc.empty()) begin = std::min(begin, loc.first_time());
  }
  return begin == UINT64_MAX ? 0 : begin;
}

uint64_t Trace::EndTime() const {
  uint64_t end = 0;
  for (const LocationEvents& loc : locations) {
    if (!loc.empty()) end = std::max(end, loc.last_time());
  }
  return end;
}

std::vector<LocationSpan> LocationSpans(const Trace& trace) {
  std::vector<LocationSpan> spans(trace.location_count());
  for (uint32_t l = 0; l < trace.location_count(); ++l) {
    const LocationEvents& ev = trace.location(l);
    spans[l] = LocationSpan{ev.empty(), ev.first_time(), ev.last_time(), ev.recorded_size()};
  }
  return spans;
}

std::string Trace::CallpathName(uint32_t callpath) const {
  return call_tree.PathName(
      callpath, [this](uint32_t region) { return std::string(defs.RegionName(region)); });
}

size_t Trace::MemoryBytes() const {
  size_t bytes = 0;
  for (const LocationEvents& loc : locations) bytes += loc.MemoryBytes();
  return bytes;
}

namespace {

// Where a thread's call paths hang in the merged tree (thread_teams.h), from the location-local
// trees alone, so that every rank of an analysis job merges them alike.
class TeamGrafts {
 public:
  TeamGrafts(const Trace& trace, const std::vector<CallTree>& local_trees)
      : trace_(trace), trees_(local_trees), masters_(MastersOfThreads(trace.defs)) {}

  // The local node of `loc`'s master whose region `root_region` (a root of `loc`'s tree) is
  // entered first, or kNone if `root_region` is no parallel region or its master never entered
  // it below another region.
  uint32_t MasterNode(uint32_t loc, uint32_t root_region) {
    if (loc >= masters_.size() || masters_[loc] == kNone || masters_[loc] >= loc ||
        !IsOmpParallelRegion(trace_.defs, root_region)) {
      return kNone;
    }
    const uint32_t master = masters_[loc];
    auto [it, inserted] = first_entered_.try_emplace(master);
    if (inserted) {
      const CallTree& tree = trees_[master];
      for (uint32_t id = tree.size(); id-- > 0;) {
        if (tree.parent(id) != kNone) it->second[tree.region(id)] = id;
      }
    }
    auto node = it->second.find(root_region);
    return node == it->second.end() ? kNone : node->second;
  }
  uint32_t master(uint32_t loc) const { return masters_[loc]; }

 private:
  const Trace& trace_;
  const std::vector<CallTree>& trees_;
  std::vector<uint32_t> masters_;
  std::unordered_map<uint32_t, std::unordered_map<uint32_t, uint32_t>> first_entered_;
};

}  // namespace

void AssembleCallTree(Trace& trace, const std::vector<CallTree>& local_trees, unsigned threads,
                      const std::vector<std::pair<uint32_t, uint32_t>>& region_map) {
  std::vector<std::vector<uint32_t>> maps(local_trees.size());
  TeamGrafts grafts(trace, local_trees);
  for (size_t loc = 0; loc < local_trees.size(); ++loc) {
    const CallTree& local = local_trees[loc];
    std::vector<uint32_t>& map = maps[loc];
    map.resize(local.size());
    // Local parents precede their children, so each parent is mapped before it is needed.
    for (uint32_t id = 0; id < local.size(); ++id) {
      uint32_t parent = local.parent(id);
      uint32_t region = local.region(id);
      if (loc < region_map.size() && region == region_map[loc].first) {
        region = region_map[loc].second;
      }
      uint32_t global_parent = parent == kNone ? kNone : map[parent];
      if (parent == kNone && IsMasterCallpath(region)) {
        // A team grafted at its fork (GraftTeamsAtForks): the master's call path itself.
        const uint32_t master = grafts.master(static_cast<uint32_t>(loc));
        const uint32_t at_master = region & ~kMasterCallpath;
        map[id] = master != kNone && master < loc && at_master < maps[master].size()
                      ? maps[master][at_master]
                      : kNone;
        continue;
      }
      if (parent == kNone) {
        const uint32_t at_master = grafts.MasterNode(static_cast<uint32_t>(loc), region);
        if (at_master != kNone) {
          global_parent =
              maps[grafts.master(static_cast<uint32_t>(loc))]
                  [local_trees[grafts.master(static_cast<uint32_t>(loc))].parent(at_master)];
        }
      }
      map[id] = trace.call_tree.Intern(global_parent, region);
    }
  }
  ParallelFor(local_trees.size(), threads, [&](size_t loc) {
    LocationBuilder::RemapCallpaths(trace.locations[loc], maps[loc]);
  });
}

std::vector<MpiFunction> CallpathMpiFunctions(const Trace& trace) {
  std::vector<MpiFunction> result(trace.call_tree.size());
  for (uint32_t cp = 0; cp < trace.call_tree.size(); ++cp) {
    uint32_t region = trace.call_tree.region(cp);
    if (region < trace.defs.regions.size()) result[cp] = trace.defs.regions[region].mpi;
  }
  return result;
}

}  // namespace cw::trace

namespace cw::trace {

namespace {
// Only processes with more than one location can have MPI records on another thread.
bool AnyProcessThreaded(const Definitions& defs) {
  std::vector<uint32_t> per_group(defs.location_groups.size(), 0);
  for (const Location& loc : defs.locations) {
    if (loc.group < per_group.size() && ++per_group[loc.group] > 1) return true;
  }
  return false;
}
}  // namespace

std::vector<std::pair<uint32_t, uint32_t>> CommunicatorUsers(const Trace& trace,
                                                             std::span<const uint32_t> locations) {
  const Definitions& defs = trace.defs;
  std::vector<std::pair<uint32_t, uint32_t>> used;
  if (!AnyProcessThreaded(defs)) return used;
  for (uint32_t loc : locations) {
    const LocationEvents& ev = trace.location(loc);
    std::vector<bool> seen;
    std::span<const EventKind> kinds = ev.kinds();
    for (uint32_t i = 0; i < kinds.size(); ++i) {
      uint32_t comm = kNone;
      switch (kinds[i]) {
        case EventKind::kMpiSend:
        case EventKind::kMpiIsend:
        case EventKind::kMpiRecv:
        case EventKind::kMpiIrecv:
          comm = ev.p2p(i).comm;
          break;
        case EventKind::kMpiCollectiveEnd:
        case EventKind::kNonBlockingCollectiveComplete:
          comm = ev.collective(i).comm_or_window;
          break;
        default:
          continue;
      }
      if (comm >= defs.comms.size()) continue;
      if (seen.size() <= comm) seen.resize(comm + 1, false);
      if (!seen[comm]) used.emplace_back(comm, loc);
      seen[comm] = true;
    }
  }
  return used;
}

void AssignCommunicatorsToThreads(Trace& trace) {
  std::vector<uint32_t> all(trace.location_count());
  for (uint32_t loc = 0; loc < all.size(); ++loc) all[loc] = loc;
  AssignCommunicatorsToThreads(trace, CommunicatorUsers(trace, all));
}

void AssignCommunicatorsToThreads(Trace& trace, std::vector<std::pair<uint32_t, uint32_t>> used) {
  Definitions& defs = trace.defs;
  const uint32_t n = static_cast<uint32_t>(defs.locations.size());
  if (!AnyProcessThreaded(defs)) return;
  std::sort(used.begin(), used.end());

  for (size_t first = 0; first < used.size();) {
    const uint32_t c = used[first].first;
    size_t last = first;
    while (last < used.size() && used[last].first == c) ++last;
    Comm& comm = defs.comms[c];
    // The location that used the communicator in each process (kNone: none did).
    std::vector<uint32_t> user(defs.location_groups.size(), kNone);
    bool shared = false;
    for (size_t k = first; k < last; ++k) {
      const uint32_t loc = used[k].second;
      const uint32_t g = defs.locations[loc].group;
      if (g >= user.size()) continue;
      shared |= user[g] != kNone;
      user[g] = loc;
    }
    first = last;
    if (!comm.defined || comm.is_self) continue;
    if (shared) {
      trace.diagnostics.Report(kCommSharedByThreads, "communicator " + std::to_string(c));
      continue;
    }
    for (uint32_t& loc : comm.rank_to_location) {
      if (loc >= n) continue;
      const uint32_t g = defs.locations[loc].group;
      if (g < user.size() && user[g] != kNone) loc = user[g];
    }
  }
}

std::string EventPlace(uint32_t location, uint32_t event) {
  return "location " + std::to_string(location) + ", event " + std::to_string(event);
}

}  // namespace cw::trace
