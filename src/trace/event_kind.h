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

// Inline: the analyses ask it per event.
constexpr PayloadFamily PayloadFamilyOf(EventKind kind) {
  using K = EventKind;
  switch (kind) {
    case K::kEnter:
    case K::kLeave:
      return PayloadFamily::kCallpath;
    case K::kMpiSend:
    case K::kMpiIsend:
    case K::kMpiRecv:
    case K::kMpiIrecv:
      return PayloadFamily::kP2p;
    case K::kMpiIsendComplete:
    case K::kMpiIrecvRequest:
    case K::kMpiRequestTest:
    case K::kMpiRequestCancelled:
    case K::kNonBlockingCollectiveRequest:
      return PayloadFamily::kRequest;
    case K::kMpiCollectiveEnd:
    case K::kNonBlockingCollectiveComplete:
    case K::kRmaCollectiveEnd:
      return PayloadFamily::kCollective;
    case K::kMpiCollectiveBegin:
    case K::kRmaCollectiveBegin:
    case K::kOmpJoin:
      return PayloadFamily::kNoPayload;
    case K::kRmaWinCreate:
    case K::kRmaWinDestroy:
    case K::kRmaGroupSync:
    case K::kRmaRequestLock:
    case K::kRmaAcquireLock:
    case K::kRmaTryLock:
    case K::kRmaReleaseLock:
    case K::kRmaSync:
    case K::kRmaWaitChange:
    case K::kRmaPut:
    case K::kRmaGet:
    case K::kRmaAtomic:
    case K::kRmaOpCompleteBlocking:
    case K::kRmaOpCompleteNonBlocking:
    case K::kRmaOpTest:
    case K::kRmaOpCompleteRemote:
      return PayloadFamily::kRma;
    case K::kThreadFork:
    case K::kThreadJoin:
    case K::kThreadTeamBegin:
    case K::kThreadTeamEnd:
    case K::kThreadAcquireLock:
    case K::kThreadReleaseLock:
    case K::kThreadTaskCreate:
    case K::kThreadTaskSwitch:
    case K::kThreadTaskComplete:
    case K::kThreadCreate:
    case K::kThreadBegin:
    case K::kThreadWait:
    case K::kThreadEnd:
    case K::kOmpFork:
    case K::kOmpAcquireLock:
    case K::kOmpReleaseLock:
    case K::kOmpTaskCreate:
    case K::kOmpTaskSwitch:
    case K::kOmpTaskComplete:
      return PayloadFamily::kThread;
    case K::kMetric:
      return PayloadFamily::kMetric;
    case K::kProgramBegin:
      return PayloadFamily::kProgram;
    default:
      return PayloadFamily::kGeneric;
  }
}

// The OTF2 record name as otf2-print shows it, e.g. "MPI_IRECV_REQUEST".
const char* EventKindName(EventKind kind);

}  // namespace cw::trace
