#include "analysis/waitstates/internal/p2p_patterns.h"

#include "match/matcher.h"

#include <algorithm>
#include <deque>
#include <utility>

namespace cw::analysis::internal {
namespace {

using match::Message;
using trace::kNone;
using trace::LocationEvents;

// Scalasca keeps the last 100 Late Sender instances of a location to detect wrong order.
constexpr size_t kWrongOrderWindow = 100;

struct LateSender {
  uint32_t message;
  int64_t idle;
};

struct WrongOrderEntry {
  uint64_t send_time;  // time of the send record (not of the send call)
  double idle;
  uint32_t callpath;  // of the receive that waited
  uint32_t source;    // sender location
  uint64_t bytes;
  uint64_t entered;  // when the receiving call was entered
};

class ReceiverPass {
 public:
  ReceiverPass(const Context& ctx, uint32_t location, LocationOutput& out)
      : ctx_(ctx), loc_(location), ev_(ctx.trace.location(location)), out_(out) {}

  // Returns the Enter indices (ascending) of multi-wait calls that had a Late Sender: they cannot
  // also be Late Receivers, as in Scalasca.
  std::vector<uint32_t> Run();

 private:
  const Message& message(uint32_t id) const { return ctx_.graph.messages[id]; }
  int64_t LateSenderIdle(const Message& m, const CallTimes& recv_call);
  // `waiter_event` is the receive record, or the Enter of the probe that found the message.
  void ReportLateSender(uint32_t id, int64_t idle, const CallTimes& call, uint32_t waiter_event);
  void Probe(const match::ProbeLink& link);
  bool Probed(uint32_t message) const {
    return !probed_.empty() && std::binary_search(probed_.begin(), probed_.end(), message);
  }
  void CheckWrongOrder(const Message& m);
  void CountReceive(const Message& m);

