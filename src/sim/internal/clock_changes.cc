#include "sim/internal/clock_changes.h"

#include <algorithm>
#include <cmath>

namespace cw::sim::internal {

bool Applies(const ComputeScale& rule, uint32_t location, uint32_t rank) {
  if (rule.location != trace::kNone) return rule.location == location;
  return rule.ranks.all() || (rank != trace::kNone && rule.ranks.Contains(rank));
}

int64_t WindowScaled(const std::vector<ComputeWindowTicks>& windows, size_t& next, int64_t from,
                     int64_t to, int64_t scaled) {
  while (next < windows.size() && windows[next].end <= from) ++next;
  double out = static_cast<double>(scaled);
  const double per_tick = static_cast<double>(scaled) / static_cast<double>(to - from);
  for (size_t w = next; w < windows.size() && windows[w].begin < to; ++w) {
    const int64_t overlap = std::min(to, windows[w].end) - std::max(from, windows[w].begin);
    if (overlap > 0) out += static_cast<double>(overlap) * per_tick * (windows[w].factor - 1);
  }
  return std::max<int64_t>(0, std::llround(out));
}

std::vector<CallChangeTicks> CallChangesByCallpath(const Perturbation& p, double ticks_per_second) {
  std::vector<CallChangeTicks> out;
  for (const CallChange& c : p.calls) {
    if (c.callpath == UINT32_MAX) continue;
    if (c.callpath >= out.size()) out.resize(c.callpath + 1);
    CallChangeTicks& t = out[c.callpath];
    t.remove = t.remove || c.remove;
    if (c.max_cost) {
      t.max_cost =
          std::min(t.max_cost, static_cast<int64_t>(std::llround(*c.max_cost * ticks_per_second)));
    }
  }
  return out;
}

}  // namespace cw::sim::internal
