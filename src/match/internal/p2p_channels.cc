#include "match/internal/p2p_channels.h"

#include <algorithm>
#include <numeric>
#include <span>
#include <tuple>

#include "base/flat_hash_map.h"
#include "match/matcher.h"

namespace cw::match::internal {

using trace::EventKind;
using trace::LocationEvents;

namespace {

uint32_t PeerLocation(const trace::Trace& trace, uint32_t loc, const trace::P2pPayload& p) {
  const std::vector<trace::Comm>& comms = trace.defs.comms;
  if (p.comm >= comms.size() || !comms[p.comm].defined) return kNone;
  return comms[p.comm].LocationOfRank(p.peer, loc);
}

}  // namespace

const DiagnosticKind& UnmatchedKind(const trace::Trace& trace, uint32_t partner,
                                    const DiagnosticKind& otherwise) {
  return trace.defs.LocationEndedEarly(partner) ? kMessageAfterRankEnded : otherwise;
}

LocationScan ScanPointToPoint(const trace::Trace& trace, uint32_t loc) {
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
        scan.diagnostics.Report(kCancelledRequest, trace::EventPlace(loc, i));
        continue;
      }
      uint32_t dest = PeerLocation(trace, loc, p);
      if (dest == kNone) {
        scan.diagnostics.Report(kUnknownPeer, trace::EventPlace(loc, i));
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

namespace {

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

uint32_t SourceOf(const std::vector<uint32_t>& process_of, uint32_t loc) {
  return process_of.empty() || loc >= process_of.size() ? loc : process_of[loc];
}

// The sends to one destination (or one pool of a process's threads) queued per channel
// (communicator, source process, tag) in a given order; each receive takes the front of its
// channel's queue, as MPI's non-overtaking rule matches them.
class ChannelQueues {
 public:
  ChannelQueues(const std::vector<IncomingSend>& incoming, std::span<const uint32_t> order,
                const std::vector<uint32_t>& process_of)
      : process_of_(process_of), next_(incoming.size(), kNone) {
    for (uint32_t k : order) {
      const IncomingSend& send = incoming[k];
      const ChannelKey key{send.comm, SourceOf(process_of_, send.sender), send.tag};
      Queue* queue = channels_.Find(key);
      if (queue == nullptr) {
        channels_.Insert(key, Queue{k, k});
      } else {
        next_[queue->tail] = k;
        queue->tail = k;
      }
    }
  }

  // The send that the receive `p` on `dest` matches (an index into the incoming sends), taken
  // off its queue; kNone if none is left, with the receive's diagnostics in `result`.
  uint32_t Take(const trace::Trace& trace, uint32_t dest, uint32_t event,
                const trace::P2pPayload& p, DestinationResult& result);

 private:
  const std::vector<uint32_t>& process_of_;
  FlatHashMap<ChannelKey, Queue, ChannelHash> channels_;
  std::vector<uint32_t> next_;  // per send: the next of its channel
};

uint32_t ChannelQueues::Take(const trace::Trace& trace, uint32_t dest, uint32_t event,
                             const trace::P2pPayload& p, DestinationResult& result) {
  const uint32_t source = PeerLocation(trace, dest, p);
  Queue* queue = source == kNone
                     ? nullptr
                     : channels_.Find(ChannelKey{p.comm, SourceOf(process_of_, source), p.tag});
  if (queue == nullptr || queue->head == kNone) {
    if (source == kNone) result.diagnostics.Report(kUnknownPeer, trace::EventPlace(dest, event));
    ++result.unmatched_receives;
    result.diagnostics.Report(UnmatchedKind(trace, source, kUnmatchedReceive),
                              trace::EventPlace(dest, event));
    return kNone;
  }
  const uint32_t k = queue->head;
  queue->head = next_[k];
  return k;
}

uint64_t EnteredAt(const LocationEvents& ev, uint32_t event) {
  uint32_t enter = ev.pair(event);
  return ev.time(enter == kNone ? event : enter);
}

}  // namespace

IncomingSend ReadSend(const trace::Trace& trace, uint32_t sender, uint32_t index,
                      const SendRecord& send) {
  const LocationEvents& ev = trace.location(sender);
  const trace::P2pPayload& p = ev.p2p(send.event);
  return IncomingSend{EnteredAt(ev, send.event),
                      ev.time(send.event),
                      p.bytes,
                      sender,
                      index,
                      send.event,
                      p.comm,
                      p.tag};
}

namespace {

// The first location of each location's process (itself if its process is undefined).
std::vector<uint32_t> FirstLocationOfProcess(const trace::Trace& trace) {
  const trace::Definitions& defs = trace.defs;
  const uint32_t n = trace.location_count();
  std::vector<uint32_t> first(defs.location_groups.size(), kNone);
  std::vector<uint32_t> process_of(n);
  for (uint32_t loc = 0; loc < n; ++loc) {
    const uint32_t g = defs.locations[loc].group;
    if (g >= first.size()) {
      process_of[loc] = loc;
      continue;
    }
    if (first[g] == kNone) first[g] = loc;
    process_of[loc] = first[g];
  }
  return process_of;
}

}  // namespace

std::vector<uint32_t> SourceProcesses(const trace::Trace& trace,
                                      const std::vector<LocationScan>& scans) {
  const trace::Definitions& defs = trace.defs;
  std::vector<uint32_t> busy(defs.location_groups.size(), 0);
  bool threaded = false;
  for (uint32_t loc = 0; loc < trace.location_count(); ++loc) {
    const uint32_t g = defs.locations[loc].group;
    if (g >= busy.size() || (scans[loc].sends.empty() && scans[loc].recvs.empty())) continue;
    threaded |= ++busy[g] > 1;
  }
  return threaded ? FirstLocationOfProcess(trace) : std::vector<uint32_t>{};
}

namespace {

// The order sends queue in: as given (per sender in issue order), or with the threads of one
// process merged in the order the sends were issued.
std::vector<uint32_t> QueueOrder(const std::vector<IncomingSend>& incoming, bool by_time) {
  std::vector<uint32_t> order(incoming.size());
  std::iota(order.begin(), order.end(), 0u);
  if (by_time) {
    std::stable_sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
      return std::tie(incoming[a].entered, incoming[a].sender, incoming[a].index) <
             std::tie(incoming[b].entered, incoming[b].sender, incoming[b].index);
    });
  }
  return order;
}

}  // namespace

