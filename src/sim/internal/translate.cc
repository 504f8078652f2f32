#include "sim/internal/translate.h"

#include <algorithm>

namespace cw::sim::internal {

using trace::EventKind;
using trace::PayloadFamily;

SimEvent TranslateEvent(const trace::Definitions& defs, const trace::LocationEvents& ev, uint32_t i,
                        uint32_t location) {
  SimEvent e;
  e.time = ev.time(i);
  e.kind = ev.kind(i);
  switch (trace::PayloadFamilyOf(e.kind)) {
    case PayloadFamily::kCallpath:
      e.callpath = ev.ref(i);
      break;
    case PayloadFamily::kP2p: {
      const trace::P2pPayload& p = ev.p2p(i);
      e.bytes = p.bytes;
      e.comm = p.comm;
      e.tag = p.tag;
      if (p.comm < defs.comms.size() && defs.comms[p.comm].defined) {
        e.peer = defs.comms[p.comm].LocationOfRank(p.peer, location);
      }
      e.request = ev.RequestId(i);
      break;
    }
    case PayloadFamily::kRequest:
      e.request = ev.RequestId(i);
      break;
    case PayloadFamily::kCollective: {
      const trace::CollectivePayload& c = ev.collective(i);
      e.bytes = std::max(c.sent, c.received);
      e.comm = c.comm_or_window;
      e.op = c.op;
      uint32_t comm = c.comm_or_window;
      if (e.kind == EventKind::kRmaCollectiveEnd) {
        comm = comm < defs.windows.size() && defs.windows[comm].defined ? defs.windows[comm].comm
                                                                        : kNone;
      }
      if (c.root != kNone && comm < defs.comms.size() && defs.comms[comm].defined) {
        e.peer = defs.comms[comm].LocationOfRank(c.root, location);
      }
      if (e.kind == EventKind::kNonBlockingCollectiveComplete) e.request = ev.RequestId(i);
      break;
    }
    case PayloadFamily::kRma: {
      const trace::RmaPayload& r = ev.rma(i);
      e.comm = r.window;
      if (e.kind == EventKind::kRmaGroupSync) {
        e.tag = r.remote;  // the group of the epoch's partners
        break;
      }
      // Transfers and locks: the target as a location, the matching or lock id, and the bytes
      // the operation moves towards the target (a get's: what it reads).
      e.request = r.id;
      switch (e.kind) {
        case EventKind::kRmaRequestLock:
        case EventKind::kRmaTryLock:
        case EventKind::kRmaAcquireLock:
        case EventKind::kRmaReleaseLock:
          e.tag = r.detail | (r.remote == kNone ? kLockOnAllRanks : 0);
          break;
        default:
          break;
      }
      e.bytes = e.kind == EventKind::kRmaGet ? r.received : r.sent;
      if (e.kind == EventKind::kRmaGet && e.bytes == 0) e.bytes = r.sent;
      if (r.remote != kNone && r.window < defs.windows.size() && defs.windows[r.window].defined) {
        const uint32_t comm = defs.windows[r.window].comm;
        if (comm < defs.comms.size() && defs.comms[comm].defined) {
          e.peer = defs.comms[comm].LocationOfRank(r.remote, location);
        }
      }
      break;
    }
    case PayloadFamily::kThread: {
      const trace::ThreadPayload& t = ev.thread(i);
      const bool team =
          e.kind == EventKind::kThreadTeamBegin || e.kind == EventKind::kThreadTeamEnd;
      e.omp = team || t.model == trace::Paradigm::kOpenMp;
      if (e.omp &&
          (e.kind == EventKind::kThreadAcquireLock || e.kind == EventKind::kThreadReleaseLock)) {
        e.request = t.lock;
        e.tag = t.count;
      }
      break;
    }
    default:
      break;
  }
  return e;
}

}  // namespace cw::sim::internal
