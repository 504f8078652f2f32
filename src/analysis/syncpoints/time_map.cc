#include "analysis/syncpoints/time_map.h"

#include <algorithm>

namespace cw::analysis {
namespace {

using trace::EventKind;
using trace::kNone;

// Dense per-thread scratch for accumulating by call path, with the list of touched entries.
struct Scratch {
  std::vector<int64_t> ticks;
  std::vector<uint32_t> touched;

  void Reserve(size_t callpaths) {
    if (ticks.size() < callpaths) ticks.resize(callpaths, 0);
  }
  void Add(uint32_t callpath, int64_t value) {
    if (value == 0) return;
    if (ticks[callpath] == 0) touched.push_back(callpath);
    ticks[callpath] += value;
    // A call path whose sum returns to zero stays in `touched`; Drain skips it.
  }
  // Appends the non-zero entries sorted by call path to the two columns and clears.
  template <typename Emit>
  void Drain(Emit&& emit) {
    std::sort(touched.begin(), touched.end());
    touched.erase(std::unique(touched.begin(), touched.end()), touched.end());
    for (uint32_t cp : touched) {
      if (ticks[cp] != 0) emit(cp, ticks[cp]);
      ticks[cp] = 0;
    }
    touched.clear();
  }
};

Scratch& ThreadScratch(size_t callpaths) {
  thread_local Scratch scratch;
  scratch.Reserve(callpaths);
  return scratch;
}

// The time of one segment per call path. A segment between two synchronising calls usually
// touches a handful of call paths: a short unsorted list beats a dense array there; a segment
// that touches many moves to the dense scratch.
class SegmentTimes {
 public:
  explicit SegmentTimes(Scratch& scratch) : scratch_(scratch) {}

  void Add(uint32_t callpath, int64_t value) {
    if (dense_) {
      scratch_.Add(callpath, value);
      return;
    }
    for (uint32_t i = 0; i < size_; ++i) {
      if (entries_[i].callpath == callpath) {
        entries_[i].ticks += value;
        return;
      }
    }
    if (size_ == kSmall) {
      for (uint32_t i = 0; i < size_; ++i) scratch_.Add(entries_[i].callpath, entries_[i].ticks);
      scratch_.Add(callpath, value);
      size_ = 0;
      dense_ = true;
      return;
    }
    entries_[size_++] = CallpathTicks{callpath, value};
  }

  // Emits the entries sorted by call path, without zeros, and clears.
  template <typename Emit>
  void Drain(Emit&& emit) {
    if (dense_) {
      scratch_.Drain(emit);
      dense_ = false;
      return;
    }
    for (uint32_t i = 1; i < size_; ++i) {  // insertion sort: a few entries
      CallpathTicks e = entries_[i];
      uint32_t j = i;
      for (; j > 0 && entries_[j - 1].callpath > e.callpath; --j) entries_[j] = entries_[j - 1];
      entries_[j] = e;
    }
    for (uint32_t i = 0; i < size_; ++i) {
      if (entries_[i].ticks != 0) emit(entries_[i].callpath, entries_[i].ticks);
    }
    size_ = 0;
  }

