// What the generated MPI wrappers call (see wrappers/mpi_functions.def).
//
// The recorder is one per process: it starts when MPI_Init returns and ends in MPI_Finalize.
// Each thread that calls MPI records into a log of its own, which becomes its own OTF2 location,
// so threads never interleave in one location's nesting: the thread that initialised MPI always,
// the others if the thread level lets them call MPI (MPI_THREAD_SERIALIZED or _MULTIPLE; calls
// that MPI_THREAD_FUNNELED forbids are counted, not recorded). Communicators get ids that all their
// members agree on at creation (an allreduce over the new communicator), which is what lets the
// exporter unify the ranks' definitions. Requests are followed from their start to their completion
// so that a completion can be written as Score-P writes it (MpiIsendComplete, MpiIrecv with
// envelope).
#pragma once

#include <mpi.h>
#include <otf2/OTF2_Events.h>

#include <cstdint>

#include "measure/core/message_bytes.h"
#include "measure/raw/raw_format.h"
#include "measure/runtime/error_handlers.h"

namespace cw::measure::hook {

uint64_t Now();
bool Recording();

// The functions --filter-exclude leaves out (those of the table marked filterable whose names
// match an exclude pattern): indexed by region, so the OpenSHMEM routines follow the MPI ones.
// Set once when the recorder starts.
extern bool g_filtered_calls[kFlushRegion];
inline bool Filtered(MpiFunction f) { return g_filtered_calls[static_cast<uint32_t>(f)]; }
inline bool ShmemFiltered(ShmemFunction f) {
  return g_filtered_calls[kShmemFirstRegion + static_cast<uint32_t>(f)];
}

// Holds the recorder's mutex under MPI_THREAD_MULTIPLE, nothing otherwise. The generated wrappers
// hold one around the hooks before and after the PMPI call (never across it: a blocking call would
// keep every other thread out).
class HookLock {
 public:
  HookLock();
  ~HookLock();
  HookLock(const HookLock&) = delete;
  HookLock& operator=(const HookLock&) = delete;

 private:
  bool locked_ = false;
};

// Records the Enter of a call on construction and its Leave on destruction. Each call walks the
// stack for its call path (before its clock reading), a poll too: a poll repeated from the same
// return address with nothing recorded between can still have another path (one helper polling
// for two callers in turn), and in a polling loop the walk of an unchanged stack is cheap (the
// thread's recent paths). Polling compaction folds only polls of the same path.
class CallScope {
 public:
  explicit CallScope(MpiFunction f) : CallScope(static_cast<uint32_t>(f)) {}
  explicit CallScope(uint32_t region);
  ~CallScope();
  CallScope(const CallScope&) = delete;
  CallScope& operator=(const CallScope&) = delete;

