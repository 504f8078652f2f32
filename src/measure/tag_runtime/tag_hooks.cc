// The activity of each call (CallScope) and the hooks of point-to-point calls and requests.
#include "measure/tag_runtime/tag_hooks.h"

#include <algorithm>
#include <utility>

#include "measure/core/timer.h"
#include "measure/tag_runtime/tag_state.h"

namespace cw::measure::tag_hook {

using namespace cw::measure::tag_runtime;
using tag_segment::NodeKind;
using tag_segment::Via;

namespace {

constexpr uint64_t kCalibrationCalls = 4096;

// What this thread's message carries: its activity's node and entry (a thread off the graph
// sends no node, and its entry is now).
Piggyback Mine(uint64_t bytes) {
  State& s = S();
  const bool on_graph = OnGraphThread() && s.call.open;
  Piggyback p;
  p.node = on_graph ? s.call.node : kNone;
  p.entry = OnRankZeroClock(on_graph ? s.call.entry : TimerNow());
  p.bytes = bytes;
  return p;
}

bool GraphCall() { return OnGraphThread() && S().call.open; }

// The piggyback of a message that arrived (`status`) on `comm`, and the incoming edge on
// `node` (the call that posted the receive) if the call is on the graph.
void Received(MPI_Comm comm, const MPI_Status* status, uint32_t node) {
  State& s = S();
  if (status->MPI_SOURCE == MPI_PROC_NULL) return;
  Piggyback p;
  const bool carried = s.piggybacks.Receive(status->MPI_SOURCE, status->MPI_TAG, comm, &p);
  if (!GraphCall() || node == kNone) return;
  const int peer = s.piggybacks.WorldRank(comm, status->MPI_SOURCE);
  if (peer < 0) return;
  s.call.in.push_back(PendingIn{node, static_cast<uint32_t>(peer), carried ? p.node : kNone,
                                Via::kPointToPoint, ReceivedBytes(status),
                                carried ? p.entry : OnRankZeroClock(s.call.entry)});
}

// The outgoing message edge of a send of this call (its piggyback is posted before the data).
void Sent(MPI_Comm comm, int dest, uint64_t bytes) {
  State& s = S();
  if (dest == MPI_PROC_NULL || !GraphCall()) return;
  const int peer = s.piggybacks.WorldRank(comm, dest);
  if (peer >= 0) s.call.out.push_back(PendingOut{static_cast<uint32_t>(peer), bytes});
}

Request& Follow(MPI_Request handle, RequestKind kind, MPI_Comm comm) {
  State& s = S();
  Request r;
  r.kind = kind;
  r.comm = comm;
  r.node = GraphCall() ? s.call.node : kNone;
  r.started = s.call.exit;
  r.order = s.next_order++;
  return s.requests.Add(handle, r);
}

void Complete(MPI_Request handle, const MPI_Status* status) {
  State& s = S();
  if (handle == MPI_REQUEST_NULL) return;
  Request* pending = s.requests.Oldest(handle);
  if (pending == nullptr || !pending->active) return;
  const Request r = *pending;
  if (r.persistent) {
    pending->active = false;
  } else {
    s.requests.RemoveOldest(handle);
  }
  if (r.kind == RequestKind::kSend || r.kind == RequestKind::kReceive) {
    int cancelled = 0;
    PMPI_Test_cancelled(status, &cancelled);
    if (cancelled) return;  // nothing was sent or received (and no piggyback travelled)
  }
  if (GraphCall() && r.node != kNone && r.kind != RequestKind::kUntraced) {
    s.call.completions.push_back(PendingCompletion{r.node, r.started});
  }
  if (r.kind == RequestKind::kReceive) Received(r.comm, status, r.node);
}

// Completes the saved requests at `indices`, receives in the order they were posted: MPI
// matches messages to receives in that order, and the piggybacks of one sender and tag must be
// taken in the same order as the data.
void CompleteRequests(std::vector<std::pair<uint64_t, int>>& order, const MPI_Status* statuses,
                      const int* indices) {
  State& s = S();
  if (order.size() > 1) std::stable_sort(order.begin(), order.end());
  for (const auto& [posted, k] : order) {
    const int i = indices == nullptr ? k : indices[k];
    Complete(s.saved[static_cast<size_t>(i)], &statuses[k]);
  }
}

uint64_t PostingOrder(MPI_Request handle) {
  Request* r = S().requests.Oldest(handle);
  return r == nullptr ? UINT64_MAX : r->order;
}

}  // namespace

CallScope::CallScope(MpiFunction f) {
  if (!OnGraphThread()) {
    S().other_thread_calls.fetch_add(1, std::memory_order_relaxed);
    return;
  }
  State& s = S();
  Call& c = s.call;
  c.in.clear();
  c.out.clear();
  c.completions.clear();
  c.entry = TimerNow();
  c.inside_region = s.region_activity.node != kNone;
  c.node = c.inside_region ? s.region_activity.node
                           : NodeHere(NodeKind::kMpi, s.names[static_cast<uint32_t>(f)]);
  c.start = c.exit = c.entry;
  c.open = true;
  active_ = true;
}

void CallScope::Calling() {
  if (active_) S().call.start = TimerNow();
}

void CallScope::Returned() {
  if (active_) S().call.exit = TimerNow();
}

CallScope::~CallScope() {
  if (!active_) return;
  State& s = S();
  Call& c = s.call;
  if (!c.open || s.finished.load(std::memory_order_relaxed)) return;
  c.open = false;
  if (c.inside_region) {
    // The enclosing region is the activity: its edges are written when it ends, with its time.
    RegionActivity& r = s.region_activity;
    r.in.insert(r.in.end(), c.in.begin(), c.in.end());
    r.out.insert(r.out.end(), c.out.begin(), c.out.end());
    r.completions.insert(r.completions.end(), c.completions.begin(), c.completions.end());
    return;
  }
  s.writer->Begin();
  s.writer->VisitCall(c.node, c.entry, c.start, c.exit);
  WritePending(c.node, c.entry, c.start, c.exit, c.in, c.out, c.completions);
  WriteSteps(c.node, c.in, c.out);
  if (++s.calls_since_calibration >= kCalibrationCalls) {
    s.calls_since_calibration = 0;
    s.writer->Calibrate(TimerNow(), MonotonicNow());
  }
  // The program goes on now: the tool's work before the call and since it returned (this
  // update included) is counted as the tool's, and is neither the call's nor the next
  // computation's.
  const uint64_t resume = TimerNow();
  s.writer->Resume(resume, (c.start - c.entry) + (resume - c.exit));
  s.writer->Commit();
}

void Send(MPI_Comm comm, int dest, int tag, int count, MPI_Datatype type) {
  PostPiggyback(comm, dest, tag, count, type);
  Sent(comm, dest, Bytes(count, type));
}

// Before the data: a receiver that has the data then finds the piggyback there, and never
// waits for a sender that was descheduled between the two (which, with more ranks than
// cores, can take a whole time slice).
void PostPiggyback(MPI_Comm comm, int dest, int tag, int count, MPI_Datatype type) {
  if (dest != MPI_PROC_NULL) S().piggybacks.Send(Mine(Bytes(count, type)), dest, tag, comm);
}

void Recv(MPI_Comm comm, MPI_Datatype, const MPI_Status* status) {
  Received(comm, status, GraphCall() ? S().call.node : kNone);
}

void Isend(MPI_Comm comm, int dest, int, int count, MPI_Datatype type, const MPI_Request* request) {
  Sent(comm, dest, Bytes(count, type));
  Follow(*request, RequestKind::kSend, comm);
}

void Irecv(MPI_Comm comm, MPI_Datatype, const MPI_Request* request) {
  Follow(*request, RequestKind::kReceive, comm);
}

void SendInit(MPI_Comm comm, int dest, int tag, int count, MPI_Datatype type,
              const MPI_Request* request) {
  Request& r = Follow(*request, RequestKind::kSend, comm);
  r.persistent = true;
  r.active = false;
  r.dest = dest;
  r.tag = tag;
  r.bytes = Bytes(count, type);
}

void RecvInit(MPI_Comm comm, const MPI_Request* request) {
  Request& r = Follow(*request, RequestKind::kReceive, comm);
  r.persistent = true;
  r.active = false;
}

void PostPiggybacks(int count, const MPI_Request* requests) {
  State& s = S();
  for (int i = 0; i < count; ++i) {
    const Request* r = s.requests.Oldest(requests[i]);
    if (r != nullptr && r->persistent && r->kind == RequestKind::kSend &&
        r->dest != MPI_PROC_NULL) {
      Piggyback p = Mine(r->bytes);
      s.piggybacks.Send(p, r->dest, r->tag, r->comm);
    }
  }
}

void StartRequests(int count, const MPI_Request* requests) {
  State& s = S();
  for (int i = 0; i < count; ++i) {
    Request* r = s.requests.Oldest(requests[i]);
    if (r == nullptr || !r->persistent) continue;
    r->active = true;
    r->node = GraphCall() ? s.call.node : kNone;
    r->started = s.call.exit;
    r->order = s.next_order++;
    if (r->kind == RequestKind::kSend) Sent(r->comm, r->dest, r->bytes);
  }
}

void MProbed(MPI_Comm comm, const MPI_Message* message, const MPI_Status*) {
  if (*message != MPI_MESSAGE_NULL && *message != MPI_MESSAGE_NO_PROC)
    S().messages[*message] = comm;
}

void IMProbed(MPI_Comm comm, const int* flag, const MPI_Message* message,
              const MPI_Status* status) {
  if (*flag) MProbed(comm, message, status);
}

void SaveMessage(const MPI_Message* message) { S().saved_message = *message; }

namespace {
// The communicator of the message a matched probe found (and forgets it: a message is received
// once).
MPI_Comm TakeMessageComm() {
  State& s = S();
  auto it = s.messages.find(s.saved_message);
  if (it == s.messages.end()) return MPI_COMM_NULL;
  const MPI_Comm comm = it->second;
  s.messages.erase(it);
  return comm;
}
}  // namespace

void MRecv(const MPI_Status* status) {
  const MPI_Comm comm = TakeMessageComm();
  if (comm != MPI_COMM_NULL) Received(comm, status, GraphCall() ? S().call.node : kNone);
}

void IMRecv(const MPI_Request* request) {
  const MPI_Comm comm = TakeMessageComm();
  Follow(*request, comm == MPI_COMM_NULL ? RequestKind::kUntraced : RequestKind::kReceive, comm);
}

void SaveRequests(int count, const MPI_Request* requests) {
  S().saved.assign(requests, requests + std::max(count, 0));
}

void CompleteAll(int count, const MPI_Status* statuses) {
  State& s = S();
  if (count == 1 && !s.saved.empty()) {  // MPI_Wait, MPI_Test: nothing to order
    Complete(s.saved[0], &statuses[0]);
    return;
  }
  std::vector<std::pair<uint64_t, int>>& order = s.order;
  order.clear();
  for (int i = 0; i < count && static_cast<size_t>(i) < s.saved.size(); ++i) {
    order.emplace_back(PostingOrder(s.saved[static_cast<size_t>(i)]), i);
  }
  CompleteRequests(order, statuses, nullptr);
}

void CompleteOne(const int* index, const MPI_Status* status) {
  State& s = S();
  if (*index == MPI_UNDEFINED || *index < 0 || static_cast<size_t>(*index) >= s.saved.size()) {
    return;
  }
  Complete(s.saved[static_cast<size_t>(*index)], status);
}

void CompleteSome(const int* outcount, const int indices[], const MPI_Status statuses[]) {
  State& s = S();
  if (*outcount == MPI_UNDEFINED) return;
  std::vector<std::pair<uint64_t, int>>& order = s.order;
  order.clear();
  for (int k = 0; k < *outcount; ++k) {
    if (indices[k] < 0 || static_cast<size_t>(indices[k]) >= s.saved.size()) continue;
    order.emplace_back(PostingOrder(s.saved[static_cast<size_t>(indices[k])]), k);
  }
  CompleteRequests(order, statuses, indices);
}

void TestAll(int count, const int* flag, const MPI_Status* statuses) {
  if (*flag) CompleteAll(count, statuses);
}

void TestOne(const int* index, const int* flag, const MPI_Status* status) {
  if (*flag) CompleteOne(index, status);
}

void RequestFree(const MPI_Request* request) {
  // A freed request completes unseen: it is forgotten. (A receive freed while active would
  // leave its piggyback behind; MPI advises against freeing active receives.)
  State& s = S();
  while (s.requests.Oldest(*request) != nullptr) s.requests.RemoveOldest(*request);
}

MPI_Status* StatusBuffer(int count) {
  std::vector<MPI_Status>& buffer = S().status_buffer;
  if (buffer.size() < static_cast<size_t>(std::max(count, 0))) {
    buffer.resize(static_cast<size_t>(count));
  }
  return buffer.data();
}

}  // namespace cw::measure::tag_hook
