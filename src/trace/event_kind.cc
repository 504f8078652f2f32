#include "trace/event_kind.h"

#include <array>
#include <cstddef>

namespace cw::trace {
namespace {

constexpr std::array<const char*, kEventKindCount> kNames = {"ENTER",
                                                             "LEAVE",
                                                             "MEASUREMENT_ON_OFF",
                                                             "BUFFER_FLUSH",
                                                             "PROGRAM_BEGIN",
                                                             "PROGRAM_END",
                                                             "METRIC",
                                                             "PARAMETER_STRING",
                                                             "PARAMETER_INT",
                                                             "PARAMETER_UNSIGNED_INT",
                                                             "MPI_SEND",
                                                             "MPI_ISEND",
                                                             "MPI_ISEND_COMPLETE",
                                                             "MPI_IRECV_REQUEST",
                                                             "MPI_RECV",
                                                             "MPI_IRECV",
                                                             "MPI_REQUEST_TEST",
                                                             "MPI_REQUEST_CANCELLED",
                                                             "MPI_COLLECTIVE_BEGIN",
                                                             "MPI_COLLECTIVE_END",
                                                             "NON_BLOCKING_COLLECTIVE_REQUEST",
                                                             "NON_BLOCKING_COLLECTIVE_COMPLETE",
                                                             "COMM_CREATE",
                                                             "COMM_DESTROY",
                                                             "RMA_WIN_CREATE",
                                                             "RMA_WIN_DESTROY",
                                                             "RMA_COLLECTIVE_BEGIN",
                                                             "RMA_COLLECTIVE_END",
                                                             "RMA_GROUP_SYNC",
                                                             "RMA_REQUEST_LOCK",
                                                             "RMA_ACQUIRE_LOCK",
                                                             "RMA_TRY_LOCK",
                                                             "RMA_RELEASE_LOCK",
                                                             "RMA_SYNC",
                                                             "RMA_WAIT_CHANGE",
                                                             "RMA_PUT",
                                                             "RMA_GET",
                                                             "RMA_ATOMIC",
                                                             "RMA_OP_COMPLETE_BLOCKING",
                                                             "RMA_OP_COMPLETE_NON_BLOCKING",
                                                             "RMA_OP_TEST",
                                                             "RMA_OP_COMPLETE_REMOTE",
                                                             "THREAD_FORK",
                                                             "THREAD_JOIN",
                                                             "THREAD_TEAM_BEGIN",
                                                             "THREAD_TEAM_END",
                                                             "THREAD_ACQUIRE_LOCK",
                                                             "THREAD_RELEASE_LOCK",
                                                             "THREAD_TASK_CREATE",
                                                             "THREAD_TASK_SWITCH",
                                                             "THREAD_TASK_COMPLETE",
                                                             "THREAD_CREATE",
                                                             "THREAD_BEGIN",
                                                             "THREAD_WAIT",
                                                             "THREAD_END",
                                                             "OMP_FORK",
                                                             "OMP_JOIN",
                                                             "OMP_ACQUIRE_LOCK",
                                                             "OMP_RELEASE_LOCK",
                                                             "OMP_TASK_CREATE",
                                                             "OMP_TASK_SWITCH",
                                                             "OMP_TASK_COMPLETE",
                                                             "CALLING_CONTEXT_SAMPLE",
                                                             "IO_CREATE_HANDLE",
                                                             "IO_DESTROY_HANDLE",
                                                             "IO_DUPLICATE_HANDLE",
                                                             "IO_SEEK",
                                                             "IO_CHANGE_STATUS_FLAGS",
                                                             "IO_DELETE_FILE",
                                                             "IO_OPERATION_BEGIN",
                                                             "IO_OPERATION_TEST",
                                                             "IO_OPERATION_ISSUED",
                                                             "IO_OPERATION_COMPLETE",
                                                             "IO_OPERATION_CANCELLED",
                                                             "IO_ACQUIRE_LOCK",
                                                             "IO_RELEASE_LOCK",
                                                             "IO_TRY_LOCK"};

}  // namespace

const char* EventKindName(EventKind kind) { return kNames[static_cast<size_t>(kind)]; }

PayloadFamily PayloadFamilyOf(EventKind kind) {
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

}  // namespace cw::trace