 private:
  static constexpr uint32_t kSmall = 16;
  Scratch& scratch_;
  CallpathTicks entries_[kSmall];
  uint32_t size_ = 0;
  bool dense_ = false;
};

}  // namespace

TimeMap TimeMap::Build(const trace::Trace& trace, const trace::LocationEvents& ev,
                       std::span<const uint32_t> calls, std::span<const int64_t> waits,
                       int64_t window_begin, int64_t window_end, std::span<const TimeLead> leads) {
  TimeMap map;
  const size_t segments = calls.size() + 1;
  map.offsets_.reserve(segments + 1);
  map.offsets_.push_back(0);
  // A segment usually holds the synchronising call and the code between it and the next one.
  map.callpath_.reserve(2 * segments);
  map.ticks_.reserve(2 * segments);
  map.untracked_prefix_.reserve(segments + 1);
  map.untracked_prefix_.push_back(0);
  SegmentTimes scratch(ThreadScratch(trace.call_tree.size()));

  int64_t segment_untracked = 0;
  auto close_segment = [&] {
    scratch.Drain([&](uint32_t cp, int64_t t) {
      map.callpath_.push_back(cp);
      map.ticks_.push_back(t);
    });
    map.offsets_.push_back(static_cast<uint32_t>(map.callpath_.size()));
    map.untracked_prefix_.push_back(map.untracked_prefix_.back() + segment_untracked);
    segment_untracked = 0;
  };

  // The wait of the latest synchronisation call: [wait_from, wait_to) is left out.
  int64_t wait_from = 0, wait_to = 0;
  auto credit = [&](uint32_t callpath, int64_t from, int64_t to) {
    if (callpath != kNone && from >= window_begin && to <= window_end &&
        (to <= wait_from || from >= wait_to)) {
      // The common case: inside the window and not waiting.
      scratch.Add(callpath, to - from);
      return;
    }
    from = std::max(from, window_begin);
    to = std::min(to, window_end);
    if (to <= from) return;
    int64_t length = to - from;
    int64_t overlap = std::min(to, wait_to) - std::max(from, wait_from);
    if (overlap > 0) length -= overlap;
    if (callpath == kNone) {
      segment_untracked += length;
      return;
    }
    scratch.Add(callpath, length);
  };

  uint32_t callpath = kNone;  // innermost open region
  int64_t previous = ev.empty() ? 0 : static_cast<int64_t>(ev.time(0));
  size_t next_call = 0;
  size_t next_lead = 0;
  uint32_t next_boundary = calls.empty() ? kNone : calls[0];
  std::span<const EventKind> kinds = ev.kinds();
  for (uint32_t i = 0; i < kinds.size(); ++i) {
    // Only Enter and Leave change the call path, and synchronisation calls start segments: the
    // time between other events needs no look.
    const bool boundary = i == next_boundary;
    if (kinds[i] != EventKind::kEnter && kinds[i] != EventKind::kLeave && !boundary) continue;
    int64_t t = static_cast<int64_t>(ev.time(i));
    credit(callpath, previous, t);
    previous = t;
    if (boundary) {
      // A lead moves the untracked time before its call into the segment the call starts (a
      // worker's first team begins its records: its wake-up is before them, not untracked).
      int64_t lead = 0;
      if (next_lead < leads.size() && leads[next_lead].call == next_call) {
        lead = leads[next_lead].ticks;
        segment_untracked -= std::min(lead, segment_untracked);
      }
      close_segment();
      if (lead > 0) scratch.Add(leads[next_lead].callpath, lead);
      while (next_lead < leads.size() && leads[next_lead].call <= next_call) ++next_lead;
      wait_from = t;
      wait_to = t + waits[next_call];
      ++next_call;
      next_boundary = next_call < calls.size() ? calls[next_call] : kNone;
    }
    if (kinds[i] == EventKind::kEnter) {
      callpath = ev.ref(i);
    } else if (kinds[i] == EventKind::kLeave) {
      callpath = trace.call_tree.parent(ev.ref(i));
    }
  }
  // Calls the events did not reach (none in a consistent model) get empty segments.
  while (map.offsets_.size() < segments) close_segment();
  close_segment();
  return map;
}

void TimeMap::Sum(uint32_t from, uint32_t to, TimeVector& out) const {
  if (to <= from) return;
  const uint32_t begin = offsets_[from], end = offsets_[to];
  if (begin == end) return;
  if (out.empty() && to == from + 1) {  // one segment: already sorted, nothing to merge
    out.reserve(end - begin);
    for (uint32_t i = begin; i < end; ++i) out.push_back(CallpathTicks{callpath_[i], ticks_[i]});
    return;
  }
  // Intervals are usually a few segments of a few call paths each: insert into the sorted result
  // directly. Long ones go through a dense scratch array.
  constexpr size_t kInsertLimit = 64;
  if (end - begin + out.size() <= kInsertLimit) {
    out.reserve(out.size() + (end - begin));
    for (uint32_t i = begin; i < end; ++i) {
      auto it =
          std::lower_bound(out.begin(), out.end(), callpath_[i],
                           [](const CallpathTicks& e, uint32_t cp) { return e.callpath < cp; });
      if (it != out.end() && it->callpath == callpath_[i]) {
        it->ticks += ticks_[i];
      } else {
        out.insert(it, CallpathTicks{callpath_[i], ticks_[i]});
      }
    }
    return;
  }
  uint32_t max_callpath = 0;
  for (uint32_t i = begin; i < end; ++i) max_callpath = std::max(max_callpath, callpath_[i]);
  for (const CallpathTicks& e : out) max_callpath = std::max(max_callpath, e.callpath);
  Scratch& scratch = ThreadScratch(static_cast<size_t>(max_callpath) + 1);
  for (const CallpathTicks& e : out) scratch.Add(e.callpath, e.ticks);
  for (uint32_t i = begin; i < end; ++i) scratch.Add(callpath_[i], ticks_[i]);
  out.clear();
  scratch.Drain([&](uint32_t cp, int64_t t) { out.push_back(CallpathTicks{cp, t}); });
}

size_t TimeMap::MemoryBytes() const {
  return offsets_.capacity() * sizeof(uint32_t) + callpath_.capacity() * sizeof(uint32_t) +
         ticks_.capacity() * sizeof(int64_t) + untracked_prefix_.capacity() * sizeof(int64_t);
}

void AddTimes(const TimeVector& add, TimeVector& into) {
  TimeVector merged;
  merged.reserve(add.size() + into.size());
  size_t i = 0, j = 0;
  while (i < add.size() || j < into.size()) {
    if (j == into.size() || (i < add.size() && add[i].callpath < into[j].callpath)) {
      merged.push_back(add[i++]);
    } else if (i == add.size() || into[j].callpath < add[i].callpath) {
      merged.push_back(into[j++]);
    } else {
      int64_t sum = add[i].ticks + into[j].ticks;
      if (sum != 0) merged.push_back(CallpathTicks{add[i].callpath, sum});
      ++i;
      ++j;
    }
  }
  into = std::move(merged);
}

}  // namespace cw::analysis