 private:
  void RecordLeave();
  uint32_t region_;
};

// The measurement starts after the call to `init_region` that began at `enter` (MPI_Init*,
// or shmem_init for an OpenSHMEM program), and ends in the call to `finalize_region`.
void Started(uint32_t init_region, uint64_t enter);
inline void Started(MpiFunction init, uint64_t enter) {
  Started(static_cast<uint32_t>(init), enter);
}
void Finalizing(uint32_t finalize_region);
inline void Finalizing(MpiFunction finalize) { Finalizing(static_cast<uint32_t>(finalize)); }
void Abort(MPI_Comm comm);

inline constexpr uint32_t kNoRoot = kNoRank;

void Send(MPI_Comm comm, int dest, int tag, int count, MPI_Datatype type);
void Recv(MPI_Comm comm, MPI_Datatype type, const MPI_Status* status);
void Isend(MPI_Comm comm, int dest, int tag, int count, MPI_Datatype type,
           const MPI_Request* request);
void Irecv(MPI_Comm comm, MPI_Datatype type, const MPI_Request* request);

// Persistent requests: made inactive; MPI_Start/Startall record what Isend/Irecv record.
void SendInit(MPI_Comm comm, int dest, int tag, int count, MPI_Datatype type,
              const MPI_Request* request);
void RecvInit(MPI_Comm comm, const MPI_Request* request);
void StartRequests(int count, const MPI_Request* requests);

// Probes: what a successful probe found, for the attributes of its Leave. Matched probes give
// the message a handle id that its MPI_Mrecv/MPI_Imrecv record carries.
void Probed(MPI_Comm comm, const MPI_Status* status);
void IProbed(MPI_Comm comm, const int* flag, const MPI_Status* status);
void MProbed(MPI_Comm comm, const MPI_Message* message, const MPI_Status* status);
void IMProbed(MPI_Comm comm, const int* flag, const MPI_Message* message, const MPI_Status* status);
void SaveMessage(const MPI_Message* message);
void MRecv(const MPI_Status* status);
void IMRecv(const MPI_Request* request);

// A rooted collective's root as OTF2 3.0 records it: the rank, or on an inter-communicator
// OTF2_COLLECTIVE_ROOT_SELF for MPI_ROOT and OTF2_COLLECTIVE_ROOT_THIS_GROUP for MPI_PROC_NULL.
uint32_t CollectiveRoot(MPI_Comm comm, int root);

// Non-blocking collectives: the operation is recorded by the completion call that ends it.
void CollStarted(OTF2_CollectiveOp op, MPI_Comm comm, uint32_t root, uint64_t sent,
                 uint64_t received, const MPI_Request* request);
inline void CollStarted(OTF2_CollectiveOp op, MPI_Comm comm, int root, uint64_t sent,
                        uint64_t received, const MPI_Request* request) {
  CollStarted(op, comm, CollectiveRoot(comm, root), sent, received, request);
}

// Completion: the handles as they were before the call (MPI resets completed ones).
void SaveRequests(int count, const MPI_Request* requests);
void CompleteAll(int count, const MPI_Status* statuses);
void CompleteOne(const int* index, const MPI_Status* status);
void CompleteSome(const int* outcount, const int indices[], const MPI_Status statuses[]);
void TestAll(int count, const int* flag, const MPI_Status* statuses);
void TestOne(const int* index, const int* flag, const MPI_Status* status);
void RequestFree(const MPI_Request* request);
MPI_Status* StatusBuffer(int count);

// Marks the current call as a poll that found nothing (an unsuccessful test or probe): the
// recorder may fold it into the previous one (polling compaction, recorder.cc).
void Polled(bool nothing);

void CollBegin();
// MPI_Alltoallv/w and MPI_Allgatherv, before CollEnd (their non-blocking forms, before
// CollStarted): the peers whose receive count (in bytes) is not zero send this rank data. Their
// group (world ranks) goes with the call's CollectiveEnd record (NonBlockingCollectiveRequest),
// so that the analysis knows whom the rank waited for (trace/collective_senders.h).
void CollSenders(MPI_Comm comm, const int counts[], MPI_Datatype type);
void CollSendersW(MPI_Comm comm, const int counts[], const MPI_Datatype types[]);
void CollEnd(OTF2_CollectiveOp op, MPI_Comm comm, uint32_t root, uint64_t sent, uint64_t received);
inline void CollEnd(OTF2_CollectiveOp op, MPI_Comm comm, int root, uint64_t sent,
                    uint64_t received) {
  CollEnd(op, comm, CollectiveRoot(comm, root), sent, received);
}

// A request causeway does not record (a neighbourhood collective): its completion records
// nothing either.
void UntracedRequest(const MPI_Request* request);

void CommCreated(MPI_Comm parent, const MPI_Comm* created);
void CommFreed(const MPI_Comm* comm);

// One-sided communication (rma_hooks.cc). Windows get ids their members agree on at creation,
// as communicators do. An operation's record is written when its call returns; its completion
// by the call that ends its epoch.
void RmaCollBegin();
void WinCreated(MPI_Comm comm, const MPI_Win* win);
void SaveWindow(const MPI_Win* win);
void WinFreed();
void Fenced(MPI_Win win);
void ExposurePosted(MPI_Group group, MPI_Win win);
void AccessStarted(MPI_Group group, MPI_Win win);
void AccessCompleted(MPI_Win win);
void ExposureWaited(MPI_Win win);
void ExposureTested(const int* flag, MPI_Win win);
void LockRequested(int lock_type, int rank, MPI_Win win);
void LockAcquired(int lock_type, int rank, MPI_Win win);
void Unlocked(int rank, MPI_Win win);
void Flushed(int rank, MPI_Win win);
void WinSynced(MPI_Win win);
inline constexpr int kAllTargets = -1;
void Put(int count, MPI_Datatype type, int target, MPI_Win win);
void Get(int count, MPI_Datatype type, int target, MPI_Win win);
void Atomic(OTF2_RmaAtomicType type, uint64_t sent, uint64_t received, int target, MPI_Win win);

// MPI-IO (io_hooks.cc), recorded as Score-P records it: a handle per opened file
// (IoCreateHandle at MPI_File_open, IoDestroyHandle at MPI_File_close) and each read, write or
// sync as an operation that begins when its call is entered (IoOperationBegin with the bytes
// asked for) and completes with the bytes the status reports (IoOperationComplete): in the call
// for blocking ones, in the completion call (MPI_Wait, ...) for non-blocking ones, in the _end
// call for split collectives. A handle causeway did not see opened (from Fortran) is defined
// on first use, without its file's name.
enum class IoMode : uint8_t {
  kRead = OTF2_IO_OPERATION_MODE_READ,
  kWrite = OTF2_IO_OPERATION_MODE_WRITE,
};
enum class IoAccess : uint8_t { kIndividual, kCollective };
void FileOpened(MPI_Comm comm, const char* filename, int amode, const MPI_File* fh);
void SaveFile(const MPI_File* fh);  // before MPI_File_close: the handle it frees
void FileClosed();
void FileIo(MPI_File fh, IoMode mode, IoAccess access, int count, MPI_Datatype type,
            const MPI_Status* status);
void FileIoStarted(MPI_File fh, IoMode mode, IoAccess access, int count, MPI_Datatype type,
                   const MPI_Request* request);
void FileIoBegun(MPI_File fh, IoMode mode, int count, MPI_Datatype type);  // split: _begin
void FileIoEnded(MPI_File fh, const MPI_Status* status);                   // split: _end
void FileSynced(MPI_File fh);

}  // namespace cw::measure::hook
