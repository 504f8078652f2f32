// The events of one location, stored as columns (struct of arrays).
//
// Column i describes event i: time (ticks), kind, ref and pair. `ref` indexes the side table of
// the kind's payload family, or is the call-path id for Enter/Leave. `pair` gives the structure:
// for an Enter the index of its Leave, for a Leave the index of its Enter, and for any other event
// the index of the Enter of the innermost region it occurred in (kNone outside every region).
//
//   const LocationEvents& ev = trace.location(loc);
//   for (uint32_t i = 0; i < ev.size(); ++i)
//     if (ev.kind(i) == EventKind::kMpiSend) {
//       uint32_t call = ev.pair(i);               // the Enter of MPI_Send
//       uint64_t entered = ev.time(call), left = ev.time(ev.pair(call));
//       const P2pPayload& p = ev.p2p(i);
//     }
#pragma once

#include <cstdint>
#include <span>
#include <unordered_map>
#include <vector>

#include "base/chunked_vector.h"
#include "base/column.h"
#include "trace/enums.h"
#include "trace/event_kind.h"
#include "trace/payloads.h"
#include "trace/time_column.h"

namespace cw::trace {

class LocationEvents {
 public:
  uint32_t size() const { return static_cast<uint32_t>(kind_.size()); }
  bool empty() const { return kind_.empty(); }

  uint64_t time(uint32_t i) const { return time_[i]; }
  EventKind kind(uint32_t i) const { return kind_[i]; }
  uint32_t ref(uint32_t i) const { return ref_[i]; }
  uint32_t pair(uint32_t i) const { return pair_[i]; }

  // The call path an event belongs to: its own for Enter/Leave, else that of the innermost
  // enclosing region; kNone for events outside every region.
  uint32_t callpath(uint32_t i) const {
    EventKind k = kind_[i];
    if (k == EventKind::kEnter || k == EventKind::kLeave) return ref_[i];
    uint32_t enter = pair_[i];
    return enter == kNone ? kNone : ref_[enter];
  }

  const P2pPayload& p2p(uint32_t i) const { return p2p_[ref_[i]]; }
  const CollectivePayload& collective(uint32_t i) const { return collective_[ref_[i]]; }
  const RmaPayload& rma(uint32_t i) const { return rma_[ref_[i]]; }
  const ThreadPayload& thread(uint32_t i) const { return thread_[ref_[i]]; }
  const MetricPayload& metric(uint32_t i) const { return metric_[ref_[i]]; }
  const ProgramPayload& program(uint32_t i) const { return program_[ref_[i]]; }
  const GenericPayload& generic(uint32_t i) const { return generic_[ref_[i]]; }
  std::span<const uint64_t> metric_values() const { return metric_values_; }
  std::span<const uint8_t> metric_types() const { return metric_types_; }
  std::span<const uint32_t> program_args() const { return program_args_; }
  std::span<const EventAttribute> attributes() const { return attributes_; }
  // The attributes attached to event `i` (they are stored in event order).
  std::span<const EventAttribute> AttributesOf(uint32_t i) const;

  // The OTF2 request id of a request record (IsendComplete, IrecvRequest, RequestTest,
  // RequestCancelled, NonBlockingCollectiveRequest), an Isend/Irecv, or a non-blocking
  // collective completion; kNoRequest for events without one.
  uint64_t RequestId(uint32_t i) const;

  // The kind column, for loops that scan many events.
  std::span<const EventKind> kinds() const { return kind_.span(); }

  // Time per call path, measured from the Enter/Leave nesting while reading: one entry per call
  // path the location visited, ordered by call-path id (ticks).
  struct CallpathTime {
    uint32_t callpath;
    uint64_t visits;
    uint64_t inclusive;
    uint64_t exclusive;
  };
  std::span<const CallpathTime> profile() const { return profile_; }

  // Indices (ascending) of events the builder added to repair the nesting; they were not in the
  // file: implicit Leaves and the Enter/Leave pairs that mark measurement-off gaps.
  std::span<const uint32_t> synthetic() const { return synthetic_; }
  uint32_t recorded_size() const { return size() - static_cast<uint32_t>(synthetic_.size()); }

  uint64_t first_time() const { return time_.empty() ? 0 : time_.front(); }
  uint64_t last_time() const { return time_.empty() ? 0 : time_.back(); }

  // Bytes held by the columns and side tables (capacity, not size).
  size_t MemoryBytes() const;

  // Replaces every timestamp (one per event, not decreasing) and measures the call-path times
  // again. Only timestamp correction (clock/) rewrites a trace, before any analysis reads it.
  void ReplaceTimes(std::span<const uint64_t> times);

 private:
  friend class LocationBuilder;

  TimeColumn time_;
  Column<EventKind> kind_;
  Column<uint32_t> ref_;  // request records keep their (32-bit) request id here
  Column<uint32_t> pair_;

  ChunkedVector<P2pPayload> p2p_;
  ChunkedVector<CollectivePayload> collective_;
  ChunkedVector<RmaPayload> rma_;
  ChunkedVector<ThreadPayload> thread_;
  ChunkedVector<MetricPayload> metric_;
  std::vector<uint64_t> metric_values_;
  std::vector<uint8_t> metric_types_;
  ChunkedVector<ProgramPayload> program_;
  std::vector<uint32_t> program_args_;
  ChunkedVector<GenericPayload> generic_;
  std::vector<EventAttribute> attributes_;
  std::vector<uint32_t> synthetic_;
  std::unordered_map<uint32_t, uint64_t> wide_requests_;  // by event index
  std::vector<CallpathTime> profile_;
};

}  // namespace cw::trace
