// How one wait state's costs are split over its causes (private to analysis/delay).
//
// Given the time per call path of the waiter p and the delayer q in their synchronisation
// interval, the delayer's own waits in it, the wait ω and the propagation costs φ of the wait:
//   δ(c) = max(d_q(c) − d_p(c), 0)        excess time of call path c on q
//   δ̂ = Σ δ(c),  ω̂ = Σ ω(q, l)            total excess, total waiting of q in the interval
//   s  = 1 / (δ̂ + ω̂)
//   short-term cost of c:                  s · δ(c) · ω
//   long-term cost of c for pattern X:     s · δ(c) · φ_X
//   φ_X of q's wait l grows by             s · ω(q, l) · ([X = pattern] · ω + φ_X)
//   propagating part of q's wait l:        max over such intervals of s · ω(q, l) · ω
//   indirect part of the wait:             s · ω̂ · ω
// (Böhme 2013 §4.2.4–4.2.6, with φ per pattern as Scalasca keeps it). `long_term` and φ are
// indexed by pattern slot (PatternSlots).
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <span>

#include "analysis/syncpoints/time_map.h"
#include "analysis/waitstates/sync_edges.h"

namespace cw::analysis::internal {

// Propagation costs are kept per pattern of the waits they explain, but only for the patterns
// the trace has: a slot per pattern in use.
struct PatternSlots {
  explicit PatternSlots(std::span<const bool, kSyncPatternCount> used) {
    slot.fill(-1);
    for (int p = 0; p < kSyncPatternCount; ++p) {
      if (!used[static_cast<size_t>(p)]) continue;
      slot[static_cast<size_t>(p)] = static_cast<int8_t>(width);
      pattern[static_cast<size_t>(width++)] = static_cast<SyncPattern>(p);
    }
  }
  int width = 0;
  std::array<int8_t, kSyncPatternCount> slot;            // by pattern, -1 if unused
  std::array<SyncPattern, kSyncPatternCount> pattern{};  // by slot
};

using PatternCosts = std::array<double, kSyncPatternCount>;  // by slot; `width` used

struct IntervalWait {
  int64_t wait;  // ω(q, l), ticks
  double* phi;   // its propagation costs (one per slot), updated
  double* propagating;
};

// What explains a wait on its delayer: δ̂ and ω̂, in ticks. The indirect share s · ω̂ · ω follows
// from them and the wait, so a delayer on another rank than its waiter returns these two
// integers, shorter on the wire than the share, and the waiter's rank computes the same double.
struct Explanation {
  int64_t excess = 0;   // δ̂
  int64_t waiting = 0;  // ω̂

  // s = 1 / (δ̂ + ω̂), 0 when nothing explains the wait.
  double scale() const {
    return excess + waiting > 0 ? 1.0 / (static_cast<double>(excess) + static_cast<double>(waiting))
                                : 0.0;
  }
  // s · ω̂ · ω for a wait of `wait` ticks.
  double IndirectShare(int64_t wait) const {
    return scale() * static_cast<double>(waiting) * static_cast<double>(wait);
  }
};

struct Split {
  double scale = 0;  // s, 0 when nothing explains the wait
  Explanation explanation;
};

// The excess time δ of the delayer over the waiter, per call path (sorted, only those with
// excess). `cut` ticks of call path `cut_path` are taken off `delayer` first (the part of the
// interval's start call that precedes the interval; see SyncPoints::StartCut). Either side can
// compute it: the delayer's step from the waiter's time, or, in an MPI analysis job, the
// waiter's step from the delayer's interval time (so that it sends δ, shorter than its time).
inline void ExcessOf(std::span<const CallpathTicks> delayer, uint32_t cut_path, int64_t cut,
                     std::span<const CallpathTicks> waiter, TimeVector& excess) {
  excess.clear();
  size_t j = 0;
  for (const CallpathTicks& q : delayer) {
    while (j < waiter.size() && waiter[j].callpath < q.callpath) ++j;
    const int64_t p = (j < waiter.size() && waiter[j].callpath == q.callpath) ? waiter[j].ticks : 0;
    const int64_t d = q.callpath == cut_path ? std::max<int64_t>(q.ticks - cut, 0) : q.ticks;
    if (d > p) excess.push_back(CallpathTicks{q.callpath, d - p});
  }
}

// δ̂ of an excess vector (or the total of any time vector).
inline int64_t TotalTicks(std::span<const CallpathTicks> time) {
  int64_t total = 0;
  for (const CallpathTicks& t : time) total += t.ticks;
  return total;
}

// Calls charge(callpath, short_term, long_term) for every call path with excess time, updates
// the interval's waits, and returns the split. `excess` is ExcessOf's; `long_term` has one entry
// per pattern. `marks_propagating`: whether the interval's waits count as propagating for
// explaining this one (under Scalasca's semantics only point-to-point waits make them so).
// `capped`: Scalasca's point-to-point scale min(ω / (δ̂ + ω̂), 1): where the delayer's excess and
// waiting fall short of the wait, each cause is charged its own size and the rest of the wait
// goes unexplained (causeway's own semantics charge the whole wait).
template <typename Charge>
Split DistributeWait(const PatternSlots& slots, std::span<const CallpathTicks> excess, int64_t wait,
                     SyncPattern pattern, const PatternCosts& phi,
                     std::span<const IntervalWait> waits, bool marks_propagating, bool capped,
                     Charge&& charge) {
  const size_t width = static_cast<size_t>(slots.width);
  Split split;
  Explanation& explanation = split.explanation;
  explanation.excess = TotalTicks(excess);
  for (const IntervalWait& w : waits) explanation.waiting += w.wait;
  const double s = explanation.scale();
  if (s == 0) return split;
  const double omega = static_cast<double>(wait);
  split.scale = s;
  // The scale of the wait itself: s, or Scalasca's capped one (s · ω at most 1).
  const double s_wait = capped ? std::min(s, 1.0 / omega) : s;

  PatternCosts long_term;
  for (const CallpathTicks& x : excess) {
    const double share = s * static_cast<double>(x.ticks);
    for (size_t k = 0; k < width; ++k) long_term[k] = share * phi[k];
    charge(x.callpath, s_wait * static_cast<double>(x.ticks) * omega, long_term);
  }
  const size_t own_slot = static_cast<size_t>(slots.slot[static_cast<size_t>(pattern)]);
  for (const IntervalWait& w : waits) {
    const double k = s * static_cast<double>(w.wait);
    const double k_wait = s_wait * static_cast<double>(w.wait);
    for (size_t x = 0; x < width; ++x) {
      w.phi[x] += (x == own_slot ? k_wait * omega : 0.0) + k * phi[x];
    }
    if (marks_propagating) *w.propagating = std::max(*w.propagating, k_wait * omega);
  }
  return split;
}

}  // namespace cw::analysis::internal
