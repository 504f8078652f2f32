// The kinds of events the trace model holds: every OTF2 3.0 event record.
//
// An event is a (timestamp, kind, ref) triple in its location's columns; `ref` points into the
// side table of the kind's payload family (PayloadFamilyOf). Enter and Leave carry a call-path id
// in `ref` instead, so that every event knows its call path without another column.
#pragma once

#include <cstdint>

namespace cw::trace {

enum class EventKind : uint8_t {
  // Regions and measurement.
  kEnter,
  kLeave,
  kMeasurementOnOff,
  kBufferFlush,
  kProgramBegin,
  kProgramEnd,
  kMetric,
  kParameterString,
  kParameterInt,
  kParameterUnsignedInt,
  // MPI point-to-point and requests.
  kMpiSend,
  kMpiIsend,
  kMpiIsendComplete,
  kMpiIrecvRequest,
  kMpiRecv,
  kMpiIrecv,
  kMpiRequestTest,
  kMpiRequestCancelled,
  // MPI collectives (blocking and non-blocking) and communicator life cycle.
  kMpiCollectiveBegin,
  kMpiCollectiveEnd,
  kNonBlockingCollectiveRequest,
  kNonBlockingCollectiveComplete,
  kCommCreate,
  kCommDestroy,
  // One-sided communication.
  kRmaWinCreate,
  kRmaWinDestroy,
  kRmaCollectiveBegin,
  kRmaCollectiveEnd,
  kRmaGroupSync,
  kRmaRequestLock,
  kRmaAcquireLock,
  kRmaTryLock,
  kRmaReleaseLock,
  kRmaSync,
  kRmaWaitChange,
  kRmaPut,
  kRmaGet,
  kRmaAtomic,
  kRmaOpCompleteBlocking,
  kRmaOpCompleteNonBlocking,
  kRmaOpTest,
  kRmaOpCompleteRemote,
  // Threads: generic fork/join and create/wait models, and the legacy OpenMP records.
  kThreadFork,
  kThreadJoin,
  kThreadTeamBegin,
  kThreadTeamEnd,
  kThreadAcquireLock,
  kThreadReleaseLock,
  kThreadTaskCreate,
  kThreadTaskSwitch,
  kThreadTaskComplete,
  kThreadCreate,
  kThreadBegin,
  kThreadWait,
  kThreadEnd,
  kOmpFork,
  kOmpJoin,
  kOmpAcquireLock,
  kOmpReleaseLock,
  kOmpTaskCreate,
  kOmpTaskSwitch,
  kOmpTaskComplete,
  // Sampling and I/O. (Calling-context Enter and Leave records become Enters and Leaves of
  // their frames when read: otf2/internal/calling_context_frames.h.)
  kCallingContextSample,
  kIoCreateHandle,
  kIoDestroyHandle,
  kIoDuplicateHandle,
  kIoSeek,
  kIoChangeStatusFlags,
  kIoDeleteFile,
  kIoOperationBegin,
  kIoOperationTest,
  kIoOperationIssued,
  kIoOperationComplete,
  kIoOperationCancelled,
  kIoAcquireLock,
  kIoReleaseLock,
  kIoTryLock,
};

inline constexpr int kEventKindCount = static_cast<int>(EventKind::kIoTryLock) + 1;

// Which side table holds an event's attributes.
enum class PayloadFamily : uint8_t {
  kCallpath,    // Enter, Leave: ref is the call-path id
  kP2p,         // MpiSend/Isend/Recv/Irecv: P2pPayload
  kRequest,     // request-only records: ref indexes LocationEvents::request_ids
  kCollective,  // MpiCollectiveEnd, NonBlockingCollectiveComplete, RmaCollectiveEnd
  kRma,         // other RMA records: RmaPayload
  kThread,      // thread and OpenMP records: ThreadPayload
  kMetric,      // Metric: MetricPayload + values
  kProgram,     // ProgramBegin: ProgramPayload
  kGeneric,     // everything else: GenericPayload, fields documented per kind
  kNoPayload,   // no attributes (MpiCollectiveBegin, RmaCollectiveBegin, OmpJoin)
};

PayloadFamily PayloadFamilyOf(EventKind kind);

// The OTF2 record name as otf2-print shows it, e.g. "MPI_IRECV_REQUEST".
const char* EventKindName(EventKind kind);

}  // namespace cw::trace
