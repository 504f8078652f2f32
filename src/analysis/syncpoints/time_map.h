// The non-waiting time of one location per call path, cut at its synchronisation calls.
//
// Delay analysis compares what two locations did between two synchronisations, and the critical
// path adds up what one location did between two jumps; both need "time per call path between
// these two calls, without waiting". The time map stores it once per location as segments: the
// exclusive time of every call path between consecutive synchronisation calls, with three kinds
// of time left out:
//   - the wait at the start of each synchronisation call (the wait states the root-cause
//     analyses follow), so that what remains is work or communication that was not waiting;
//   - time before the analysis window begins and after it ends (see sync_points.h).
// Time outside every region (traces of programs without an instrumented main, say) belongs to no
// call path; the map counts it separately as untracked time.
// Times stay integer ticks, so a sum never depends on how it was taken.
//
// Boundaries: 0 is the start of the location, j + 1 the Enter of synchronisation call j, and
// calls + 1 its end. The time between boundaries x < y is Sum(x, y).
//
//   TimeVector d;
//   map.Sum(start_call + 1, end_call + 1, d);   // from the start call's Enter to the end call's
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "trace/trace.h"

namespace cw::analysis {

struct CallpathTicks {
  uint32_t callpath;
  int64_t ticks;
  bool operator==(const CallpathTicks&) const = default;
};
// Sorted by call path, without zero entries.
using TimeVector = std::vector<CallpathTicks>;

// A stretch of time left out of the map: [from, to).
struct Excluded {
  int64_t from;
  int64_t to;
};

// Time before synchronisation call `call` that belongs to the segment it starts, on `callpath`:
// an OpenMP worker's team starts at its ThreadTeamBegin, but the team was forked `ticks` earlier,
// and that wake-up is the worker's time in the parallel region (as omp_fork counts it), not time
// outside every region before it.
struct TimeLead {
  uint32_t call = 0;  // index into the calls
  uint32_t callpath = trace::kNone;
  int64_t ticks = 0;
};

class TimeMap {
 public:
  TimeMap() = default;

  // Builds the map of `events`. `calls` are the Enter event indices of the synchronisation calls
  // (ascending), `waits[j]` the wait in ticks at the start of call j (0 for none); only time in
  // [window_begin, window_end) counts. `leads` (ascending calls) move the time before their calls
  // into the segments the calls start (untracked time there, or time before the first event).
  static TimeMap Build(const trace::Trace& trace, const trace::LocationEvents& events,
                       std::span<const uint32_t> calls, std::span<const int64_t> waits,
                       int64_t window_begin, int64_t window_end,
                       std::span<const TimeLead> leads = {});

  uint32_t boundary_count() const { return static_cast<uint32_t>(offsets_.size()); }

  // Adds the time per call path between boundaries `from` <= `to` to `out` (merged, sorted).
  void Sum(uint32_t from, uint32_t to, TimeVector& out) const;
  // Time outside every region between the boundaries (not waiting, but no call path's either).
  int64_t Untracked(uint32_t from, uint32_t to) const {
    return untracked_prefix_[to] - untracked_prefix_[from];
  }

  size_t MemoryBytes() const;

 private:
  // Segment s (between boundaries s and s + 1) holds entries [offsets_[s], offsets_[s + 1]).
  std::vector<uint32_t> offsets_;
  std::vector<uint32_t> callpath_;
  std::vector<int64_t> ticks_;
  std::vector<int64_t> untracked_prefix_;  // per boundary: untracked time before it
};

// Adds `add` into `into` (both sorted by call path).
void AddTimes(const TimeVector& add, TimeVector& into);

}  // namespace cw::analysis
