// How the exporter moves each rank's raw timestamps onto one time line (private to
// measure/export): a rank's timer values to its node's CLOCK_MONOTONIC nanoseconds (TimerMap),
// then to rank 0's clock (ClockMap).
//
// Ranks on one node share its monotonic clock and its time-stamp counter: all of them convert
// with the same line and take the same offsets, from the rank whose calibration points lie
// furthest apart (the most precise slope) and from the node's first rank, so that measuring
// noise never moves ranks of one node against each other. Ranks on rank 0's node keep their
// timestamps; a node none of whose ranks has two calibration points (all died early) borrows
// another node's rate.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "base/status.h"
#include "measure/export/internal/raw_definitions.h"

namespace cw::measure::internal {

class RankClocks {
 public:
  // `dir`: the raw trace, for the messages.
  RankClocks(const std::vector<RankDefs>& defs, std::string dir);

  // An error for a rank that counted in timer ticks but has no calibration to convert them.
  Result<TimerMap> Timer(int rank) const;
  ClockMap Clock(int rank) const;

 private:
  struct NodeTimer {
    TimerPoint origin;
    double ns_per_tick = 0;
    uint64_t span = 0;
  };
  const std::vector<RankDefs>& defs_;
  std::string dir_;
  std::map<std::string, NodeTimer> node_timer_;
  double any_rate_ = 0;
  std::map<std::string, int> first_on_host_;
};

}  // namespace cw::measure::internal