  const Context& ctx_;
  uint32_t loc_;
  const LocationEvents& ev_;
  LocationOutput& out_;
  std::deque<WrongOrderEntry> window_;
  uint64_t window_latest_send_ = 0;  // the latest send_time in window_ (0 if empty)
  std::vector<uint32_t> probed_;     // ids of the messages a probe found, ascending
};

int64_t ReceiverPass::LateSenderIdle(const Message& m, const CallTimes& recv_call) {
  if (m.send_time > ev_.time(m.recv_event)) ++out_.violations.p2p;
  // A send that seems to start after the receive ended violates the clock condition; the wait
  // is clamped to the time actually spent in the receiving call.
  uint64_t start = std::min(m.send_entered, recv_call.left);
  return static_cast<int64_t>(start) - static_cast<int64_t>(recv_call.entered);
}

void ReceiverPass::ReportLateSender(uint32_t id, int64_t idle, const CallTimes& call,
                                    uint32_t waiter_event) {
  const Message& m = message(id);
  uint32_t callpath = ev_.ref(call.enter);
  double value = static_cast<double>(idle);
  out_.severities.Add(MetricId::kMpiLateSender, callpath, value);
  uint64_t bytes = m.bytes;
  out_.severities.Add(bytes == 0 ? MetricId::kMpiSlsCount : MetricId::kMpiClsCount, callpath, 1);
  out_.instances.Offer(
      Instance{MetricId::kMpiLateSender, callpath, loc_, call.entered, value, m.sender});
  if (ctx_.emit_edges) {
    out_.edges.push_back(
        WaitEdge{loc_, waiter_event, m.sender, m.send_event, idle, SyncPattern::kLateSender});
  }
  uint64_t send_time = m.send_time;
  window_.push_back(WrongOrderEntry{send_time, value, callpath, m.sender, bytes, call.entered});
  window_latest_send_ = std::max(window_latest_send_, send_time);
  if (window_.size() > kWrongOrderWindow) window_.pop_front();
}

// A message that was sent earlier than one whose receive waited before it: the earlier wait
// came from receiving in the wrong order, not from a late sender alone.
void ReceiverPass::CheckWrongOrder(const Message& m) {
  uint64_t send_time = m.send_time;
  // Messages usually arrive in the order they were sent: then nothing in the window is later.
  if (window_.empty() || send_time >= window_latest_send_) return;
  bool removed = false;
  for (auto it = window_.begin(); it != window_.end();) {
    if (it->send_time <= send_time) {
      ++it;
      continue;
    }
    MetricId part = it->source == m.sender ? MetricId::kMpiLswoSame : MetricId::kMpiLswoDifferent;
    out_.severities.Add(MetricId::kMpiLateSenderWo, it->callpath, it->idle);
    out_.severities.Add(part, it->callpath, it->idle);
    out_.severities.Add(it->bytes == 0 ? MetricId::kMpiSlswoCount : MetricId::kMpiClswoCount,
                        it->callpath, 1);
    out_.instances.Offer(Instance{MetricId::kMpiLateSenderWo, it->callpath, loc_, it->entered,
                                  it->idle, it->source});
    it = window_.erase(it);
    removed = true;
  }
  if (removed) {
    window_latest_send_ = 0;
    for (const WrongOrderEntry& e : window_)
      window_latest_send_ = std::max(window_latest_send_, e.send_time);
  }
}

// A probe that found a message is where the receiver waited for it (Haus 2024 §3.3): the
// probe's Late Sender joins the wrong-order window at the probe, before later receives.
void ReceiverPass::Probe(const match::ProbeLink& link) {
  const Message& m = message(link.message);
  CallTimes call{link.probe, ev_.time(link.probe), ev_.time(ev_.pair(link.probe))};
  if (m.send_time > call.left) ++out_.violations.probe;
  uint64_t start = std::min(m.send_entered, call.left);
  int64_t idle = static_cast<int64_t>(start) - static_cast<int64_t>(call.entered);
  if (idle > 0) ReportLateSender(link.message, idle, call, link.probe);
}

void ReceiverPass::CountReceive(const Message& m) {
  uint32_t callpath = ev_.callpath(m.recv_event);
  if (callpath != kNone) out_.traffic.Receive(callpath, m.bytes);
}

std::vector<uint32_t> ReceiverPass::Run() {
  std::vector<uint32_t> multi_wait_with_late_sender;
  const match::LocationSync& sync = ctx_.graph.by_location[loc_];
  const uint32_t last = sync.first_received + sync.received_count;
  const std::vector<match::ProbeLink>& probes = ctx_.graph.probes;
  uint32_t next_probe = sync.first_probe;
  // Without probe support (Scalasca's semantics) no probe is looked at: receives wait alone.
  const uint32_t probes_end = ctx_.probes_wait ? sync.first_probe + sync.probe_count : next_probe;
  for (uint32_t p = next_probe; p < probes_end; ++p) probed_.push_back(probes[p].message);
  std::sort(probed_.begin(), probed_.end());
  uint32_t i = sync.first_received;
  while (i < last) {
    for (; next_probe < probes_end && probes[next_probe].probe < message(i).recv_event;
         ++next_probe) {
      Probe(probes[next_probe]);
    }
    // Messages completed by one call (a Waitall completes several) form a group.
    uint32_t call_enter = ev_.pair(message(i).recv_event);
    uint32_t end = i + 1;
    while (end < last && call_enter != kNone && ev_.pair(message(end).recv_event) == call_enter) {
      ++end;
    }
    CallTimes call = CallOf(ev_, message(i).recv_event);
    trace::MpiFunction mpi = MpiOf(ctx_, ev_, call.enter);
    bool analysable = call.enter != kNone && !mpi.has(trace::kMpiTest);
    bool multi = mpi.has(trace::kMpiMultiWait);
    LateSender latest{kNone, 0};
    for (uint32_t k = i; k < end; ++k) {
      const Message& m = message(k);
      CountReceive(m);
      // A probed message's receive cannot wait: the probe saw the message arrive.
      int64_t idle = Probed(k) ? 0 : LateSenderIdle(m, call);
      if (analysable && idle > 0) {
        if (!multi) {
          ReportLateSender(k, idle, call, m.recv_event);
        } else if (idle > latest.idle) {
          latest = LateSender{k, idle};  // only the latest sender counts
        }
      }
      CheckWrongOrder(m);
    }
    if (latest.message != kNone) {
      ReportLateSender(latest.message, latest.idle, call, message(latest.message).recv_event);
      multi_wait_with_late_sender.push_back(call.enter);
    }
    i = end;
  }
  for (; next_probe < probes_end; ++next_probe) Probe(probes[next_probe]);
  return multi_wait_with_late_sender;
}

// Late Receiver idle time of message `m` completed in `call` on the sender: the time from
// entering the completing call until the receiver posted its receive, if the call was still
// running then.
int64_t LateReceiverIdle(const Message& m, const CallTimes& call) {
  uint64_t posted = m.recv_posted_entered;
  if (call.left <= posted) return 0;
  return static_cast<int64_t>(posted) - static_cast<int64_t>(call.entered);
}

// Only calls that block until the receive has started can wait for a late receiver:
// MPI_Send/MPI_Ssend, MPI_Wait/Waitany, and Waitall/Waitsome that did not also wait for a late
// sender (Scalasca's heuristic: it cannot tell an eager from a rendezvous send).
bool CanWaitForReceiver(const trace::MpiFunction& mpi, bool had_late_sender) {
  bool blocking_send = mpi.has(trace::kMpiSend) && mpi.has(trace::kMpiBlocking) &&
                       !mpi.has(trace::kMpiRecv) && !mpi.has(trace::kMpiBuffered) &&
                       !mpi.has(trace::kMpiReady);
  bool wait = mpi.has(trace::kMpiWait) && !(mpi.has(trace::kMpiMultiWait) && had_late_sender);
  return blocking_send || wait;
}

void AnalyzeLateReceiver(const Context& ctx, uint32_t loc, LocationOutput& out,
                         const std::vector<uint32_t>& multi_wait_with_late_sender) {
  const LocationEvents& ev = ctx.trace.location(loc);
  const std::vector<Message>& messages = ctx.graph.messages;
  // (completion event, message id) of the sends that completed, in completion order.
  std::vector<std::pair<uint32_t, uint32_t>> completed;
  for (uint32_t id : ctx.graph.by_location[loc].sent) {
    uint32_t complete = match::SendCompletion(ctx.trace, messages[id]);
    if (complete != kNone) completed.emplace_back(complete, id);
  }
  if (!std::is_sorted(completed.begin(), completed.end())) {
    std::sort(completed.begin(), completed.end());
  }

  auto report = [&](uint32_t id, int64_t idle, const CallTimes& call, uint32_t completion) {
    const Message& m = messages[id];
    uint32_t callpath = ev.ref(call.enter);
    double value = static_cast<double>(idle);
    out.severities.Add(MetricId::kMpiLateReceiver, callpath, value);
    out.severities.Add(m.bytes == 0 ? MetricId::kMpiSlrCount : MetricId::kMpiClrCount, callpath, 1);
    out.instances.Offer(
        Instance{MetricId::kMpiLateReceiver, callpath, loc, call.entered, value, m.receiver});
    if (!ctx.emit_edges) return;
    out.edges.push_back(
        WaitEdge{loc, completion, m.receiver, m.recv_posting, idle, SyncPattern::kLateReceiver});
  };

  size_t i = 0;
  while (i < completed.size()) {
    CallTimes call = CallOf(ev, completed[i].first);
    size_t end = i + 1;
    while (end < completed.size() && call.enter != kNone &&
           ev.pair(completed[end].first) == call.enter) {
      ++end;
    }
    trace::MpiFunction mpi = MpiOf(ctx, ev, call.enter);
    bool had_late_sender = std::binary_search(multi_wait_with_late_sender.begin(),
                                              multi_wait_with_late_sender.end(), call.enter);
    bool eligible = call.enter != kNone && CanWaitForReceiver(mpi, had_late_sender);
    if (eligible && !mpi.has(trace::kMpiMultiWait)) {
      for (size_t k = i; k < end; ++k) {
        int64_t idle = LateReceiverIdle(messages[completed[k].second], call);
        if (idle > 0) report(completed[k].second, idle, call, completed[k].first);
      }
    } else if (eligible) {
      // A multi-wait counts once, with its latest receiver.
      int64_t worst = 0;
      size_t worst_k = end;
      for (size_t k = i; k < end; ++k) {
        int64_t idle = LateReceiverIdle(messages[completed[k].second], call);
        if (idle > worst) {
          worst = idle;
          worst_k = k;
        }
      }
      if (worst_k != end) report(completed[worst_k].second, worst, call, completed[worst_k].first);
    }
    i = end;
  }
}

}  // namespace

void AnalyzePointToPoint(const Context& ctx, uint32_t location, LocationOutput& out) {
  ReceiverPass receiver(ctx, location, out);
  std::vector<uint32_t> multi_wait_with_late_sender = receiver.Run();
  AnalyzeLateReceiver(ctx, location, out, multi_wait_with_late_sender);
}

}  // namespace cw::analysis::internal
