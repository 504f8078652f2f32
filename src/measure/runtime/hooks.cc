// The hooks of point-to-point, request, probe, collective and communicator calls.
#include "measure/runtime/hooks.h"

#include <algorithm>
#include <cstring>
#include <vector>

#include "measure/runtime/recorder.h"

namespace cw::measure::hook {
namespace {

// A send record that can only be written after the call (it needs the request the call made)
// carries the time the call was entered (RecordAtEnter): the message may be received, and its
// receive recorded, before this process gets to stamp anything after the call.

void Complete(MPI_Request handle, const MPI_Status* status) {
  State& s = S();
  if (handle == MPI_REQUEST_NULL) return;
  PendingRequest* pending = s.requests.Oldest(handle);
  if (pending == nullptr || !pending->active) return;
  const PendingRequest p = *pending;
  if (p.persistent) {
    pending->active = false;
  } else {
    s.requests.RemoveOldest(handle);
  }
  if (p.kind == RequestKind::kSend || p.kind == RequestKind::kReceive) {
    int cancelled = 0;
    PMPI_Test_cancelled(status, &cancelled);
    if (cancelled) {
      Record(RawKind::kRequestCancelled, 0, 0, 0, 0, p.id);
      return;
    }
  }
  switch (p.kind) {
    case RequestKind::kSend:
      Record(RawKind::kIsendComplete, 0, 0, 0, 0, p.id);
      return;
    case RequestKind::kCollective:
      Record(RawKind::kNonBlockingCollectiveComplete, p.comm, p.root, static_cast<uint32_t>(p.id),
             p.bytes, p.received, p.op);
      return;
    case RequestKind::kFileIo:
      Record(RawKind::kIoOperationComplete, p.comm, 0, 0, ReceivedBytes(status), p.id);
      return;
    case RequestKind::kUntraced:
      return;
    case RequestKind::kReceive:
      break;
  }
  if (status->MPI_SOURCE == MPI_PROC_NULL) return;
  const uint64_t bytes = ReceivedBytes(status);
  Record(RawKind::kIrecv, p.comm, static_cast<uint32_t>(status->MPI_SOURCE),
         static_cast<uint32_t>(status->MPI_TAG), bytes, p.id);
}

// Follows a request the call just made under `handle`: a fresh id, its kind and communicator.
// The caller fills in what the kind needs and records the start.
PendingRequest& StartFollowing(MPI_Request handle, RequestKind kind, uint32_t comm) {
  State& s = S();
  PendingRequest p;
  p.id = s.next_request++;
  p.comm = comm;
  p.kind = kind;
  return s.requests.Add(handle, p);
}

void Tested() {
  State& s = S();
  for (MPI_Request handle : T().saved) {
    if (handle == MPI_REQUEST_NULL) continue;
    const PendingRequest* p = s.requests.Oldest(handle);
    if (p != nullptr && p->kind != RequestKind::kUntraced && p->kind != RequestKind::kFileIo)
      Record(RawKind::kRequestTest, 0, 0, 0, 0, p->id);
  }
}

// The senders' group + 1 that CollSenders noted for the current call (0: none), taken for this
// call only.
uint32_t TakeSenders() {
  ThreadState& t = T();
  const uint32_t senders = t.senders == kNoGroup ? 0 : t.senders + 1;
  t.senders = kNoGroup;
  return senders;
}

}  // namespace

void Send(MPI_Comm comm, int dest, int tag, int count, MPI_Datatype type) {
  if (dest == MPI_PROC_NULL) return;
  Record(RawKind::kSend, CommId(comm), static_cast<uint32_t>(dest), static_cast<uint32_t>(tag),
         Bytes(count, type));
}

void Recv(MPI_Comm comm, MPI_Datatype, const MPI_Status* status) {
  if (status->MPI_SOURCE == MPI_PROC_NULL) return;
  const uint64_t bytes = ReceivedBytes(status);
  Record(RawKind::kRecv, CommId(comm), static_cast<uint32_t>(status->MPI_SOURCE),
         static_cast<uint32_t>(status->MPI_TAG), bytes);
}

void Isend(MPI_Comm comm, int dest, int tag, int count, MPI_Datatype type,
           const MPI_Request* request) {
  if (dest == MPI_PROC_NULL) return;
  const PendingRequest& p = StartFollowing(*request, RequestKind::kSend, CommId(comm));
  RecordAtEnter(RawKind::kIsend, p.comm, static_cast<uint32_t>(dest), static_cast<uint32_t>(tag),
                Bytes(count, type), p.id);
}

void Irecv(MPI_Comm comm, MPI_Datatype, const MPI_Request* request) {
  const PendingRequest& p = StartFollowing(*request, RequestKind::kReceive, CommId(comm));
  Record(RawKind::kIrecvRequest, 0, 0, 0, 0, p.id);
}

void SendInit(MPI_Comm comm, int dest, int tag, int count, MPI_Datatype type,
              const MPI_Request* request) {
  PendingRequest& p = StartFollowing(*request, RequestKind::kSend, CommId(comm));
  p.persistent = true;
  p.active = false;
  p.peer = dest == MPI_PROC_NULL ? kNoRank : static_cast<uint32_t>(dest);
  p.tag = static_cast<uint32_t>(tag);
  p.bytes = Bytes(count, type);
}

void RecvInit(MPI_Comm comm, const MPI_Request* request) {
  PendingRequest& p = StartFollowing(*request, RequestKind::kReceive, CommId(comm));
  p.persistent = true;
  p.active = false;
}

void StartRequests(int count, const MPI_Request* requests) {
  State& s = S();
  for (int i = 0; i < count; ++i) {
    PendingRequest* found = s.requests.Oldest(requests[i]);
    if (found == nullptr || !found->persistent) continue;
    PendingRequest& p = *found;
    if (p.kind == RequestKind::kSend && p.peer == kNoRank) continue;  // to MPI_PROC_NULL
    p.active = true;
    if (p.kind == RequestKind::kSend) {
      RecordAtEnter(RawKind::kIsend, p.comm, p.peer, p.tag, p.bytes, p.id);
    } else {
      Record(RawKind::kIrecvRequest, 0, 0, 0, 0, p.id);
    }
  }
}

void Probed(MPI_Comm comm, const MPI_Status* status) {
  if (status->MPI_SOURCE == MPI_PROC_NULL) return;
  Record(RawKind::kProbeFound, CommId(comm), static_cast<uint32_t>(status->MPI_SOURCE),
         static_cast<uint32_t>(status->MPI_TAG), 0, 0);
}

void IProbed(MPI_Comm comm, const int* flag, const MPI_Status* status) {
  if (*flag) Probed(comm, status);
}

void MProbed(MPI_Comm comm, const MPI_Message* message, const MPI_Status* status) {
  State& s = S();
  if (*message == MPI_MESSAGE_NULL || *message == MPI_MESSAGE_NO_PROC) return;
  const ProbedMessage m{s.next_message++, CommId(comm)};
  s.messages[*message] = m;
  Record(RawKind::kProbeFound, m.comm, static_cast<uint32_t>(status->MPI_SOURCE),
         static_cast<uint32_t>(status->MPI_TAG), 0, m.handle);
}

void IMProbed(MPI_Comm comm, const int* flag, const MPI_Message* message,
              const MPI_Status* status) {
  if (*flag) MProbed(comm, message, status);
}

void SaveMessage(const MPI_Message* message) {
  State& s = S();
  T().saved_message = ProbedMessage{0, CommId(MPI_COMM_WORLD)};
  auto it = s.messages.find(*message);
  if (it == s.messages.end()) return;
  T().saved_message = it->second;
  s.messages.erase(it);
}

void MRecv(const MPI_Status* status) {
  if (status->MPI_SOURCE == MPI_PROC_NULL) return;
  const uint64_t bytes = ReceivedBytes(status);
  Record(RawKind::kRecv, T().saved_message.comm, static_cast<uint32_t>(status->MPI_SOURCE),
         static_cast<uint32_t>(status->MPI_TAG), bytes, T().saved_message.handle);
}

void IMRecv(const MPI_Request* request) {
  const PendingRequest& p = StartFollowing(*request, RequestKind::kReceive, T().saved_message.comm);
  Record(RawKind::kIrecvRequest, 0, 0, static_cast<uint32_t>(T().saved_message.handle), 0, p.id);
}

void CollStarted(OTF2_CollectiveOp op, MPI_Comm comm, uint32_t root, uint64_t sent,
                 uint64_t received, const MPI_Request* request) {
  PendingRequest& p = StartFollowing(*request, RequestKind::kCollective, CommId(comm));
  p.root = root;
  p.bytes = sent;
  p.received = received;
  p.op = static_cast<uint8_t>(op);
  // A v-collective's senders go where it starts: whom it waits for does not depend on where it
  // completes.
  Record(RawKind::kNonBlockingCollectiveRequest, 0, 0, TakeSenders(), 0, p.id);
}

void SaveRequests(int count, const MPI_Request* requests) {
  T().saved.assign(requests, requests + (count > 0 ? count : 0));
}

void CompleteAll(int count, const MPI_Status* statuses) {
  for (int i = 0; i < count && static_cast<size_t>(i) < T().saved.size(); ++i)
    Complete(T().saved[static_cast<size_t>(i)], &statuses[i]);
}

void CompleteOne(const int* index, const MPI_Status* status) {
  if (*index == MPI_UNDEFINED || *index < 0 || static_cast<size_t>(*index) >= T().saved.size())
    return;
  Complete(T().saved[static_cast<size_t>(*index)], status);
}

void CompleteSome(const int* outcount, const int indices[], const MPI_Status statuses[]) {
  if (*outcount == MPI_UNDEFINED) return;
  for (int k = 0; k < *outcount; ++k) {
    const int i = indices[k];
    if (i >= 0 && static_cast<size_t>(i) < T().saved.size())
      Complete(T().saved[static_cast<size_t>(i)], &statuses[k]);
  }
}

void TestAll(int count, const int* flag, const MPI_Status* statuses) {
  if (*flag) {
    CompleteAll(count, statuses);
  } else {
    Tested();
  }
}

void TestOne(const int* index, const int* flag, const MPI_Status* status) {
  if (*flag && *index != MPI_UNDEFINED) {
    CompleteOne(index, status);
  } else if (!*flag) {
    Tested();
  }
}

// A freed request is forgotten. A send or receive freed while active (MPI allows it) completes
// unobserved: if MPI has completed it already, its completion is recorded here, as a test that
// found it complete would (MPI_Request_get_status leaves the request as it is); otherwise the
// trace cannot know when it completes, and a freed receive leaves its message unmatched, a freed
// send its request open.
void RequestFree(const MPI_Request* request) {
  State& s = S();
  if (request == nullptr || *request == MPI_REQUEST_NULL) return;
  const PendingRequest* pending = s.requests.Oldest(*request);
  if (pending != nullptr && pending->active &&
      (pending->kind == RequestKind::kSend || pending->kind == RequestKind::kReceive)) {
    const bool persistent = pending->persistent;
    int done = 0;
    MPI_Status status;
    if (PMPI_Request_get_status(*request, &done, &status) == MPI_SUCCESS && done) {
      Complete(*request, &status);  // takes a non-persistent request off the table
      if (!persistent) return;
    }
  }
  s.requests.RemoveOldest(*request);
}

MPI_Status* StatusBuffer(int count) {
  if (T().status_buffer.size() < static_cast<size_t>(count > 0 ? count : 1))
    T().status_buffer.resize(static_cast<size_t>(count > 0 ? count : 1));
  return T().status_buffer.data();
}

uint32_t CollectiveRoot(MPI_Comm comm, int root) {
  if (IsIntercomm(comm)) {
    if (root == MPI_ROOT) return OTF2_COLLECTIVE_ROOT_SELF;
    if (root == MPI_PROC_NULL) return OTF2_COLLECTIVE_ROOT_THIS_GROUP;
  }
  return static_cast<uint32_t>(root);
}

// Stamped with the Enter's time, as Score-P stamps it: the operation begins when its call does.
void CollBegin() { RecordAtEnter(RawKind::kCollectiveBegin); }

namespace {

// The group of the peers `has_data` picks (their ranks in the communicator, or in the remote
// group of an inter-communicator), as the current call's senders.
template <typename HasData>
void NoteSenders(MPI_Comm comm, HasData has_data) {
  const int peers = static_cast<int>(Peers(comm));
  std::vector<int> ranks;
  for (int i = 0; i < peers; ++i) {
    if (has_data(i)) ranks.push_back(i);
  }
  if (ranks.empty()) return;  // receives nothing, so waits for nobody
  std::vector<int> world(ranks.size());
  if (comm == MPI_COMM_WORLD) {
    world = ranks;
  } else {
    MPI_Group group = MPI_GROUP_NULL, world_group = MPI_GROUP_NULL;
    if (IsIntercomm(comm)) {
      PMPI_Comm_remote_group(comm, &group);
    } else {
      PMPI_Comm_group(comm, &group);
    }
    PMPI_Comm_group(MPI_COMM_WORLD, &world_group);
    PMPI_Group_translate_ranks(group, static_cast<int>(ranks.size()), ranks.data(), world_group,
                               world.data());
    PMPI_Group_free(&group);
    PMPI_Group_free(&world_group);
  }
  // A set: in world-rank order, so that every communicator's ordering gives one definition.
  std::sort(world.begin(), world.end());
  T().senders = GroupOfWorldRanks(world);
}

}  // namespace

void CollSenders(MPI_Comm comm, const int counts[], MPI_Datatype type) {
  if (counts == nullptr) return;
  NoteSenders(comm, [&](int i) { return counts[i] > 0 && Bytes(counts[i], type) > 0; });
}

void CollSendersW(MPI_Comm comm, const int counts[], const MPI_Datatype types[]) {
  if (counts == nullptr || types == nullptr) return;
  NoteSenders(comm, [&](int i) { return counts[i] > 0 && Bytes(counts[i], types[i]) > 0; });
}

void CollEnd(OTF2_CollectiveOp op, MPI_Comm comm, uint32_t root, uint64_t sent, uint64_t received) {
  Record(RawKind::kCollectiveEnd, CommId(comm), root, TakeSenders(), sent, received,
         static_cast<uint8_t>(op));
}

void UntracedRequest(const MPI_Request* request) {
  // Kept, so that its completion takes it rather than a recorded request sharing its handle.
  StartFollowing(*request, RequestKind::kUntraced, 0);
}

void CommCreated(MPI_Comm, const MPI_Comm* created) {
  State& s = S();
  if (created == nullptr || *created == MPI_COMM_NULL) return;
  // The proposal is taken before the lock is let go, so that another thread of this process
  // creating a communicator meanwhile proposes another id.
  unsigned proposal = s.next_global_comm++, agreed = 0;
  {
    HookUnlock unlock;
    PMPI_Allreduce(&proposal, &agreed, 1, MPI_UNSIGNED, MPI_MAX, *created);
    // On an inter-communicator each group gets the other group's largest proposal: a second
    // round hands each group its own, and both take the larger.
    if (IsIntercomm(*created)) {
      unsigned other_max = agreed, own_max = 0;
      PMPI_Allreduce(&other_max, &own_max, 1, MPI_UNSIGNED, MPI_MAX, *created);
      agreed = std::max(other_max, own_max);
    }
  }
  s.next_global_comm = std::max(s.next_global_comm, agreed + 1);
  DefineComm(*created, agreed);
}

void CommFreed(const MPI_Comm* comm) {
  if (comm != nullptr) S().comms.erase(*comm);
}

}  // namespace cw::measure::hook
