#include "trace/partition.h"

#include <algorithm>
#include <numeric>
#include <tuple>

namespace cw::trace {
namespace {

// A run of consecutive locations (in system-tree order) that must stay on one rank.
struct Unit {
  size_t first = 0;  // index into the order
  size_t count = 0;
  uint64_t weight = 0;
};

// Cuts `order` into units wherever `key` changes.
template <typename Key>
std::vector<Unit> UnitsBy(const std::vector<uint32_t>& order, const std::vector<uint64_t>& weights,
                          Key key) {
  std::vector<Unit> units;
  for (size_t i = 0; i < order.size(); ++i) {
    if (units.empty() || key(order[i]) != key(order[i - 1])) units.push_back(Unit{i, 0, 0});
    ++units.back().count;
    units.back().weight += weights[order[i]];
  }
  return units;
}

// How many contiguous parts of at most `bound` the greedy cut needs.
size_t PartsNeeded(const std::vector<Unit>& units, uint64_t bound) {
  size_t parts = 0;
  uint64_t current = 0;
  for (const Unit& u : units) {
    if (parts == 0 || current + u.weight > bound) {
      ++parts;
      current = 0;
    }
    current += u.weight;
  }
  return parts;
}

// The smallest bound on a part's weight with which `units` fit into `ranks` contiguous parts.
uint64_t OptimalBottleneck(const std::vector<Unit>& units, size_t ranks) {
  uint64_t lo = 0, hi = 0;
  for (const Unit& u : units) {
    lo = std::max(lo, u.weight);
    hi += u.weight;
  }
  while (lo < hi) {
    uint64_t mid = lo + (hi - lo) / 2;
    if (PartsNeeded(units, mid) <= ranks) {
      hi = mid;
    } else {
      lo = mid + 1;
    }
  }
  return lo;
}

// Parts as [first unit, end unit) ranges: the greedy cut under `bound`, then (while there are
// fewer parts than ranks and a part has more than one unit) the heaviest splittable part split
// where its halves are most even. Splitting never raises the heaviest part above `bound`.
std::vector<std::pair<size_t, size_t>> CutUnits(const std::vector<Unit>& units, size_t ranks,
                                                uint64_t bound) {
  std::vector<std::pair<size_t, size_t>> parts;
  uint64_t current = 0;
  for (size_t i = 0; i < units.size(); ++i) {
    if (parts.empty() || current + units[i].weight > bound) {
      parts.emplace_back(i, i);
      current = 0;
    }
    current += units[i].weight;
    parts.back().second = i + 1;
  }
  auto weight_of = [&](size_t first, size_t end) {
    uint64_t w = 0;
    for (size_t i = first; i < end; ++i) w += units[i].weight;
    return w;
  };
  while (parts.size() < ranks) {
    size_t best = parts.size();
    uint64_t best_weight = 0;
    for (size_t p = 0; p < parts.size(); ++p) {
      if (parts[p].second - parts[p].first < 2) continue;
      uint64_t w = weight_of(parts[p].first, parts[p].second);
      if (best == parts.size() || w > best_weight) {
        best = p;
        best_weight = w;
      }
    }
    if (best == parts.size()) break;  // every part is a single unit
    auto [first, end] = parts[best];
    size_t split = first + 1;
    uint64_t left = units[first].weight, best_max = UINT64_MAX;
    for (size_t s = first + 1; s < end; ++s) {
      uint64_t m = std::max(left, best_weight - left);
      if (m < best_max) {
        best_max = m;
        split = s;
      }
      left += units[s].weight;
    }
    parts[best].second = split;
    parts.insert(parts.begin() + static_cast<std::ptrdiff_t>(best) + 1, {split, end});
  }
  return parts;
}

uint64_t Heaviest(const std::vector<Unit>& units,
                  const std::vector<std::pair<size_t, size_t>>& parts) {
  uint64_t heaviest = 0;
  for (auto [first, end] : parts) {
    uint64_t w = 0;
    for (size_t i = first; i < end; ++i) w += units[i].weight;
    heaviest = std::max(heaviest, w);
  }
  return heaviest;
}

}  // namespace

uint64_t LocationWeight(const Location& location) {
  // Declared counts are untrusted (a damaged trace can declare 2^63 events): capped far above
  // any real location so that sums of weights cannot wrap.
  constexpr uint64_t kMostEvents = uint64_t{1} << 40;
  return std::clamp<uint64_t>(location.event_count, 1, kMostEvents);
}

Partition PartitionLocations(const Definitions& defs, uint32_t ranks) {
  const size_t n = defs.locations.size();
  ranks = std::max<uint32_t>(ranks, 1);
  std::vector<uint64_t> weights(n);
  for (size_t i = 0; i < n; ++i) weights[i] = LocationWeight(defs.locations[i]);

  auto group_of = [&](uint32_t loc) { return defs.locations[loc].group; };
  auto node_of = [&](uint32_t loc) {
    uint32_t g = group_of(loc);
    return g < defs.location_groups.size() ? defs.location_groups[g].system_tree_parent : kNone;
  };
  auto process_rank = [&](uint32_t loc) {
    uint32_t g = group_of(loc);
    return g < defs.location_groups.size() && defs.location_groups[g].rank != kNone
               ? defs.location_groups[g].rank
               : g;
  };
  // System-tree order: node, then process (by MPI rank), then location.
  std::vector<uint32_t> order(n);
  std::iota(order.begin(), order.end(), 0u);
  std::stable_sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
    return std::make_tuple(node_of(a), process_rank(a), group_of(a), a) <
           std::make_tuple(node_of(b), process_rank(b), group_of(b), b);
  });

  const std::vector<Unit> by_location = UnitsBy(order, weights, [](uint32_t loc) { return loc; });
  const std::vector<Unit> by_process = UnitsBy(
      order, weights, [&](uint32_t loc) { return std::make_pair(node_of(loc), group_of(loc)); });
  const std::vector<Unit> by_node = UnitsBy(order, weights, node_of);

  Partition result;
  const std::vector<Unit>* units = &by_location;
  result.granularity = Partition::Granularity::kLocation;
  // OpenMP's threads synchronise at every barrier and fork: the analyses between them (wait
  // states, delay costs, the critical path's steps from a worker to its master) run within one
  // analysis rank, so a process with OpenMP threads is never split.
  const bool has_openmp =
      std::any_of(defs.regions.begin(), defs.regions.end(),
                  [](const Region& r) { return r.paradigm == Paradigm::kOpenMp; });
  if (by_process.size() >= ranks || has_openmp) {
    units = &by_process;
    result.granularity = Partition::Granularity::kProcess;
    if (by_node.size() >= ranks) {
      auto node_parts = CutUnits(by_node, ranks, OptimalBottleneck(by_node, ranks));
      auto process_parts = CutUnits(by_process, ranks, OptimalBottleneck(by_process, ranks));
      // Whole nodes per rank, unless that makes the heaviest rank more than 5% heavier.
      if (Heaviest(by_node, node_parts) * 100 <= Heaviest(by_process, process_parts) * 105) {
        units = &by_node;
        result.granularity = Partition::Granularity::kNode;
      }
    }
  }
  const auto parts = n == 0 ? std::vector<std::pair<size_t, size_t>>{}
                            : CutUnits(*units, ranks, OptimalBottleneck(*units, ranks));

  result.owner.assign(n, 0);
  result.owned.assign(ranks, {});
  result.weight.assign(ranks, 0);
  for (size_t r = 0; r < parts.size(); ++r) {
    for (size_t u = parts[r].first; u < parts[r].second; ++u) {
      const Unit& unit = (*units)[u];
      for (size_t i = unit.first; i < unit.first + unit.count; ++i) {
        uint32_t loc = order[i];
        result.owner[loc] = static_cast<uint32_t>(r);
        result.owned[r].push_back(loc);
        result.weight[r] += weights[loc];
      }
    }
  }
  for (std::vector<uint32_t>& locs : result.owned) std::sort(locs.begin(), locs.end());
  return result;
}

}  // namespace cw::trace
