#include "match/internal/p2p_matcher.h"

#include <algorithm>
#include <string>
#include <unordered_map>

#include "base/parallel.h"
#include "match/matcher.h"

namespace cw::match::internal {
namespace {

using trace::EventKind;
using trace::LocationEvents;

struct SendRecord {
  uint32_t event;
  uint32_t complete;
  uint32_t comm;
  uint32_t dest;  // location
  uint32_t tag;
  bool cancelled;
};

struct RecvRecord {
  uint32_t event;
  uint32_t posted;  // posting event (request), orders receives
  uint32_t comm;
  uint32_t source;  // location
  uint32_t tag;
};

struct LocationScan {
  std::vector<SendRecord> sends;
  std::vector<RecvRecord> recvs;
  Diagnostics diagnostics;
  uint64_t cancelled = 0;
};

std::string Where(uint32_t location, uint32_t event) {
  return "location " + std::to_string(location) + ", event " + std::to_string(event);
}

// Reads one location's point-to-point records and links its requests.
LocationScan ScanLocation(const trace::Trace& trace, uint32_t loc) {
  const LocationEvents& ev = trace.location(loc);
  LocationScan scan;
  // Pending requests: request id -> index into sends (Isend) or posting event (IrecvRequest).
  std::unordered_map<uint64_t, uint32_t> pending_sends;
  std::unordered_map<uint64_t, uint32_t> pending_recvs;

  auto resolve = [&](uint32_t event) {
    const trace::P2pPayload& p = ev.p2p(event);
    const std::vector<trace::Comm>& comms = trace.defs.comms;
    uint32_t peer = p.comm < comms.size() && comms[p.comm].defined
                        ? comms[p.comm].LocationOfRank(p.peer, loc)
                        : kNone;
    if (peer == kNone) scan.diagnostics.Report(kUnknownPeer, Where(loc, event));
    return peer;
  };

  for (uint32_t i = 0; i < ev.size(); ++i) {
    switch (ev.kind(i)) {
      case EventKind::kMpiSend:
      case EventKind::kMpiIsend: {
        uint32_t dest = resolve(i);
        if (dest == kNone) break;
        const trace::P2pPayload& p = ev.p2p(i);
        bool blocking = ev.kind(i) == EventKind::kMpiSend;
        scan.sends.push_back(SendRecord{i, blocking ? i : kNone, p.comm, dest, p.tag, false});
        if (!blocking) pending_sends[p.request] = static_cast<uint32_t>(scan.sends.size() - 1);
        break;
      }
      case EventKind::kMpiIsendComplete: {
        auto it = pending_sends.find(ev.request(i));
        if (it == pending_sends.end()) {
          scan.diagnostics.Report(kUnlinkedRequest, Where(loc, i));
          break;
        }
        scan.sends[it->second].complete = i;
        pending_sends.erase(it);
        break;
      }
      case EventKind::kMpiIrecvRequest:
        pending_recvs[ev.request(i)] = i;
        break;
      case EventKind::kMpiRecv:
      case EventKind::kMpiIrecv: {
        uint32_t posted = i;
        if (ev.kind(i) == EventKind::kMpiIrecv) {
          auto it = pending_recvs.find(ev.p2p(i).request);
          if (it == pending_recvs.end()) {
            scan.diagnostics.Report(kUnlinkedRequest, Where(loc, i));
          } else {
            posted = it->second;
            pending_recvs.erase(it);
          }
        }
        uint32_t source = resolve(i);
        if (source == kNone) break;
        const trace::P2pPayload& p = ev.p2p(i);
        scan.recvs.push_back(RecvRecord{i, posted, p.comm, source, p.tag});
        break;
      }
      case EventKind::kMpiRequestCancelled: {
        uint64_t request = ev.request(i);
        if (auto it = pending_sends.find(request); it != pending_sends.end()) {
          scan.sends[it->second].cancelled = true;
          pending_sends.erase(it);
        } else if (!pending_recvs.erase(request)) {
          scan.diagnostics.Report(kUnlinkedRequest, Where(loc, i));
          break;
        }
        ++scan.cancelled;
        scan.diagnostics.Report(kCancelledRequest, Where(loc, i));
        break;
      }
      default:
        break;
    }
  }
  for (const auto& [request, index] : pending_sends) {
    scan.diagnostics.Report(kOpenRequest, Where(loc, scan.sends[index].event));
  }
  for (const auto& [request, event] : pending_recvs) {
    scan.diagnostics.Report(kOpenRequest, Where(loc, event));
  }
  // Receives match in posting order, which differs from completion order for Irecv.
  std::stable_sort(scan.recvs.begin(), scan.recvs.end(),
                   [](const RecvRecord& a, const RecvRecord& b) { return a.posted < b.posted; });
  return scan;
}

struct ChannelKey {
  uint32_t comm, source, tag;
  bool operator==(const ChannelKey& o) const {
    return comm == o.comm && source == o.source && tag == o.tag;
  }
};
struct ChannelHash {
  size_t operator()(const ChannelKey& k) const {
    uint64_t h = (static_cast<uint64_t>(k.comm) << 32) ^ k.source;
    h = h * 0x9E3779B97F4A7C15ull ^ k.tag;
    return static_cast<size_t>(h ^ (h >> 29));
  }
};

struct SendRef {
  uint32_t sender;
  uint32_t index;  // into that sender's LocationScan::sends
};

struct DestinationResult {
  std::vector<Message> messages;
  std::vector<SendRef> unmatched_sends;
  uint64_t unmatched_receives = 0;
  Diagnostics diagnostics;
};

DestinationResult MatchDestination(uint32_t dest, const std::vector<LocationScan>& scans,
                                   const std::vector<SendRef>& incoming) {
  struct Queue {
    std::vector<SendRef> sends;
    size_t head = 0;
  };
  std::unordered_map<ChannelKey, Queue, ChannelHash> channels;
  for (const SendRef& ref : incoming) {
    const SendRecord& s = scans[ref.sender].sends[ref.index];
    channels[ChannelKey{s.comm, ref.sender, s.tag}].sends.push_back(ref);
  }
  DestinationResult result;
  for (const RecvRecord& r : scans[dest].recvs) {
    auto it = channels.find(ChannelKey{r.comm, r.source, r.tag});
    if (it == channels.end() || it->second.head == it->second.sends.size()) {
      ++result.unmatched_receives;
      result.diagnostics.Report(kUnmatchedReceive, Where(dest, r.event));
      continue;
    }
    SendRef ref = it->second.sends[it->second.head++];
    const SendRecord& s = scans[ref.sender].sends[ref.index];
    result.messages.push_back(Message{ref.sender, s.event, s.complete, dest, r.event, r.posted});
  }
  for (const auto& [key, queue] : channels) {
    for (size_t i = queue.head; i < queue.sends.size(); ++i) {
      result.unmatched_sends.push_back(queue.sends[i]);
    }
  }
  // Hash-map order is not deterministic; the report must be.
  std::sort(result.unmatched_sends.begin(), result.unmatched_sends.end(),
            [](const SendRef& a, const SendRef& b) {
              return a.sender != b.sender ? a.sender < b.sender : a.index < b.index;
            });
  return result;
}

}  // namespace

void MatchPointToPoint(const trace::Trace& trace, unsigned threads, SyncGraph& graph) {
  const uint32_t n = trace.location_count();
  std::vector<LocationScan> scans(n);
  ParallelFor(n, threads, [&](size_t loc) {
    scans[loc] = ScanLocation(trace, static_cast<uint32_t>(loc));
  });

  // Sends by destination, in sender-location order and, per sender, in issue order: this keeps
  // every channel's sends in the order the sender issued them.
  std::vector<std::vector<SendRef>> incoming(n);
  for (uint32_t s = 0; s < n; ++s) {
    for (uint32_t i = 0; i < scans[s].sends.size(); ++i) {
      const SendRecord& send = scans[s].sends[i];
      if (!send.cancelled) incoming[send.dest].push_back(SendRef{s, i});
    }
  }
  std::vector<DestinationResult> results(n);
  ParallelFor(n, threads, [&](size_t dest) {
    results[dest] = MatchDestination(static_cast<uint32_t>(dest), scans, incoming[dest]);
    incoming[dest] = {};
  });

  size_t total = 0;
  for (const DestinationResult& r : results) total += r.messages.size();
  graph.messages.reserve(total);
  for (uint32_t loc = 0; loc < n; ++loc) {
    graph.diagnostics.Merge(scans[loc].diagnostics);
    graph.stats.cancelled_requests += scans[loc].cancelled;
  }
  for (uint32_t dest = 0; dest < n; ++dest) {
    DestinationResult& r = results[dest];
    graph.diagnostics.Merge(r.diagnostics);
    graph.stats.unmatched_receives += r.unmatched_receives;
    graph.stats.unmatched_sends += r.unmatched_sends.size();
    for (const SendRef& ref : r.unmatched_sends) {
      graph.diagnostics.Report(kUnmatchedSend, Where(ref.sender, scans[ref.sender].sends[ref.index].event));
    }
    graph.messages.insert(graph.messages.end(), r.messages.begin(), r.messages.end());
    r = {};
  }
  graph.stats.messages = graph.messages.size();

  for (uint32_t id = 0; id < graph.messages.size(); ++id) {
    graph.by_location[graph.messages[id].sender].sent.push_back(id);
    graph.by_location[graph.messages[id].receiver].received.push_back(id);
  }
  ParallelFor(n, threads, [&](size_t loc) {
    LocationSync& sync = graph.by_location[loc];
    const std::vector<Message>& m = graph.messages;
    std::sort(sync.sent.begin(), sync.sent.end(),
              [&](uint32_t a, uint32_t b) { return m[a].send_event < m[b].send_event; });
    std::sort(sync.received.begin(), sync.received.end(),
              [&](uint32_t a, uint32_t b) { return m[a].recv_event < m[b].recv_event; });
  });
}

}  // namespace cw::match::internal
