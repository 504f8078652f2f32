#include "measure/export/internal/rank_clocks.h"

#include <utility>

#include "measure/raw/raw_format.h"

namespace cw::measure::internal {

RankClocks::RankClocks(const std::vector<RankDefs>& defs, std::string dir)
    : defs_(defs), dir_(std::move(dir)) {
  for (size_t r = 0; r < defs.size(); ++r) {
    first_on_host_.try_emplace(defs[r].host, static_cast<int>(r));
    const RankDefs& d = defs[r];
    if (!d.tsc || d.calibration.empty()) continue;
    NodeTimer& node = node_timer_[d.host];
    double slope = 0;
    const uint64_t span = d.calibration.back().ticks - d.calibration.front().ticks;
    if (TimerMap::Slope(d.calibration, &slope) && span > node.span) {
      node = NodeTimer{d.calibration.front(), slope, span};
      any_rate_ = slope;
    } else if (node.ns_per_tick == 0 && node.span == 0) {
      node.origin = d.calibration.front();
    }
  }
}

Result<TimerMap> RankClocks::Timer(int rank) const {
  const RankDefs& d = defs_[static_cast<size_t>(rank)];
  if (!d.tsc) return TimerMap();
  auto it = node_timer_.find(d.host);
  const double ns_per_tick =
      it == node_timer_.end() ? 0
                              : (it->second.ns_per_tick > 0 ? it->second.ns_per_tick : any_rate_);
  if (ns_per_tick == 0) {
    return MakeError(ErrorCode::kCorrupt, "rank " + std::to_string(rank) +
                                              " has no timer calibration: its timestamps cannot "
                                              "be converted (" +
                                              RawDefsPath(dir_, rank) + ")");
  }
  return TimerMap(it->second.origin, ns_per_tick);
}

ClockMap RankClocks::Clock(int rank) const {
  const std::string& host = defs_[static_cast<size_t>(rank)].host;
  if (host == defs_[0].host) return ClockMap(std::vector<ClockPoint>{});
  return ClockMap(defs_[static_cast<size_t>(first_on_host_.at(host))].clock);
}

}  // namespace cw::measure::internal