std::vector<uint32_t> ProcessesFromDefinitions(const trace::Trace& trace) {
  const trace::Definitions& defs = trace.defs;
  std::vector<bool> seen(defs.location_groups.size(), false);
  for (uint32_t loc = 0; loc < trace.location_count(); ++loc) {
    const uint32_t g = defs.locations[loc].group;
    if (g >= seen.size()) continue;
    if (seen[g]) return FirstLocationOfProcess(trace);
    seen[g] = true;
  }
  return {};
}

DestinationResult MatchDestination(const trace::Trace& trace, uint32_t dest,
                                   std::vector<RecvRecord>& recvs,
                                   const std::vector<IncomingSend>& incoming, Message* out,
                                   std::vector<uint32_t>& matched_from,
                                   const std::vector<uint32_t>& process_of) {
  ChannelQueues channels(incoming, QueueOrder(incoming, !process_of.empty()), process_of);

  const LocationEvents& ev = trace.location(dest);
  std::vector<uint32_t> order(recvs.size());
  std::iota(order.begin(), order.end(), 0u);
  auto by_posting = [&](uint32_t a, uint32_t b) { return recvs[a].posted < recvs[b].posted; };
  if (!std::is_sorted(order.begin(), order.end(), by_posting)) {
    std::stable_sort(order.begin(), order.end(), by_posting);
  }

  DestinationResult result;
  std::vector<uint32_t> matched(recvs.size(), kNone);
  for (uint32_t r : order) {
    const RecvRecord& recv = recvs[r];
    const uint32_t k = channels.Take(trace, dest, recv.event, ev.p2p(recv.event), result);
    if (k == kNone) continue;
    const IncomingSend& send = incoming[k];
    out[r] = Message{send.entered, send.time,   EnteredAt(ev, recv.posted),
                     send.bytes,   send.sender, send.event,
                     dest,         recv.event,  recv.posted};
    matched[r] = k;
  }
  // Compact in place.
  matched_from.clear();
  for (uint32_t r = 0; r < recvs.size(); ++r) {
    if (matched[r] == kNone) continue;
    matched_from.push_back(matched[r]);
    out[result.matched++] = out[r];
  }
  std::vector<RecvRecord>().swap(recvs);
  return result;
}

