#include "match/internal/p2p_matcher.h"

#include <algorithm>
#include <numeric>
#include <string>

#include "base/flat_hash_map.h"
#include "base/parallel.h"
#include "match/matcher.h"

namespace cw::match::internal {
namespace {

using trace::EventKind;
using trace::LocationEvents;

// What matching needs of a send; communicator and tag stay in the trace's payload.
struct SendRecord {
  uint32_t event;
  uint32_t dest;     // location
  uint32_t message;  // once matched: index among dest's messages, then the message id
};

struct RecvRecord {
  uint32_t event;   // the receive record (completion)
  uint32_t posted;  // the posting event (IrecvRequest, or the receive itself): the match order
};

struct LocationScan {
  std::vector<SendRecord> sends;  // in event order; cancelled sends are left out
  std::vector<RecvRecord> recvs;  // in event (completion) order
  Diagnostics diagnostics;
  uint64_t cancelled = 0;
};

std::string Where(uint32_t location, uint32_t event) {
  return "location " + std::to_string(location) + ", event " + std::to_string(event);
}

uint32_t PeerLocation(const trace::Trace& trace, uint32_t loc, const trace::P2pPayload& p) {
  const std::vector<trace::Comm>& comms = trace.defs.comms;
  if (p.comm >= comms.size() || !comms[p.comm].defined) return kNone;
  return comms[p.comm].LocationOfRank(p.peer, loc);
}

// Reads one location's point-to-point records. Requests were linked by the trace builder.
LocationScan ScanLocation(const trace::Trace& trace, uint32_t loc) {
  const LocationEvents& ev = trace.location(loc);
  LocationScan scan;
  std::span<const EventKind> kinds = ev.kinds();
  for (uint32_t i = 0; i < kinds.size(); ++i) {
    EventKind kind = kinds[i];
    if (kind == EventKind::kMpiSend || kind == EventKind::kMpiIsend) {
      const trace::P2pPayload& p = ev.p2p(i);
      if (kind == EventKind::kMpiIsend && p.request_link != kNone &&
          kinds[p.request_link] == EventKind::kMpiRequestCancelled) {
        ++scan.cancelled;
        scan.diagnostics.Report(kCancelledRequest, Where(loc, i));
        continue;
      }
      uint32_t dest = PeerLocation(trace, loc, p);
      if (dest == kNone) {
        scan.diagnostics.Report(kUnknownPeer, Where(loc, i));
        continue;
      }
      scan.sends.push_back(SendRecord{i, dest, kNone});
    } else if (kind == EventKind::kMpiRecv || kind == EventKind::kMpiIrecv) {
      uint32_t link = ev.p2p(i).request_link;
      scan.recvs.push_back(RecvRecord{i, link == kNone ? i : link});
    }
  }
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
    return static_cast<size_t>(MixHash((static_cast<uint64_t>(k.comm) << 32 | k.source) ^
                                       (static_cast<uint64_t>(k.tag) * 0x9E3779B97F4A7C15ull)));
  }
};
struct Queue {
  uint32_t head = kNone;  // index into the destination's incoming list
  uint32_t tail = kNone;
};

struct SendRef {
  uint32_t sender;
  uint32_t index;  // into that sender's LocationScan::sends
};

struct DestinationResult {
  uint32_t matched = 0;
  uint64_t unmatched_receives = 0;
  Diagnostics diagnostics;
};

// The sender's facts a message carries (see Message), read while the sender's events are
// visited in order anyway.
struct SendFacts {
  uint64_t entered;
  uint64_t time;
  uint64_t bytes;
};

uint64_t EnteredAt(const LocationEvents& ev, uint32_t event) {
  uint32_t enter = ev.pair(event);
  return ev.time(enter == kNone ? event : enter);
}

DestinationResult MatchDestination(const trace::Trace& trace, uint32_t dest,
                                   std::vector<LocationScan>& scans,
                                   const std::vector<SendRef>& incoming, Message* out) {
  FlatHashMap<ChannelKey, Queue, ChannelHash> channels;
  std::vector<uint32_t> next(incoming.size(), kNone);
  std::vector<SendFacts> facts(incoming.size());
  for (uint32_t k = 0; k < incoming.size(); ++k) {
    const SendRef& ref = incoming[k];
    const LocationEvents& sender = trace.location(ref.sender);
    uint32_t event = scans[ref.sender].sends[ref.index].event;
    const trace::P2pPayload& p = sender.p2p(event);
    facts[k] = SendFacts{EnteredAt(sender, event), sender.time(event), p.bytes};
    ChannelKey key{p.comm, ref.sender, p.tag};
    Queue* queue = channels.Find(key);
    if (queue == nullptr) {
      channels.Insert(key, Queue{k, k});
    } else {
      next[queue->tail] = k;
      queue->tail = k;
    }
  }

  const LocationEvents& ev = trace.location(dest);
  const std::vector<RecvRecord>& recvs = scans[dest].recvs;
  std::vector<uint32_t> order(recvs.size());
  std::iota(order.begin(), order.end(), 0u);
  auto by_posting = [&](uint32_t a, uint32_t b) { return recvs[a].posted < recvs[b].posted; };
  if (!std::is_sorted(order.begin(), order.end(), by_posting)) {
    std::stable_sort(order.begin(), order.end(), by_posting);
  }

  DestinationResult result;
  std::vector<SendRef> matched(recvs.size(), SendRef{kNone, kNone});
  for (uint32_t r : order) {
    const RecvRecord& recv = recvs[r];
    const trace::P2pPayload& p = ev.p2p(recv.event);
    uint32_t source = PeerLocation(trace, dest, p);
    Queue* queue = source == kNone ? nullptr : channels.Find(ChannelKey{p.comm, source, p.tag});
    if (queue == nullptr || queue->head == kNone) {
      if (source == kNone) result.diagnostics.Report(kUnknownPeer, Where(dest, recv.event));
      ++result.unmatched_receives;
      result.diagnostics.Report(kUnmatchedReceive, Where(dest, recv.event));
      continue;
    }
    uint32_t k = queue->head;
    const SendRef& ref = incoming[k];
    queue->head = next[k];
    const SendRecord& send = scans[ref.sender].sends[ref.index];
    out[r] = Message{facts[k].entered,
                     facts[k].time,
                     EnteredAt(ev, recv.posted),
                     facts[k].bytes,
                     ref.sender,
                     send.event,
                     dest,
                     recv.event};
    matched[r] = ref;
  }
  // Compact in place. Each send is matched at most once, so threads of different destinations
  // write different send records.
  for (uint32_t r = 0; r < recvs.size(); ++r) {
    if (matched[r].sender == kNone) continue;
    scans[matched[r].sender].sends[matched[r].index].message = result.matched;
    out[result.matched++] = out[r];
  }
  std::vector<RecvRecord>().swap(scans[dest].recvs);
  return result;
}

}  // namespace

