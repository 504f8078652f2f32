#include "clock/controlled_logical_clock.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

namespace cw::clock {
namespace {

using trace::kNone;

struct Jump {
  uint32_t event;
  int64_t before;  // the event's time before the jump (its internally amortised time)
  int64_t delta;
};

// A send-like event and the latest time it may move to.
struct Limit {
  uint32_t event;
  int64_t latest;
};

class Corrector {
 public:
  Corrector(trace::Trace& trace, const ClockCondition& cc, const ClockOptions& options)
      : trace_(trace), cc_(cc), options_(options), n_(trace.location_count()) {
    const double resolution = static_cast<double>(trace.defs.clock.resolution);
    latency_ = static_cast<int64_t>(std::llround(options.min_latency_seconds * resolution));
    time_.resize(n_);
    jumps_.resize(n_);
    // Times are corrected as signed offsets from the trace's first timestamp: OTF2 times are
    // unsigned, and a trace that starts at 2^63 ticks would overflow as int64.
    uint64_t last = 0;
    for (uint32_t l = 0; l < n_; ++l) {
      const trace::LocationEvents& ev = trace.location(l);
      time_[l].reserve(ev.size());
      if (ev.empty()) continue;
      base_ = std::min(base_, ev.time(0));
      last = std::max(last, ev.time(ev.size() - 1));
    }
    if (base_ == UINT64_MAX) base_ = 0;
    span_fits_ = last - std::min(last, base_) < kMostSpan;
  }

  // Correcting adds at most the trace's span to a time: spans beyond 2^61 ticks (73 years at
  // 1 GHz) come only from damaged timestamps, and could overflow.
  static constexpr uint64_t kMostSpan = uint64_t{1} << 61;
  bool span_fits() const { return span_fits_; }

  void Run(ClockCorrection& out) {
    Forward(out);
    Backward(out);
    Commit(out);
  }

 private:
  // The internally amortised time of the next event of `l`.
  int64_t Internal(uint32_t l, uint32_t i) const {
    const trace::LocationEvents& ev = trace_.location(l);
    const int64_t t = Relative(ev.time(i));
    if (i == 0) return t;
    const int64_t gap = t - Relative(ev.time(i - 1));
    const int64_t kept = static_cast<int64_t>(std::ceil(options_.gamma * static_cast<double>(gap)));
    return std::max(t, time_[l][i - 1] + kept);
  }

  int64_t Relative(uint64_t time) const { return static_cast<int64_t>(time - base_); }

  bool Ready(const Dependency& d) const {
    for (uint32_t k = d.first; k < d.first + d.count; ++k) {
      const EventRef& s = cc_.sources[k];
      if (s.event >= time_[s.location].size()) return false;
    }
    return true;
  }

  // Advances location `l` as far as its dependencies allow; `force` ignores the sources not yet
  // corrected of the first blocked event (to break a cycle). Returns whether it advanced.
  bool Advance(uint32_t l, bool force, ClockCorrection& out) {
    const trace::LocationEvents& ev = trace_.location(l);
    const std::vector<Dependency>& deps = cc_.by_location[l];
    std::vector<int64_t>& time = time_[l];
    size_t& next_dep = next_dep_[l];
    const size_t start = time.size();
    while (time.size() < ev.size()) {
      const uint32_t i = static_cast<uint32_t>(time.size());
      int64_t c = Internal(l, i);
      while (next_dep < deps.size() && deps[next_dep].event == i) {
        const Dependency& d = deps[next_dep];
        if (!Ready(d)) {
          if (!force) return time.size() > start;
          ++out.unresolved;
          out.diagnostics.Report(kClockCycle, trace::EventPlace(l, i));
          force = false;
        }
        int64_t need = std::numeric_limits<int64_t>::min();
        for (uint32_t k = d.first; k < d.first + d.count; ++k) {
          const EventRef& s = cc_.sources[k];
          if (s.location == l && s.event == i) continue;
          if (s.event < time_[s.location].size()) {
            need = std::max(need, time_[s.location][s.event] + latency_);
          }
        }
        if (need > c) {
          jumps_[l].push_back(Jump{i, c, need - c});
          c = need;
        }
        ++next_dep;
      }
      time.push_back(c);
    }
    return time.size() > start;
  }

  void Forward(ClockCorrection& out) {
    next_dep_.assign(n_, 0);
    for (;;) {
      bool progress = false;
      bool done = true;
      for (uint32_t l = 0; l < n_; ++l) {
        progress = Advance(l, false, out) || progress;
        done = done && time_[l].size() == trace_.location(l).size();
      }
      if (done) break;
      if (progress) continue;
      // Every unfinished location waits for another: a cycle. Break it at the lowest location.
      for (uint32_t l = 0; l < n_; ++l) {
        if (time_[l].size() < trace_.location(l).size()) {
          Advance(l, true, out);
          break;
        }
      }
    }
    for (const std::vector<Jump>& j : jumps_) out.jumps += j.size();
  }