std::vector<uint32_t> PoolEndpoints(const trace::Trace& trace,
                                    const std::vector<LocationScan>& scans, bool& any_pool) {
  const trace::Definitions& defs = trace.defs;
  const uint32_t n = trace.location_count();
  std::vector<uint32_t> first(defs.location_groups.size(), kNone);
  std::vector<bool> pooled(defs.location_groups.size(), false);
  for (uint32_t loc = 0; loc < n; ++loc) {
    const uint32_t g = defs.locations[loc].group;
    if (g >= first.size() || (scans[loc].sends.empty() && scans[loc].recvs.empty())) continue;
    if (first[g] == kNone) {
      first[g] = loc;
    } else {
      pooled[g] = true;
    }
  }
  std::vector<uint32_t> endpoint(n);
  any_pool = false;
  for (uint32_t loc = 0; loc < n; ++loc) {
    const uint32_t g = defs.locations[loc].group;
    endpoint[loc] = g < pooled.size() && pooled[g] ? first[g] : loc;
    any_pool |= endpoint[loc] != loc;
  }
  return endpoint;
}

namespace {

// A receive of a pooled process, as the pool orders them.
struct PooledRecv {
  uint64_t posted_entered;
  uint32_t location;
  uint32_t index;  // into the location's LocationScan::recvs
};

}  // namespace

void MatchPool(const trace::Trace& trace, const std::vector<uint32_t>& members,
               const std::vector<uint32_t>& process_of, std::vector<LocationScan>& scans,
               std::vector<IncomingSend>& incoming, const std::vector<size_t>& slot,
               Message* messages, std::vector<DestinationResult>& results) {
  // The source process's sends, per channel, in the order they were issued.
  std::stable_sort(
      incoming.begin(), incoming.end(), [](const IncomingSend& a, const IncomingSend& b) {
        return std::tie(a.entered, a.sender, a.index) < std::tie(b.entered, b.sender, b.index);
      });
  ChannelQueues channels(incoming, QueueOrder(incoming, false), process_of);
  std::vector<PooledRecv> order;
  for (uint32_t loc : members) {
    const LocationEvents& ev = trace.location(loc);
    for (uint32_t r = 0; r < scans[loc].recvs.size(); ++r) {
      order.push_back(PooledRecv{EnteredAt(ev, scans[loc].recvs[r].posted), loc, r});
    }
  }
  std::stable_sort(order.begin(), order.end(), [](const PooledRecv& a, const PooledRecv& b) {
    return std::tie(a.posted_entered, a.location, a.index) <
           std::tie(b.posted_entered, b.location, b.index);
  });
  std::vector<std::vector<uint32_t>> matched(trace.location_count());
  for (uint32_t loc : members) matched[loc].assign(scans[loc].recvs.size(), kNone);
  for (const PooledRecv& pr : order) {
    const LocationEvents& ev = trace.location(pr.location);
    const RecvRecord& recv = scans[pr.location].recvs[pr.index];
    matched[pr.location][pr.index] =
        channels.Take(trace, pr.location, recv.event, ev.p2p(recv.event), results[pr.location]);
  }
  // Each member's messages, compacted in its receive order.
  for (uint32_t loc : members) {
    const LocationEvents& ev = trace.location(loc);
    DestinationResult& result = results[loc];
    for (uint32_t r = 0; r < matched[loc].size(); ++r) {
      if (matched[loc][r] == kNone) continue;
      const IncomingSend& send = incoming[matched[loc][r]];
      const RecvRecord& recv = scans[loc].recvs[r];
      messages[slot[loc] + result.matched] =
          Message{send.entered, send.time,   EnteredAt(ev, recv.posted),
                  send.bytes,   send.sender, send.event,
                  loc,          recv.event,  recv.posted};
      SendRecord& record = scans[send.sender].sends[send.index];
      record.dest = loc;
      record.message = result.matched++;
    }
    std::vector<RecvRecord>().swap(scans[loc].recvs);
  }
}

size_t PlaceReceived(uint32_t dest, size_t slot, size_t next_free, const DestinationResult& r,
                     SyncGraph& graph) {
  LocationSync& sync = graph.by_location[dest];
  sync.first_received = static_cast<uint32_t>(next_free);
  sync.received_count = r.matched;
  std::copy(graph.messages.begin() + static_cast<std::ptrdiff_t>(slot),
            graph.messages.begin() + static_cast<std::ptrdiff_t>(slot + r.matched),
            graph.messages.begin() + static_cast<std::ptrdiff_t>(next_free));
  graph.stats.unmatched_receives += r.unmatched_receives;
  graph.diagnostics.Merge(r.diagnostics);
  return next_free + r.matched;
}

}  // namespace cw::match::internal
