#include "measure/export/internal/rank_properties.h"

#include <cstdio>

namespace cw::measure::internal {

std::string RankScheduling(const std::vector<RankDefs>& defs) {
  std::string lines;
  for (size_t r = 0; r < defs.size(); ++r) {
    const RankDefs& d = defs[r];
    if (!d.present || d.cpus_online <= 0) continue;
    lines += std::to_string(r) + " " + d.host + " " + std::to_string(d.cpus_allowed) + " " +
             std::to_string(d.cpus_online) + " " + std::to_string(d.ran_ns) + " " +
             std::to_string(d.waited_ns) + " " + std::to_string(d.node_ns) + " " +
             std::to_string(d.node_stolen_ns) + " " + std::to_string(d.computation_measured_ns) +
             " " + std::to_string(d.computation_descheduled_ns) + "\n";
  }
  return lines;
}

std::string RankEndings(std::vector<RankDefs>& defs, const RankClocks& clocks, uint64_t min_time,
                        ExportSummary& summary) {
  std::string endings;
  for (size_t r = 0; r < defs.size(); ++r) {
    RankDefs& d = defs[r];
    const int rank = static_cast<int>(r);
    if (d.size_limited && d.size_limit_time > 0 && d.ending.rfind("recording stopped", 0) == 0) {
      if (Result<TimerMap> timer = clocks.Timer(rank); timer.has_value()) {
        const uint64_t at = clocks.Clock(rank)((*timer)(d.size_limit_time));
        char when[48];
        std::snprintf(when, sizeof when, " after %.3f s",
                      at > min_time ? static_cast<double>(at - min_time) * 1e-9 : 0.0);
        d.ending += when;
        for (RankEnding& e : summary.endings) {
          if (e.rank == rank) e.how = d.ending;
        }
      }
    }
    endings += std::to_string(r) + " " + (d.present ? d.ending : "no definitions") + "\n";
  }
  return endings;
}

}  // namespace cw::measure::internal
