// What the generated wrappers of libcauseway-tag.so call (`causeway trace --tag`): the same
// hook names as the tracer's (measure/runtime/hooks.h), so that one description of the MPI
// functions (wrappers/mpi_functions.def) drives both libraries, with Sikora et al. 2016's meaning
// instead of a trace's. No event is recorded: each MPI call of the thread that initialised MPI
// updates the process's task activity graph in a shared segment (measure/tag_segment) when it
// returns, and every message carries its sender's node and entry time to the receiver
// (piggyback.h).
//
//   CallScope   at entry: the time and the call path (call_paths.h), at Returned() the exit,
//               at destruction the graph update, with the message and completion edges the
//               hooks gathered meanwhile
//   Send, Isend, StartRequests         send the message's piggyback before the data
//   Recv, Complete*, Test*, MRecv      receive the piggyback of what was received
//   CollBegin, CollEnd                 exchange the members' piggybacks (Sikora et al. 2016 §4.5)
//   CommCreated, CommFreed             the shadow communicators the piggybacks travel on
#pragma once

#include <mpi.h>
#include <otf2/OTF2_Events.h>

#include <cstdint>

#include "measure/core/message_bytes.h"
#include "measure/wrappers/mpi_functions.gen.h"

namespace cw::measure::tag_hook {

uint64_t Now();
// True between MPI_Init and MPI_Finalize, on every thread: the piggybacks travel with every
// thread's messages, though only the thread that initialised MPI has a graph.
bool Recording();

// Holds the hooks' mutex under MPI_THREAD_MULTIPLE, nothing otherwise.
class HookLock {
 public:
  HookLock();
  ~HookLock();
  HookLock(const HookLock&) = delete;
  HookLock& operator=(const HookLock&) = delete;

 private:
  bool locked_ = false;
};

// One activity: an MPI call from its entry to its return, and what the hooks learnt of it.
class CallScope {
 public:
  explicit CallScope(MpiFunction f);
  ~CallScope();
  CallScope(const CallScope&) = delete;
  CallScope& operator=(const CallScope&) = delete;
  // The PMPI call begins (after the hooks before it) and returned: the call's own time. What
  // the tool does before and after is its own time.
  void Calling();
  void Returned();

 private:
  bool active_ = false;  // on the graph's thread and not inside a user-region activity
};

void Started(MpiFunction init, uint64_t enter);
void Finalizing(MpiFunction finalize);
void Finalized();
void Abort(MPI_Comm comm);

inline constexpr uint32_t kNoRoot = UINT32_MAX;

void Send(MPI_Comm comm, int dest, int tag, int count, MPI_Datatype type);
// Non-blocking and persistent sends: the piggyback, posted before the data.
void PostPiggyback(MPI_Comm comm, int dest, int tag, int count, MPI_Datatype type);
void PostPiggybacks(int count, const MPI_Request* requests);
void Recv(MPI_Comm comm, MPI_Datatype type, const MPI_Status* status);
void Isend(MPI_Comm comm, int dest, int tag, int count, MPI_Datatype type,
           const MPI_Request* request);
void Irecv(MPI_Comm comm, MPI_Datatype type, const MPI_Request* request);
void SendInit(MPI_Comm comm, int dest, int tag, int count, MPI_Datatype type,
              const MPI_Request* request);
void RecvInit(MPI_Comm comm, const MPI_Request* request);
void StartRequests(int count, const MPI_Request* requests);

void MProbed(MPI_Comm comm, const MPI_Message* message, const MPI_Status* status);
void IMProbed(MPI_Comm comm, const int* flag, const MPI_Message* message, const MPI_Status* status);
void SaveMessage(const MPI_Message* message);
void MRecv(const MPI_Status* status);
void IMRecv(const MPI_Request* request);

void CollStarted(OTF2_CollectiveOp op, MPI_Comm comm, uint32_t root, uint64_t sent,
                 uint64_t received, const MPI_Request* request);
inline void CollStarted(OTF2_CollectiveOp op, MPI_Comm comm, int root, uint64_t sent,
                        uint64_t received, const MPI_Request* request) {
  CollStarted(op, comm, static_cast<uint32_t>(root), sent, received, request);
}

void SaveRequests(int count, const MPI_Request* requests);
void CompleteAll(int count, const MPI_Status* statuses);
void CompleteOne(const int* index, const MPI_Status* status);
void CompleteSome(const int* outcount, const int indices[], const MPI_Status statuses[]);
void TestAll(int count, const int* flag, const MPI_Status* statuses);
void TestOne(const int* index, const int* flag, const MPI_Status* status);
void RequestFree(const MPI_Request* request);
MPI_Status* StatusBuffer(int count);

void CollBegin();
void CollEnd(OTF2_CollectiveOp op, MPI_Comm comm, uint32_t root, uint64_t sent, uint64_t received);
inline void CollEnd(OTF2_CollectiveOp op, MPI_Comm comm, int root, uint64_t sent,
                    uint64_t received) {
  CollEnd(op, comm, static_cast<uint32_t>(root), sent, received);
}
void UntracedRequest(const MPI_Request* request);

void CommCreated(MPI_Comm parent, const MPI_Comm* created);
void CommFreed(const MPI_Comm* comm);

}  // namespace cw::measure::tag_hook