void MatchPointToPoint(const trace::Trace& trace, unsigned threads, SyncGraph& graph) {
  const uint32_t n = trace.location_count();
  std::vector<LocationScan> scans(n);
  ParallelFor(n, threads,
              [&](size_t loc) { scans[loc] = ScanLocation(trace, static_cast<uint32_t>(loc)); });

  // Sends by destination, in sender-location order and, per sender, in issue order: this keeps
  // every channel's sends in the order the sender issued them.
  std::vector<std::vector<SendRef>> incoming(n);
  for (uint32_t s = 0; s < n; ++s) {
    for (uint32_t i = 0; i < scans[s].sends.size(); ++i) {
      incoming[scans[s].sends[i].dest].push_back(SendRef{s, i});
    }
  }
  // Every receive gets a slot; destinations fill theirs in parallel, then the unmatched gaps
  // are squeezed out in place, so the messages never exist twice.
  std::vector<size_t> slot(n + 1, 0);
  for (uint32_t d = 0; d < n; ++d) slot[d + 1] = slot[d] + scans[d].recvs.size();
  graph.messages.resize(slot[n]);
  std::vector<DestinationResult> results(n);
  ParallelFor(n, threads, [&](size_t dest) {
    results[dest] = MatchDestination(trace, static_cast<uint32_t>(dest), scans, incoming[dest],
                                     graph.messages.data() + slot[dest]);
    std::vector<SendRef>().swap(incoming[dest]);
  });
  size_t next_free = 0;
  for (uint32_t dest = 0; dest < n; ++dest) {
    DestinationResult& r = results[dest];
    LocationSync& sync = graph.by_location[dest];
    sync.first_received = static_cast<uint32_t>(next_free);
    sync.received_count = r.matched;
    std::copy(graph.messages.begin() + static_cast<std::ptrdiff_t>(slot[dest]),
              graph.messages.begin() + static_cast<std::ptrdiff_t>(slot[dest] + r.matched),
              graph.messages.begin() + static_cast<std::ptrdiff_t>(next_free));
    next_free += r.matched;
    graph.stats.unmatched_receives += r.unmatched_receives;
    graph.diagnostics.Merge(r.diagnostics);
  }
  graph.messages.resize(next_free);
  graph.messages.shrink_to_fit();
  graph.stats.messages = graph.messages.size();
  ParallelFor(n, threads, [&](size_t s) {
    std::vector<uint32_t>& sent = graph.by_location[s].sent;
    for (SendRecord& send : scans[s].sends) {
      if (send.message == kNone) continue;
      send.message += graph.by_location[send.dest].first_received;
      sent.push_back(send.message);
    }
  });
  for (uint32_t s = 0; s < n; ++s) {
    graph.diagnostics.Merge(scans[s].diagnostics);
    graph.stats.cancelled_requests += scans[s].cancelled;
    for (const SendRecord& send : scans[s].sends) {
      if (send.message == kNone) {
        ++graph.stats.unmatched_sends;
        graph.diagnostics.Report(kUnmatchedSend, Where(s, send.event));
      }
    }
  }
}

}  // namespace cw::match::internal
