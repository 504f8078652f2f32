// What libcauseway-mpi writes while the program runs, before it becomes OTF2.
//
// Every rank appends fixed-size records to DIR/raw/rank-<r>.events whenever its buffer fills,
// and definitions as text lines to DIR/raw/rank-<r>.defs as they arise. Both are written with
// plain write(2) calls, so that a signal handler can still flush them when the program crashes;
// the exporter (measure/export) turns a directory of them into one OTF2 archive with unified
// definitions, at MPI_Finalize or afterwards (`causeway trace` does it for ranks that died).
//
// Records are in the byte order of the machine that wrote them; the exporter runs on the same
// system. A record cut short by a crash is recognised by the file length and dropped.
#pragma once

#include <cstdint>
#include <string>

#include "measure/wrappers/mpi_functions.gen.h"
#include "measure/wrappers/shmem_functions.gen.h"

namespace cw::measure {

enum class RawKind : uint8_t {
  kEnter = 1,         // a = region, b = calling-context node of the call (0: not walked)
  kLeave,             // a = region, y = the calls it ends (polling compaction; 0 means 1)
  kSend,              // a = comm, b = receiver (rank in comm), c = tag, x = bytes
  kIsend,             // as kSend, y = request id
  kIsendComplete,     // y = request id
  kIrecvRequest,      // y = request id, c = message handle (MPI_Imrecv; 0 otherwise)
  kRecv,              // a = comm, b = sender (rank in comm), c = tag, x = bytes,
                      // y = message handle (MPI_Mrecv; 0 otherwise)
  kIrecv,             // as kRecv, y = request id
  kRequestTest,       // y = request id
  kRequestCancelled,  // y = request id
  kCollectiveBegin,   // (at the time of the call's Enter)
  // op = OTF2 collective op, a = comm, b = root (kNoRank), x = sent, y = received, c = the
  // group of the processes that send the rank data + 1 (v-collectives; 0: not recorded)
  kCollectiveEnd,
  // The message a successful probe found: a = comm, b = source (rank in comm), c = tag,
  // y = message handle (MPI_Mprobe/MPI_Improbe; 0 otherwise). Not an event: it becomes the
  // attributes of the probe's Leave, the next record.
  kProbeFound,
  kNonBlockingCollectiveRequest,   // y = request id, c = senders + 1 as in kCollectiveEnd
  kNonBlockingCollectiveComplete,  // as kCollectiveEnd, c = request id
  // One-sided communication. Windows and targets: a = window (local id), b = target rank in the
  // window's communicator (kNoRank: all of them).
  kRmaWinCreate,           // a = window
  kRmaWinDestroy,          // a = window
  kRmaCollectiveBegin,     // (at the time of the call's Enter)
  kRmaCollectiveEnd,       // op = OTF2 collective op, a = window, c = OTF2 sync level
  kRmaGroupSync,           // a = window, b = group (local id), c = OTF2 sync level
  kRmaRequestLock,         // a, b, op = OTF2 lock type, y = lock id (at the call's Enter)
  kRmaAcquireLock,         // a, b, op = OTF2 lock type, y = lock id
  kRmaReleaseLock,         // a, b, y = lock id
  kRmaSync,                // a, b, op = OTF2 sync type
  kRmaPut,                 // a, b, x = bytes, y = matching id
  kRmaGet,                 // a, b, x = bytes, y = matching id
  kRmaAtomic,              // a, b, op = OTF2 atomic type, x = bytes sent, c = bytes received,
                           // y = matching id
  kRmaOpCompleteBlocking,  // a = window, y = matching id (where the epoch completed it)
  // OpenSHMEM (shmem_hooks.cc) adds: a lock attempt that failed (shmem_test_lock), and the start
  // of a wait for a remote update (shmem_wait_until).
  kRmaTryLock,     // a, b, op = OTF2 lock type, y = lock id
  kRmaWaitChange,  // a = window
  // The rank stopped recording at its share of the size limit (a = 0), and took it up again
  // for MPI_Finalize (a = 1): OTF2's MeasurementOnOff.
  kMeasurementOnOff,
  // MPI-IO, as Score-P records it (OTF2's I/O records): a = file handle (local id of a "file"
  // definition line), y = matching id of an operation.
  kIoCreateHandle,       // b = OTF2 access mode, c = OTF2 status flags, x = OTF2 creation flags
  kIoDestroyHandle,      // (at MPI_File_close)
  kIoOperationBegin,     // b = OTF2 operation flags, c = OTF2 operation mode, x = bytes asked
  kIoOperationIssued,    // a non-blocking or split operation left its starting call
  kIoOperationComplete,  // x = bytes transferred
  // A sample of the thread's computation (causeway trace --callpaths sampled): a = its
  // calling-context node. Not an event: it moves the walked functions (measure/export).
  kSample,
  // OpenMP (omp_hooks.cc, through OMPT), as Score-P records it: a thread forks a team (a =
  // threads requested, b = calling-context node of the fork, 0: not walked) and joins it; each
  // thread of the team begins and ends its part in it; locks of critical sections and of the lock
  // routines are acquired and released (a = the process's lock id, y = the acquisition's number
  // among that lock's, from 1 as in Score-P).
  kThreadFork,
  kThreadJoin,
  kThreadTeamBegin,
  kThreadTeamEnd,
  kThreadAcquireLock,
  kThreadReleaseLock,
};

inline constexpr uint32_t kNoRank = 0xFFFFFFFFu;

// Definitions file lines (text, one per line):
//   rank R SIZE HOST                       first line
//   timer tsc|monotonic                    what event times count
//   tick COUNTER NANOSECONDS               a calibration point of the time-stamp counter
//   clock init|finalize LOCAL_NS OFFSET_NS this rank's clock minus rank 0's, by ping-pong
//   comm LOCAL GLOBAL world                MPI_COMM_WORLD
//   comm LOCAL GLOBAL N R0 ... R(N-1)      a communicator and its world ranks; GLOBAL is the id
//                                          its members agreed on at creation, -1 if causeway
//                                          did not see it created, -2 for MPI_COMM_SELF
//   win LOCAL GLOBAL COMM                  an RMA window: GLOBAL is the id its members agreed
//                                          on at creation, COMM the local id of its
//                                          communicator
//   shmem_win LOCAL START LOGSTRIDE SIZE   an OpenSHMEM active set's window (the symmetric heap
//                                          as the PEs START + i * 2^LOGSTRIDE, i < SIZE, see it)
//   group LOCAL N R0 ... R(N-1)            a process group (of MPI_Win_post/start), world ranks
//   region ID NAME                         a user region
//   omp_region ID CONSTRUCT PC             an OpenMP construct's region (omp_hooks.cc): its
//                                          kind (parallel, barrier, critical, ...) and where
//                                          the program encountered it (hex, 0: unknown)
//   file LOCAL COMM NAME                   an MPI file handle, opened on the communicator COMM
//                                          (local id; -1: not seen opened) for the file NAME
//   frame ID PARENT PC                     a calling-context node (causeway trace --callpaths):
//                                          the return address PC (hex) under the node PARENT
//                                          (0: the outermost frame); ids count from 1
//   samples TAKEN LOST NS                  stack samples the rank's threads took, those
//                                          dropped because a thread's buffer was full, and the
//                                          nanoseconds taking and writing them cost
//   walks TRUNCATED CUT_SHORT COUNT TIME   walks deeper than the depth kept, paths that ended
//                                          early because the rank's tree was full, and the
//                                          walks at calls and the timer units they took
//   unbalanced_regions N
//   reused_thread_slots N                  threads that took the location of one that ended
//   openmp_serial TEAMS LOCKS              what OpenMP's recording left out (omp_hooks.cc):
//                                          parallel regions with a team of one thread, and lock
//                                          acquisitions while the process had one OpenMP thread
//   end EVENTS UNRECORDED FLUSHES FLUSH_NS ok|lost      after MPI_Finalize
//   size_limit BYTES TIME                  the rank stopped recording at its share, BYTES, of
//                                          the size limit (causeway trace --max-size), at TIME
//   signal N | abort | exit without MPI_Finalize | fatal error handler TEXT
//                                          how a rank ended otherwise (TEXT: MPI's error string)

struct RawEvent {
  uint64_t time;  // nanoseconds of the rank's monotonic clock
  RawKind kind;
  uint8_t op;
  uint16_t reserved;
  uint32_t a;
  uint32_t b;
  uint32_t c;
  uint64_t x;
  uint64_t y;
};
static_assert(sizeof(RawEvent) == 40, "the raw record layout is part of the file format");

// Region indices: the MPI functions first (MpiFunction), the OpenSHMEM routines next
// (ShmemFunction, from kShmemFirstRegion), then the buffer flush, which the
// trace shows as a region so that its perturbation is visible, then the program itself: "main",
// from MPI_Init to MPI_Finalize, so that the time between MPI calls is the program's
// computation rather than time outside every region.
inline constexpr uint32_t kShmemFirstRegion = kMpiFunctionCount;
inline constexpr uint32_t kFlushRegion = kShmemFirstRegion + kShmemFunctionCount;
inline constexpr const char* kFlushRegionName = "TRACE BUFFER FLUSH";
inline constexpr uint32_t kProgramRegion = kFlushRegion + 1;
inline constexpr const char* kProgramRegionName = "main";

inline std::string RawEventsPath(const std::string& dir, int rank) {
  return dir + "/raw/rank-" + std::to_string(rank) + ".events";
}
inline std::string RawDefsPath(const std::string& dir, int rank) {
  return dir + "/raw/rank-" + std::to_string(rank) + ".defs";
}
// The rank's /proc/self/maps, which names the return addresses of its calling contexts.
inline std::string RawMapsPath(const std::string& dir, int rank) {
  return dir + "/raw/rank-" + std::to_string(rank) + ".maps";
}
// Written by rank 0 once every rank's files are complete (after the barrier in MPI_Finalize),
// when `causeway trace` exports: it may begin while the command ends
// (measure/export/early_export.h).
inline std::string RawCompletePath(const std::string& dir) { return dir + "/raw/complete"; }
// Threads of a process that can record, the one that initialised MPI included. Calls from
// threads beyond these are counted, not recorded.
inline constexpr int kMaxThreads = 256;

// Threads other than the one that initialised MPI (thread >= 1) have their own events, and
// their own definitions file for the timer calibration of their flushes.
inline std::string RawThreadEventsPath(const std::string& dir, int rank, int thread) {
  return dir + "/raw/rank-" + std::to_string(rank) + ".thread-" + std::to_string(thread) +
         ".events";
}
inline std::string RawThreadDefsPath(const std::string& dir, int rank, int thread) {
  return dir + "/raw/rank-" + std::to_string(rank) + ".thread-" + std::to_string(thread) + ".defs";
}

}  // namespace cw::measure
