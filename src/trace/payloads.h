// Side tables of event attributes, one struct per payload family (event_kind.h).
// Field meanings follow the OTF2 record of the same name.
#pragma once

#include <cstdint>

#include "trace/enums.h"

namespace cw::trace {

// Request ids. OTF2 ids are 64-bit, but every writer numbers requests from 1, so payloads keep
// them in 32 bits; an id that does not fit is stored aside (LocationEvents::RequestId reads both).
inline constexpr uint64_t kNoRequest = UINT64_MAX;
inline constexpr uint32_t kNoRequest32 = UINT32_MAX;
inline constexpr uint32_t kWideRequest32 = UINT32_MAX - 1;  // the id is in the overflow table

// MpiSend, MpiIsend, MpiRecv, MpiIrecv, in event order.
struct P2pPayload {
  uint64_t bytes = 0;
  uint32_t comm = kNone;
  uint32_t peer = kNone;  // receiver (sends) or sender (receives), a rank in `comm`
  uint32_t tag = 0;
  // Isend: the IsendComplete or RequestCancelled record that ended the request; Irecv: the
  // IrecvRequest record that posted it. kNone for blocking records and unlinked requests. The
  // request id itself is kept by the linked record (LocationEvents::RequestId reads it).
  uint32_t request_link = kNone;
};

// MpiCollectiveEnd, NonBlockingCollectiveComplete (comm), RmaCollectiveEnd (window).
struct CollectivePayload {
  uint64_t sent = 0;
  uint64_t received = 0;
  uint32_t comm_or_window = kNone;
  uint32_t root = kNone;            // a rank in the communicator, kNone for rootless operations
  uint32_t request = kNoRequest32;  // NonBlockingCollectiveComplete only (see P2pPayload)
  CollectiveOp op = CollectiveOp::kBarrier;
  uint8_t sync_level = 0;  // RmaCollectiveEnd only
};

// The RMA records other than RmaCollectiveBegin/End.
//   WinCreate/WinDestroy/WaitChange: window
//   GroupSync: window, sync_level = detail, group = remote
//   RequestLock/AcquireLock/TryLock: window, remote, lock_id = id, lock type = detail
//     (remote kNone: every rank of the window, as for MPI_Win_lock_all)
//   ReleaseLock: window, remote, lock_id = id
//   Sync: window, remote, sync type = detail
//   Put/Get: window, remote, bytes = sent, matching id = id
//   Atomic: window, remote, atomic type = detail, sent, received, matching id = id
//   OpCompleteBlocking/NonBlocking/Test/Remote: window, matching id = id
// Lock types in RequestLock/AcquireLock/TryLock `detail` (OTF2_LockType's values).
inline constexpr uint32_t kLockExclusive = 0;
inline constexpr uint32_t kLockShared = 1;

struct RmaPayload {
  uint64_t sent = 0;
  uint64_t received = 0;
  uint64_t id = 0;
  uint32_t window = kNone;
  uint32_t remote = kNone;
  uint32_t detail = 0;
};

// Thread and OpenMP records.
//   ThreadFork: model, count = requested threads     ThreadJoin: model
//   ThreadTeamBegin/End: team
//   ThreadAcquire/ReleaseLock: model, lock = lock id, count = acquisition order
//   ThreadTaskCreate/Switch/Complete: team, count = creating thread, lock = generation number
//   ThreadCreate/Begin/Wait/End: team = contingent, id = sequence count
//   OmpFork: count = requested threads   OmpAcquire/ReleaseLock: lock, count = acquisition order
//   OmpTaskCreate/Switch/Complete: id = task id
struct ThreadPayload {
  uint64_t id = 0;
  uint32_t team = kNone;
  uint32_t count = 0;
  uint32_t lock = 0;
  Paradigm model = Paradigm::kUnknown;
};

// Metric: `count` values starting at `first` in LocationEvents::metric_values.
struct MetricPayload {
  uint32_t metric = kNone;
  uint32_t first = 0;
  uint32_t count = 0;
};

// ProgramBegin: program name and `arg_count` argument strings starting at `first_arg`.
struct ProgramPayload {
  uint32_t name = kNone;
  uint32_t first_arg = 0;
  uint32_t arg_count = 0;
};

// Everything else, with fields per kind:
//   MeasurementOnOff: c = 1 (on) or 2 (off)            BufferFlush: a = stop time
//   ProgramEnd: a = exit status (two's complement)
//   ParameterString: c = parameter, d = string          ParameterInt/UnsignedInt: c, a = value
//   CommCreate/CommDestroy: c = communicator
//   CallingContextSample: c = context, d = unwind distance, a = interrupt generator
//   Io*: c = handle (IoDeleteFile: c = I/O paradigm, d = file), a and b the record's numbers
//        (bytes, offsets, matching ids, flags) in record order, d a mode, whence or lock type
struct GenericPayload {
  uint64_t a = 0;
  uint64_t b = 0;
  uint32_t c = kNone;
  uint32_t d = 0;
};

inline constexpr uint32_t kMeasurementOn = 1;
inline constexpr uint32_t kMeasurementOff = 2;

// An OTF2 attribute attached to one event (kept for every attribute the trace carries).
struct EventAttribute {
  uint32_t event = 0;
  uint32_t attribute = kNone;
  uint8_t type = 0;
  uint64_t value = 0;  // raw OTF2_AttributeValue bits
};

}  // namespace cw::trace
