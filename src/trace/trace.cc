#include "trace/trace.h"

#include <algorithm>

#include "base/parallel.h"
#include "trace/location_builder.h"

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

std::string Trace::CallpathName(uint32_t callpath) const {
  if (callpath >= call_tree.size()) return "<none>";
  std::vector<uint32_t> chain;
  for (uint32_t c = callpath; c != kNone; c = call_tree.parent(c)) chain.push_back(c);
  std::string name;
  for (auto it = chain.rbegin(); it != chain.rend(); ++it) {
    if (!name.empty()) name += '/';
    name += defs.RegionName(call_tree.region(*it));
  }
  return name;
}

size_t Trace::MemoryBytes() const {
  size_t bytes = 0;
  for (const LocationEvents& loc : locations) bytes += loc.MemoryBytes();
  return bytes;
}

void AssembleCallTree(Trace& trace, const std::vector<CallTree>& local_trees, unsigned threads,
                      const std::vector<std::pair<uint32_t, uint32_t>>& region_map) {
  std::vector<std::vector<uint32_t>> maps(local_trees.size());
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
      map[id] = trace.call_tree.Intern(parent == kNone ? kNone : map[parent], region);
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
