// The clock condition of a trace: which events must come after which others on other locations.
//
// A message cannot be received before it was sent, a probe cannot find a message before it was
// sent (Haus 2024 §3.2), and a synchronising collective cannot end on a member before the members
// it waits for began it. Each such pair is a logical message from a source event (the send
// record, a collective's begin) to a receive-like event (the receive record of an unprobed
// message, the Leave of the probe that found it, a collective's end). Timestamps from
// unsynchronised clocks can violate the condition; the controlled logical clock
// (controlled_logical_clock.h) repairs them, and CountViolations says how many there are.
//
// Collectives, by operation (the wait-state patterns' semantics): barrier and N x N operations
// end after every member began; 1-to-N members after the root began; the root of an N-to-1
// operation after every member began; scan members after every lower-ranked member began;
// MPI_Init and MPI_Finalize are left after every process entered them. Incomplete instances and
// Alltoallv/w (whose synchronisation a trace does not show) impose nothing.
//
//   ClockCondition cc = BuildClockCondition(trace, graph);
//   ClockViolationCounts v = CountViolations(trace, cc);
#pragma once

#include <cstdint>
#include <vector>

#include "match/sync_graph.h"
#include "trace/trace.h"

namespace cw::clock {

enum class LogicalMessageKind : uint8_t { kPointToPoint, kProbe, kCollective };

struct EventRef {
  uint32_t location = trace::kNone;
  uint32_t event = trace::kNone;
};

// A receive-like event and the source events it must follow: sources[first, first + count).
struct Dependency {
  uint32_t event = trace::kNone;
  uint32_t first = 0;
  uint32_t count = 0;
  LogicalMessageKind kind = LogicalMessageKind::kPointToPoint;
};

struct ClockCondition {
  std::vector<std::vector<Dependency>> by_location;  // per location, ascending event
  std::vector<EventRef> sources;                     // shared by the members of a collective
};

ClockCondition BuildClockCondition(const trace::Trace& trace, const match::SyncGraph& graph);

struct ClockViolationCounts {
  uint64_t p2p = 0;         // receives earlier than their send record
  uint64_t probe = 0;       // probes that ended before the send record of their message
  uint64_t collective = 0;  // collective ends earlier than a begin they wait for
  uint64_t total() const { return p2p + probe + collective; }
};

// Receive-like events that are earlier than one of their sources (by `latency` ticks or more
// than that: a violation is time(event) < time(source) + latency).
ClockViolationCounts CountViolations(const trace::Trace& trace, const ClockCondition& condition,
                                     int64_t latency = 0);

}  // namespace cw::clock
