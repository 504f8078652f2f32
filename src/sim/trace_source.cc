#include "sim/trace_source.h"

#include <algorithm>

namespace cw::sim {

using trace::EventKind;
using trace::PayloadFamily;

TraceSource::TraceSource(const trace::Trace& trace, uint32_t location)
    : trace_(trace), location_(location) {}

size_t TraceSource::Read(std::vector<SimEvent>& out, size_t max) {
  const trace::LocationEvents& ev = trace_.location(location_);
  uint32_t end = static_cast<uint32_t>(std::min<uint64_t>(ev.size(), uint64_t{next_} + max));
  size_t count = end - next_;
  for (; next_ < end; ++next_) out.push_back(Translate(next_));
  return count;
}

SimEvent TraceSource::Translate(uint32_t i) const {
  const trace::LocationEvents& ev = trace_.location(location_);
  const trace::Definitions& defs = trace_.defs;
  SimEvent e;
  e.time = ev.time(i);
  e.kind = ev.kind(i);
  switch (trace::PayloadFamilyOf(e.kind)) {
    case PayloadFamily::kCallpath:
      e.callpath = ev.ref(i);
      e.region = trace_.CallpathRegion(e.callpath);
      break;
    case PayloadFamily::kP2p: {
      const trace::P2pPayload& p = ev.p2p(i);
      e.bytes = p.bytes;
      e.comm = p.comm;
      e.tag = p.tag;
      if (p.comm < defs.comms.size() && defs.comms[p.comm].defined) {
        e.peer = defs.comms[p.comm].LocationOfRank(p.peer, location_);
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
        e.peer = defs.comms[comm].LocationOfRank(c.root, location_);
      }
      if (e.kind == EventKind::kNonBlockingCollectiveComplete) e.request = ev.RequestId(i);
      break;
    }
    default:
      break;
  }
  return e;
}

std::unique_ptr<EventSource> MakeTraceSource(const trace::Trace& trace, uint32_t location) {
  return std::make_unique<TraceSource>(trace, location);
}

ReplayInput TraceInput(const trace::Trace& trace) {
  ReplayInput input;
  input.defs = &trace.defs;
  input.locations = trace.location_count();
  input.open = [&trace](uint32_t l) { return MakeTraceSource(trace, l); };
  return input;
}

}  // namespace cw::sim
