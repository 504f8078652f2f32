// The delayers' interval times, shipped to their waiters' ranks before the backward pass of an
// MPI analysis job (private to analysis/delay).
//
// A wait's delay costs need δ, the delayer's excess time over the waiter per call path in their
// synchronisation interval. In one process the waiter sends its interval time to the delayer,
// which computes δ. Across ranks that time is the bulk of what the pass exchanges, and most of it
// is sent many times over: every waiter of a collective instance waits for the same last entrant,
// whose interval (since the previous instance) is the same for all of them. So before the pass,
// the delayer's rank sends each such interval once per waiter rank, and each waiter's step sends
// δ instead of its time: about one entry instead of five. The interval also carries ω̂, the
// delayer's own waiting in it, so that the waiter's rank computes the wait's indirect share from
// δ̂ and ω̂ itself, and the delayer returns nothing after the pass (unless the pass gave the edge
// up: its delayer then computed δ without the waiter's time, and returns what it found).
//
// Only intervals that two or more crossing waits to one rank share travel this way; the waits of
// an interval of its own (point-to-point, mostly) keep sending their time, which costs less than
// the interval and δ together. Each wait also receives the cut of the start call (SyncRole::cut),
// which depends on both sides.
#pragma once

#include <cstdint>
#include <vector>

#include "analysis/syncpoints/sync_points.h"
#include "analysis/syncpoints/time_map.h"

namespace cw::analysis::internal {

// The first of a delayer's calls whose wait counts in the interval that starts at `start_role`:
// the start call's own wait counts unless it is the synchronisation that starts the interval.
uint32_t WaitsFrom(const LocationSyncPoints& l, uint32_t start_role);
// ω̂: the waiting of the calls [from, to) of the location.
int64_t WaitingIn(const LocationSyncPoints& l, uint32_t from, uint32_t to);

class DelayerIntervals {
 public:
  // What a waiter needs to compute δ and the wait's explanation itself: the delayer's time per
  // call path in the interval, the ticks of `cut_path` to take off it first, and ω̂.
  struct View {
    const TimeVector* time;
    uint32_t cut_path;  // trace::kNone: nothing to take off
    int64_t cut;
    int64_t waiting;
  };

  // One exchange round; every rank of the job calls it (one process: nothing to share).
  static DelayerIntervals Share(const SyncPoints& sp);

  // The delayer's interval of `edge` (a wait of this rank's), if it was shipped here.
  bool Find(uint32_t edge, View& view) const;
  // Whether the interval of `edge` (whose delayer is on this rank) was shipped to its waiter's.
  bool Shipped(uint32_t edge) const { return edge < shipped_.size() && shipped_[edge]; }

 private:
  struct Interval {
    uint32_t cut_path;
    int64_t waiting;
    TimeVector time;
  };
  struct Use {
    uint32_t edge;
    uint32_t interval;
    int64_t cut;
  };
  std::vector<Interval> intervals_;
  std::vector<Use> uses_;      // sorted by edge
  std::vector<bool> shipped_;  // per edge
};

}  // namespace cw::analysis::internal
