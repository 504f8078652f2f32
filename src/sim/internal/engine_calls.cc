#include <algorithm>
#include <cmath>

#include "sim/internal/engine.h"

namespace cw::sim::internal {
namespace {

// A ratio x * to / from, for placing the records inside a call.
int64_t Stretch(int64_t x, int64_t from, int64_t to) {
  if (from <= 0) return 0;
  if (from == to) return x;
  return static_cast<int64_t>(
      std::llround(static_cast<double>(x) * static_cast<double>(to) / static_cast<double>(from)));
}

}  // namespace

using trace::EventKind;

void Engine::PublishSend(Lane& lane, size_t k, const SimEvent& e, uint32_t& wake) {
  OpenCall& call = lane.call;
  if (e.peer == kNone) {
    ++result_.stats.undefined_comms;
    return;
  }
  if (e.kind == EventKind::kMpiIsend) {
    // A cancelled send is never received (match/ leaves it out too): it must not take the place
    // of the next send on its channel.
    const SimEvent* end = FindCompletion(lane, k, e.request);
    if (end != nullptr && end->kind == EventKind::kMpiRequestCancelled) {
      ++result_.stats.cancelled_requests;
      return;
    }
  }
  Moment start = call.enter;
  if (network_.has_gap()) {
    start.sim = std::max(start.sim, lane.last_injection + network_.gap());
    lane.last_injection = start.sim;
  }
  bool synchronous = call.function.has(trace::kMpiSynchronous);
  uint32_t slot =
      messages_.PublishSend({e.comm, lane.id, e.peer, e.tag}, start, e.bytes, synchronous, &wake);
  ++result_.stats.messages;
  call.overhead += network_.overhead();
  if (e.kind == EventKind::kMpiIsend) {
    Request sent;
    sent.slot = slot;
    sent.is_send = true;
    lane.requests.Insert(e.request, sent);
  } else {
    call.deps.push_back(MakeDependency(DependencyKind::kSend, slot, e.peer));
  }
}

// MPI pairs receives in the order they were posted, and a rendezvous sender waits for the
// posting, so the receive is published now if its envelope (known only from its completion
// record) is found by reading ahead.
void Engine::PublishPosting(Lane& lane, size_t k, const SimEvent& e, uint32_t& wake) {
  uint32_t slot = kNone;
  const SimEvent* done = FindCompletion(lane, k, e.request);
  if (done != nullptr && done->kind == EventKind::kMpiIrecv && done->peer != kNone) {
    slot = messages_.PublishReceive({done->comm, done->peer, lane.id, done->tag}, lane.call.enter,
                                    &wake);
  } else if (done != nullptr && done->kind == EventKind::kMpiRequestCancelled) {
    ++result_.stats.cancelled_requests;
  }
  Request posted;
  posted.slot = slot;
  posted.posted = lane.call.enter;
  lane.requests.Insert(e.request, posted);
}

void Engine::PublishReceive(Lane& lane, const SimEvent& e, uint32_t& wake) {
  OpenCall& call = lane.call;
  if (e.peer == kNone) {
    ++result_.stats.undefined_comms;
    return;
  }
  Moment posted = call.enter;
  uint32_t slot = kNone;
  if (e.kind == EventKind::kMpiIrecv) {
    if (Request* r = lane.requests.Find(e.request); r != nullptr && !r->is_send) {
      posted = r->posted;
      slot = r->slot;
      lane.requests.Erase(e.request);
    }
  }
  if (slot == kNone)
    slot = messages_.PublishReceive({e.comm, e.peer, lane.id, e.tag}, posted, &wake);
  call.overhead += network_.overhead();
  call.deps.push_back(MakeDependency(DependencyKind::kReceive, slot, e.peer));
}

// Makes what the call starts visible to its partners: sends, receive postings, collective
// arrivals. Their times are the call's Enter, known before the call's end is.
void Engine::Publish(Lane& lane) {
  OpenCall& call = lane.call;
  for (size_t k = 1; k < call.leave; ++k) {
    SimEvent e = *lane.window.Peek(k);
    uint32_t wake = kNone;
    switch (e.kind) {
      case EventKind::kMpiSend:
      case EventKind::kMpiIsend:
        PublishSend(lane, k, e, wake);
        break;
      case EventKind::kMpiIrecvRequest:
        PublishPosting(lane, k, e, wake);
        break;
      case EventKind::kMpiRecv:
      case EventKind::kMpiIrecv:
        PublishReceive(lane, e, wake);
        break;
      case EventKind::kMpiIsendComplete:
        if (Request* r = lane.requests.Find(e.request); r != nullptr && r->is_send) {
          call.deps.push_back(MakeDependency(DependencyKind::kSend, r->slot, kNone));
          lane.requests.Erase(e.request);
        }
        break;
      case EventKind::kMpiRequestCancelled:
        lane.requests.Erase(e.request);
        break;
      case EventKind::kMpiCollectiveEnd:
      case EventKind::kRmaCollectiveEnd:
        PublishCollective(lane, e);
        break;
      case EventKind::kNonBlockingCollectiveRequest: {
        // The member arrives when it starts the operation (MPI_Ibarrier, ...); the call that
        // completes it waits for the arrivals. The envelope is on the completion record.
        const SimEvent* done = FindCompletion(lane, k, e.request);
        Request started;
        if (done != nullptr && done->kind == EventKind::kNonBlockingCollectiveComplete &&
            JoinCollective(lane, *done, call.enter, started.collective)) {
          started.is_collective = true;
          lane.requests.Insert(e.request, started);
        }
        break;
      }
      case EventKind::kNonBlockingCollectiveComplete:
        if (Request* r = lane.requests.Find(e.request); r != nullptr && r->is_collective) {
          call.deps.push_back(r->collective);
          lane.requests.Erase(e.request);
        }
        break;
      case EventKind::kRmaGroupSync:
        PublishEpochSync(lane, e);
        break;
      case EventKind::kRmaPut:
      case EventKind::kRmaGet:
      case EventKind::kRmaAtomic:
      case EventKind::kRmaOpCompleteBlocking:
      case EventKind::kRmaOpCompleteNonBlocking:
      case EventKind::kRmaOpCompleteRemote:
      case EventKind::kRmaOpTest:
      case EventKind::kRmaRequestLock:
      case EventKind::kRmaTryLock:
      case EventKind::kRmaAcquireLock:
      case EventKind::kRmaReleaseLock:
      case EventKind::kRmaWaitChange:
        PublishOneSided(lane, e);
        break;
      default:
        break;
    }
    Wake(wake);
  }
}

void Engine::PublishCollective(Lane& lane, const SimEvent& e) {
  Dependency dep;
  if (JoinCollective(lane, e, lane.call.enter, dep)) lane.call.deps.push_back(dep);
}

bool Engine::JoinCollective(Lane& lane, const SimEvent& e, Moment arrival, Dependency& dep) {
  uint32_t comm = e.comm;
  bool window = e.kind == EventKind::kRmaCollectiveEnd;
  if (window) {
    comm = comm < defs_.windows.size() && defs_.windows[comm].defined ? defs_.windows[comm].comm
                                                                      : kNone;
  }
  if (comm >= defs_.comms.size() || !defs_.comms[comm].defined) {
    ++result_.stats.undefined_comms;
    return false;
  }
  const trace::Comm& c = defs_.comms[comm];
  uint64_t key = (uint64_t{window} << 32) | e.comm;
  uint32_t sequence = 0;
  if (uint32_t* seq = lane.collective_sequence.Find(key)) {
    sequence = ++*seq;
  } else {
    lane.collective_sequence.Insert(key, 0);
  }
  uint32_t id = collectives_.Join(key, sequence, c.size());
  CollectiveInstance& inst = collectives_.instance(id);
  inst.Arrive(arrival);
  dep = MakeDependency(DependencyKind::kCollective, id, kNone);
  dep.family = FamilyOf(e.op);
  dep.op = e.op;
  dep.members = c.size();
  dep.bytes = e.bytes;
  dep.is_root = e.peer == lane.id;
  if (dep.is_root) {
    inst.root = arrival;
    inst.root_arrived = true;
  }
  if (dep.family == CollectiveFamily::kPrefix) {
    if (comm >= comm_ranks_.size()) comm_ranks_.resize(comm + 1);
    std::vector<uint32_t>& ranks = comm_ranks_[comm];
    if (ranks.empty()) {
      ranks.assign(lanes_.size(), kNone);
      for (uint32_t r = 0; r < c.rank_to_location.size(); ++r) {
        if (c.rank_to_location[r] < ranks.size()) ranks[c.rank_to_location[r]] = r;
      }
    }
    dep.rank = c.is_self ? 0 : ranks[lane.id];
    if (dep.rank == kNone) {
      ++result_.stats.undefined_comms;
      return false;
    }
    inst.by_rank.resize(c.size());
    inst.rank_arrived.resize(c.size());
    inst.by_rank[dep.rank] = arrival;
    inst.rank_arrived[dep.rank] = 1;
  }
  ++result_.stats.collectives;
  WakeWaiters(inst);
  return true;
}

// The record that ends request `request`, started at window position `from`: its completion
// (IsendComplete, Irecv, NonBlockingCollectiveComplete) or its cancellation; nullptr if it lies
// beyond the read-ahead limit or the location's end.
const SimEvent* Engine::FindCompletion(Lane& lane, size_t from, uint64_t request) {
  constexpr size_t kLookahead = 1 << 14;
  const size_t end = from + kLookahead;
  // Read through what the window holds in one stretch, and only then read on: this runs for
  // every non-blocking call, through the events up to the call that completes it.
  for (size_t k = from + 1; k < end;) {
    const SimEvent* e = lane.window.Peek(k);
    if (e == nullptr) return nullptr;
    const size_t stretch = std::min(lane.window.buffered() - k, end - k);
    for (const SimEvent* last = e + stretch; e != last; ++e) {
      if (e->request != request) continue;
      switch (e->kind) {
        case EventKind::kMpiIsendComplete:
        case EventKind::kMpiIrecv:
        case EventKind::kMpiRequestCancelled:
        case EventKind::kNonBlockingCollectiveComplete:
          return e;
        default:
          break;
      }
    }
    k += stretch;
  }
  return nullptr;
}

// A blocking probe returns once the message it found is there: the one the next receive on the
// location takes (read ahead to it), whose slot the probe takes early.
void Engine::AddProbe(Lane& lane) {
  constexpr size_t kLookahead = 1 << 16;
  for (size_t k = lane.call.leave + 1; k < lane.call.leave + kLookahead; ++k) {
    const SimEvent* e = lane.window.Peek(k);
    if (e == nullptr) return;
    if ((e->kind == EventKind::kMpiRecv || e->kind == EventKind::kMpiIrecv) && e->peer != kNone) {
      uint32_t slot = messages_.PeekForReceive({e->comm, e->peer, lane.id, e->tag});
      lane.call.deps.push_back(MakeDependency(DependencyKind::kProbe, slot, e->peer));
      return;
    }
  }
}

bool Engine::TryFinishCall(Lane& lane) {
  OpenCall& call = lane.call;
  int64_t leave = Relative(lane.window.Peek(call.leave)->time);
  int64_t ready_measured = call.enter.measured;
  int64_t ready_sim = call.enter.sim;
  if (call.starts_at_partner) ready_measured = ready_sim = INT64_MIN;
  // The offset keeps a dependency the measured clocks put after the call's end from moving it:
  // identity holds even where the clock condition does not.
  auto offset = [leave](int64_t t) { return std::min<int64_t>(0, leave - t); };
  for (size_t i = 0; i < call.deps.size(); ++i) {
    Dependency& d = call.deps[i];
    if (d.dropped) continue;
    switch (d.kind) {
      case DependencyKind::kReceive:
      case DependencyKind::kProbe:
      case DependencyKind::kNotify: {
        MessageSlot& m = messages_.slot(d.id);
        if (!m.send_known) {
          Block(lane, i);
          return false;
        }
        int64_t e = offset(m.send.measured);
        ready_measured = std::max(ready_measured, m.send.measured + e);
        ready_sim =
            std::max(ready_sim, m.send.sim + e + (d.local ? 0 : network_.TransferDelta(m.bytes)));
        if (options_.collect_transfers && d.kind == DependencyKind::kReceive &&
            m.send.measured > call.enter.measured && m.send.measured <= leave) {
          result_.transfers.push_back(
              TransferSample{m.bytes, static_cast<uint64_t>(leave - m.send.measured)});
        }
        break;
      }
      case DependencyKind::kStart: {
        MessageSlot& m = messages_.slot(d.id);
        if (!m.send_known) {
          Block(lane, i);
          return false;
        }
        if (m.send.measured > leave) break;  // the measured call returned before the post
        ready_measured = std::max(ready_measured, m.send.measured);
        ready_sim = std::max(ready_sim, m.send.sim + network_.TransferDelta(0));
        break;
      }
      case DependencyKind::kSend: {
        MessageSlot& m = messages_.slot(d.id);
        bool measured_rdv = m.synchronous || network_.MeasuredRendezvous(m.bytes);
        if (!m.recv_known) {
          if (!m.synchronous && m.bytes <= network_.smallest_eager_limit()) break;
          Block(lane, i);
          return false;
        }
        // A send that completed before its receive was posted was buffered, whatever its size.
        if (!m.synchronous && m.posted.measured > leave) measured_rdv = false;
        bool replay_rdv = m.synchronous || network_.ReplayRendezvous(m.bytes, measured_rdv);
        int64_t e = measured_rdv ? offset(m.posted.measured) : 0;
        if (measured_rdv) ready_measured = std::max(ready_measured, m.posted.measured + e);
        if (replay_rdv) {
          ready_sim = std::max(ready_sim, m.posted.sim + e + network_.HandshakeDelta());
        }
        break;
      }
      case DependencyKind::kCollective: {
        CollectiveInstance& inst = collectives_.instance(d.id);
        const Moment* needed = nullptr;
        switch (d.family) {
          case CollectiveFamily::kOneToAll:
            if (d.is_root) break;
            if (!inst.root_arrived) {
              Block(lane, i);
              return false;
            }
            needed = &inst.root;
            break;
          case CollectiveFamily::kAllToOne:
            if (!d.is_root) break;
            [[fallthrough]];
          case CollectiveFamily::kAllToAll:
            if (inst.arrived < inst.size) {
              Block(lane, i);
              return false;
            }
            needed = &inst.latest;
            break;
          case CollectiveFamily::kPrefix: {
            for (uint32_t r = 0; r <= d.rank; ++r) {
              if (!inst.rank_arrived[r]) {
                Block(lane, i);
                return false;
              }
            }
            int64_t delta = network_.CollectiveDelta(d.op, d.members, d.bytes);
            for (uint32_t r = 0; r <= d.rank; ++r) {
              int64_t e = offset(inst.by_rank[r].measured);
              ready_measured = std::max(ready_measured, inst.by_rank[r].measured + e);
              ready_sim = std::max(ready_sim, inst.by_rank[r].sim + e + delta);
            }
            break;
          }
        }
        if (needed != nullptr) {
          int64_t e = offset(needed->measured);
          ready_measured = std::max(ready_measured, needed->measured + e);
          const int64_t delta = d.local ? 0 : network_.CollectiveDelta(d.op, d.members, d.bytes);
          ready_sim = std::max(ready_sim, needed->sim + e + delta);
        }
        break;
      }
    }
  }
  if (ready_measured == INT64_MIN) {  // a first record whose partner was given up
    ready_measured = call.enter.measured;
    ready_sim = call.enter.sim;
  }
  FinishCall(lane, ready_measured, ready_sim, leave);
  return true;
}

// Places the call's events: the part before the call was ready stretches from Enter to the new
// ready time, the rest (the call's own cost) from there to the new Leave.
void Engine::FinishCall(Lane& lane, int64_t ready_measured, int64_t ready_sim, int64_t leave) {
  OpenCall& call = lane.call;
  int64_t cost = leave - ready_measured;
  // Set-up calls (MPI_Init, communicator creation, file I/O, ...) keep their cost: the network
  // model describes communication.
  bool communication = call.shmem ? call.shmem_communication : IsCommunication(call.function);
  // A one-sided transfer's own time changes with the network, never below nothing.
  int64_t own = (communication ? network_.Cost(cost) : cost) + call.overhead + call.transfer_delta;
  if (call.removed) own = 0;
  own = std::min(own, call.max_cost);
  int64_t leave_sim = ready_sim + std::max<int64_t>(0, own);
  int64_t enter_measured = call.enter.measured;
  int64_t previous = call.enter.sim;
  for (size_t k = 0; k <= call.leave; ++k) {
    SimEvent e = *lane.window.Peek(k);
    int64_t t = Relative(e.time);
    int64_t s;
    if (k == call.leave) {  // first for a point, whose one record is its Leave
      s = leave_sim;
    } else if (k == 0) {
      s = call.enter.sim;
    } else if (t <= ready_measured) {
      s = call.enter.sim +
          Stretch(t - enter_measured, ready_measured - enter_measured, ready_sim - call.enter.sim);
    } else {
      s = ready_sim + Stretch(t - ready_measured, cost, leave_sim - ready_sim);
    }
    if (k != 0 && k != call.leave) s = std::clamp(s, previous, std::max(previous, leave_sim));
    previous = s;
    Record(lane, e, s);
  }
  int64_t shift_in = call.enter.sim - call.enter.measured;
  int64_t shift_out = leave_sim - leave;
  AddShift(call.callpath, std::max<int64_t>(0, shift_in - shift_out),
           std::max<int64_t>(0, shift_out - shift_in));
  for (const Dependency& d : call.deps) {
    if (d.kind == DependencyKind::kCollective) {
      collectives_.Finish(d.id);
    } else if (d.kind != DependencyKind::kProbe && d.kind != DependencyKind::kStart) {
      messages_.Release(d.id);  // probes and MPI_Win_start only saw the slot the next call takes
    }
  }
  lane.window.Pop(call.leave + 1);
  call.active = false;
}

}  // namespace cw::sim::internal
