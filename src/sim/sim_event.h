// What the what-if replay reads of one event, and where it reads events from.
//
// The replay streams each location's events through an EventSource in chunks, so that it never
// needs a whole trace in memory: one source reads an in-memory trace::Trace (TraceSource), another
// reads an OTF2 archive location by location. A SimEvent carries the event's attributes already
// resolved (partner ranks as locations, call paths), so the replay needs nothing but the
// definitions besides.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include "base/diagnostics.h"
#include "base/status.h"
#include "trace/enums.h"
#include "trace/event_kind.h"
#include "trace/payloads.h"

namespace cw::sim {

using trace::kNone;

struct SimEvent {
  uint64_t time = 0;                     // measured, in the trace's ticks
  uint64_t bytes = 0;                    // p2p: message size; collectives: max(sent, received)
  uint64_t request = trace::kNoRequest;  // the OTF2 request id of request-bearing records
  uint32_t callpath = kNone;             // Enter/Leave
  uint32_t region = kNone;               // Enter/Leave
  uint32_t comm = kNone;  // p2p, MPI collective: communicator; RMA collective, group sync: window
  uint32_t peer = kNone;  // p2p: the partner location; collectives: root location
  uint32_t tag = 0;       // p2p: tag; RMA group sync: the group of the epoch's partners; RMA lock
                          // records: the lock type (trace::kLockExclusive, ...), | kLockOnAllRanks;
                          // OpenMP lock records: the acquisition order
  trace::EventKind kind = trace::EventKind::kEnter;
  trace::CollectiveOp op = trace::CollectiveOp::kBarrier;  // collectives
  // A ThreadFork, ThreadJoin, ThreadAcquireLock or ThreadReleaseLock of OpenMP's threading model,
  // or a ThreadTeamBegin or ThreadTeamEnd (OpenMP's alone); a lock record's `request` is the
  // lock's id.
  bool omp = false;
};

// In SimEvent::tag of an RMA lock record: the record names no rank (MPI_Win_lock_all's, an
// OpenSHMEM lock's), as opposed to a rank outside the window (peer is kNone for both).
inline constexpr uint32_t kLockOnAllRanks = 1u << 31;

// One location's events in order. Read() is called once per chunk, not per event.
class EventSource {
 public:
  virtual ~EventSource() = default;
  // Appends up to `max` further events to `out` and returns how many; 0 at the end.
  virtual size_t Read(std::vector<SimEvent>& out, size_t max) = 0;
  // Set once the source stopped early because its file could not be read further.
  virtual std::optional<Error> error() const { return std::nullopt; }
  // What reading repaired or found wrong so far (nesting, time reversals, undefined ids).
  virtual Diagnostics diagnostics() const { return {}; }
};

}  // namespace cw::sim