  // The latest time every source event may take: l_min before the earliest event depending on it.
  std::vector<std::vector<Limit>> Limits() const {
    std::vector<std::vector<Limit>> limits(n_);
    for (uint32_t l = 0; l < n_; ++l) {
      for (const Dependency& d : cc_.by_location[l]) {
        const int64_t latest = time_[l][d.event] - latency_;
        for (uint32_t k = d.first; k < d.first + d.count; ++k) {
          const EventRef& s = cc_.sources[k];
          if (s.location == l) continue;  // a location's own events keep their order anyway
          limits[s.location].push_back(Limit{s.event, latest});
        }
      }
    }
    for (std::vector<Limit>& v : limits) {
      std::sort(v.begin(), v.end(), [](const Limit& a, const Limit& b) {
        return a.event != b.event ? a.event < b.event : a.latest < b.latest;
      });
      v.erase(std::unique(v.begin(), v.end(),
                          [](const Limit& a, const Limit& b) { return a.event == b.event; }),
              v.end());
    }
    return limits;
  }

  // Moves the events of `l` before index `end` whose time is in (low, high] later, along a line
  // from 0 at `low` to `delta` at `high`, bent where a send-like event would pass its limit.
  // Every event before `end` is at most at `high` (the time of the jump's event before it).
  void Amortize(uint32_t l, const std::vector<Limit>& limits, uint32_t end, int64_t low,
                int64_t high, int64_t delta, double& max_slope) {
    if (delta <= 0 || high <= low) return;
    std::vector<int64_t>& time = time_[l];
    const double slope = static_cast<double>(delta) / static_cast<double>(high - low);
    // The send-like event that needs the steepest line to stay within its limit.
    const Limit* bend = nullptr;
    double bend_slope = slope;
    auto first = std::lower_bound(limits.begin(), limits.end(), end,
                                  [](const Limit& a, uint32_t e) { return a.event < e; });
    for (auto it = first; it != limits.begin();) {
      --it;
      const int64_t s = time[it->event];
      if (s <= low) break;
      const int64_t slack = std::max<int64_t>(it->latest - s, 0);
      if (slack >= delta) continue;
      const double needed =
          s >= high ? std::numeric_limits<double>::infinity()
                    : static_cast<double>(delta - slack) / static_cast<double>(high - s);
      if (needed > bend_slope) {
        bend_slope = needed;
        bend = &*it;
      }
    }
    if (bend == nullptr) {
      max_slope = std::max(max_slope, slope);
      for (uint32_t i = end; i-- > 0 && time[i] > low;) {
        time[i] += static_cast<int64_t>(std::floor(slope * static_cast<double>(time[i] - low)));
      }
      return;
    }
    // From the bend on, a line from its slack to `delta`; before it, the same problem with the
    // slack as the jump.
    const int64_t s = time[bend->event];
    const int64_t slack = std::max<int64_t>(bend->latest - s, 0);
    const double steep =
        s >= high ? 0.0 : static_cast<double>(delta - slack) / static_cast<double>(high - s);
    if (s < high) max_slope = std::max(max_slope, steep);
    for (uint32_t i = bend->event; i < end; ++i) {
      time[i] += slack + static_cast<int64_t>(std::floor(steep * static_cast<double>(time[i] - s)));
    }
    Amortize(l, limits, bend->event, low, s, slack, max_slope);
  }

  void Backward(ClockCorrection& out) {
    if (out.jumps == 0) return;
    const std::vector<std::vector<Limit>> limits = Limits();
    for (uint32_t l = 0; l < n_; ++l) {
      if (jumps_[l].empty()) continue;
      const int64_t first = time_[l].front();
      for (const Jump& j : jumps_[l]) {
        int64_t reach =
            static_cast<int64_t>(std::ceil(static_cast<double>(j.delta) / options_.max_slope));
        int64_t low = std::max(j.before - reach, first);
        Amortize(l, limits[l], j.event, low, j.before, j.delta, out.max_slope);
      }
    }
  }

  void Commit(ClockCorrection& out) {
    std::vector<uint64_t> times;
    for (uint32_t l = 0; l < n_; ++l) {
      trace::LocationEvents& ev = trace_.locations[l];
      const std::vector<int64_t>& time = time_[l];
      times.resize(time.size());
      bool changed = false;
      int64_t previous = 0;
      for (uint32_t i = 0; i < time.size(); ++i) {
        // Rounding never reverses the order; this only guards the invariant the column needs.
        int64_t t = std::max(time[i], previous);
        previous = t;
        times[i] = static_cast<uint64_t>(t) + base_;
        int64_t shift = t - Relative(ev.time(i));
        if (shift != 0) {
          ++out.corrected_events;
          changed = true;
          out.max_shift = std::max(out.max_shift, std::abs(shift));
        }
      }
      if (changed) ev.ReplaceTimes(times);
    }
  }

  trace::Trace& trace_;
  const ClockCondition& cc_;
  const ClockOptions& options_;
  const uint32_t n_;
  int64_t latency_ = 0;
  uint64_t base_ = UINT64_MAX;  // the earliest timestamp of the trace
  bool span_fits_ = true;
  std::vector<std::vector<int64_t>> time_;  // corrected times, per location (from base_)
  std::vector<size_t> next_dep_;
  std::vector<std::vector<Jump>> jumps_;
};

}  // namespace

ClockCorrection CorrectTimestamps(trace::Trace& trace, const match::SyncGraph& graph,
                                  const ClockOptions& options) {
  ClockCorrection out;
  const ClockCondition cc = BuildClockCondition(trace, graph);
  out.before = CountViolations(trace, cc);
  Corrector corrector(trace, cc, options);
  if (!corrector.span_fits()) {
    out.diagnostics.Report(kClockSpanTooLong);
    return out;
  }
  corrector.Run(out);
  out.after = CountViolations(trace, cc);
  return out;
}

}  // namespace cw::clock
