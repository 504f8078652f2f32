#include "match/internal/p2p_matcher.h"

#include <algorithm>
#include <string>

#include "base/check.h"
#include "base/flat_hash_map.h"
#include "base/parallel.h"
#include "comm/wire.h"
#include "match/internal/p2p_channels.h"
#include "match/matcher.h"

namespace cw::match::internal {
namespace {

// Sends to one rank travel as differences to the previous send in the same buffer: a sender's
// sends are consecutive, so locations, indices, events and times change little, and most
// fields take a byte or two instead of a full word. The communicator, tag and message size
// mostly repeat from the buffer's previous send to the same destination, and the sender from the
// previous send: flags in the first varint say which facts repeat and are left out.
class SendCodec {
 public:
  void Write(comm::ByteWriter& out, uint32_t dest, const IncomingSend& s) {
    ChannelFacts* last = channels_.Find(dest);
    const bool same_sender = s.sender == last_.sender;
    const bool same_channel = last != nullptr && last->comm == s.comm && last->tag == s.tag;
    const bool same_bytes = last != nullptr && last->bytes == s.bytes;
    out.PutVarint(comm::ZigZag(dest, dest_) << 3 | (same_sender ? kSameSender : 0) |
                  (same_channel ? kSameChannel : 0) | (same_bytes ? kSameBytes : 0));
    if (!same_sender) out.PutDelta(s.sender, last_.sender);
    out.PutDelta(s.index, last_.index);
    out.PutDelta(s.event, last_.event);
    if (!same_channel) {
      out.PutVarint(s.comm);
      out.PutVarint(s.tag);
    }
    out.PutDelta(s.entered, last_.entered);
    out.PutDelta(s.time, s.entered);
    if (!same_bytes) out.PutVarint(s.bytes);
    dest_ = dest;
    last_ = s;
    channels_.Insert(dest, ChannelFacts{s.comm, s.tag, s.bytes});
  }
  IncomingSend Read(comm::ByteReader& in, uint32_t& dest) {
    const uint64_t head = in.GetVarint();
    dest = dest_ = static_cast<uint32_t>(comm::UnZigZag(head >> 3, dest_));
    const ChannelFacts* last = channels_.Find(dest);
    CW_CHECK(last != nullptr || (head & (kSameChannel | kSameBytes)) == 0);
    IncomingSend s{};
    s.sender = (head & kSameSender) != 0 ? last_.sender : in.GetDelta32(last_.sender);
    s.index = in.GetDelta32(last_.index);
    s.event = in.GetDelta32(last_.event);
    if ((head & kSameChannel) != 0) {
      s.comm = last->comm;
      s.tag = last->tag;
    } else {
      s.comm = static_cast<uint32_t>(in.GetVarint());
      s.tag = static_cast<uint32_t>(in.GetVarint());
    }
    s.entered = in.GetDelta(last_.entered);
    s.time = in.GetDelta(s.entered);
    s.bytes = (head & kSameBytes) != 0 ? last->bytes : in.GetVarint();
    last_ = s;
    channels_.Insert(dest, ChannelFacts{s.comm, s.tag, s.bytes});
    return s;
  }

 private:
  static constexpr uint64_t kSameSender = 1, kSameChannel = 2, kSameBytes = 4;
  struct ChannelFacts {
    uint32_t comm;
    uint32_t tag;
    uint64_t bytes;
  };
  uint32_t dest_ = 0;
  IncomingSend last_{};
  FlatHashMap<uint32_t, ChannelFacts> channels_;  // by destination: its previous send's facts
};

// What a sender's rank needs back of each send it shipped: whether it was matched and, if so,
// the receiver's facts (the sender's it has). Receipts come back one per shipped send, in the
// order the sender's rank shipped them (by sender location, then issue order), so they need not
// say which send they answer, nor its receiver: the sender's rank knows both. The receive event
// travels as the difference to the previous one at the same receiver, the posting time as the
// difference to the send's own entry time (both sides know it).
struct Receipt {
  uint32_t sender;
  uint32_t index;
  uint32_t receiver;
  uint32_t recv_event = kNone;  // kNone: not matched
  uint32_t recv_posting = kNone;
  uint64_t recv_posted_entered = 0;
  uint64_t send_entered = 0;
};

class ReceiptCodec {
 public:
  explicit ReceiptCodec(uint32_t locations) : last_event_(locations, 0) {}

  void Write(comm::ByteWriter& out, const Receipt& r) {
    if (r.recv_event == kNone) {
      out.PutVarint(0);
      return;
    }
    out.PutVarint(comm::ZigZag(r.recv_event, last_event_[r.receiver]) + 1);
    out.PutDelta(r.recv_posting, r.recv_event);
    out.PutDelta(r.recv_posted_entered, r.send_entered);
    if (last_event_[r.receiver] == 0) touched_.push_back(r.receiver);
    last_event_[r.receiver] = r.recv_event;
  }
  // Starts the stream to another rank (whose reader starts from nothing).
  void Reset() {
    for (uint32_t receiver : touched_) last_event_[receiver] = 0;
    touched_.clear();
  }
  // Fills the receiver's facts of `m` (its sender's are in; m.receiver names the receiver);
  // false if the send was not matched.
  bool Read(comm::ByteReader& in, Message& m) {
    const uint64_t head = in.GetVarint();
    if (head == 0) return false;
    CW_CHECK(m.receiver < last_event_.size());
    m.recv_event = static_cast<uint32_t>(comm::UnZigZag(head - 1, last_event_[m.receiver]));
    m.recv_posting = in.GetDelta32(m.recv_event);
    m.recv_posted_entered = in.GetDelta(m.send_entered);
    last_event_[m.receiver] = m.recv_event;
    return true;
  }

 private:
  std::vector<uint32_t> last_event_;  // per receiver
  std::vector<uint32_t> touched_;     // receivers whose entry is not 0 (writing)
};

}  // namespace

void MatchPointToPoint(const trace::Trace& trace, unsigned threads, SyncGraph& graph) {
  const uint32_t n = trace.location_count();
  std::vector<LocationScan> scans(n);
  ParallelFor(n, threads, [&](size_t loc) {
    scans[loc] = ScanPointToPoint(trace, static_cast<uint32_t>(loc));
  });

  // Sends by destination, in sender-location order and, per sender, in issue order: this keeps
  // every channel's sends in the order the sender issued them. A pooled process's sends all go
  // to its endpoint.
  bool any_pool = false;
  const std::vector<uint32_t> endpoint = PoolEndpoints(trace, scans, any_pool);
  const std::vector<uint32_t> process_of = SourceProcesses(trace, scans);
  std::vector<std::vector<SendRef>> incoming(n);
  for (uint32_t s = 0; s < n; ++s) {
    for (uint32_t i = 0; i < scans[s].sends.size(); ++i) {
      incoming[endpoint[scans[s].sends[i].dest]].push_back(SendRef{s, i});
    }
  }
  std::vector<std::vector<uint32_t>> pool_members(any_pool ? n : 0);
  if (any_pool) {
    for (uint32_t loc = 0; loc < n; ++loc) pool_members[endpoint[loc]].push_back(loc);
  }
  // Every receive gets a slot; destinations fill theirs in parallel, then the unmatched gaps
  // are squeezed out in place, so the messages never exist twice.
  std::vector<size_t> slot(n + 1, 0);
  for (uint32_t d = 0; d < n; ++d) slot[d + 1] = slot[d] + scans[d].recvs.size();
  graph.messages.resize(slot[n]);
  std::vector<DestinationResult> results(n);
  ParallelFor(n, threads, [&](size_t dest) {
    if (any_pool && endpoint[dest] != dest) return;  // matched with its pool's endpoint
    std::vector<IncomingSend> sends;
    sends.reserve(incoming[dest].size());
    for (const SendRef& ref : incoming[dest]) {
      sends.push_back(ReadSend(trace, ref.sender, ref.index, scans[ref.sender].sends[ref.index]));
    }
    std::vector<SendRef>().swap(incoming[dest]);
    if (any_pool && pool_members[dest].size() > 1) {
      MatchPool(trace, pool_members[dest], process_of, scans, sends, slot, graph.messages.data(),
                results);
      return;
    }
    std::vector<uint32_t> matched_from;
    results[dest] = MatchDestination(trace, static_cast<uint32_t>(dest), scans[dest].recvs, sends,
                                     graph.messages.data() + slot[dest], matched_from, process_of);
    // Each send is matched at most once, so threads of different destinations write different
    // send records.
    for (uint32_t m = 0; m < matched_from.size(); ++m) {
      const IncomingSend& send = sends[matched_from[m]];
      scans[send.sender].sends[send.index].message = m;
    }
  });
  size_t next_free = 0;
  for (uint32_t dest = 0; dest < n; ++dest) {
    next_free = PlaceReceived(dest, slot[dest], next_free, results[dest], graph);
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
        graph.diagnostics.Report(UnmatchedKind(trace, send.dest, kUnmatchedSend),
                                 trace::EventPlace(s, send.event));
      }
    }
  }
}

namespace {

// Every send of this rank's locations, with the facts its message carries, goes to the rank of
// its destination. Returns the sends each owned destination got, listed as one process lists
// them: by sender location, then issue order.
std::vector<std::vector<IncomingSend>> ShipSends(const trace::Trace& trace,
                                                 const trace::Partition& partition,
                                                 comm::Communicator& comm,
                                                 const std::vector<LocationScan>& scans) {
  const uint32_t n = trace.location_count();
  const std::vector<uint32_t>& owned = partition.owned[comm.rank()];
  std::vector<comm::ByteWriter> to_destinations(comm.size());
  std::vector<SendCodec> send_codecs(comm.size());
  for (uint32_t s : owned) {
    for (uint32_t i = 0; i < scans[s].sends.size(); ++i) {
      const SendRecord& send = scans[s].sends[i];
      const uint32_t rank = partition.owner[send.dest];
      send_codecs[rank].Write(to_destinations[rank], send.dest, ReadSend(trace, s, i, send));
    }
  }
  std::vector<std::vector<IncomingSend>> incoming(n);
  for (const comm::Bytes& bytes : comm.Exchange(comm::TakeAll(to_destinations))) {
    comm::ByteReader in(bytes);
    SendCodec codec;
    while (!in.done()) {
      uint32_t dest = 0;
      IncomingSend send = codec.Read(in, dest);
      CW_CHECK(dest < n);
      incoming[dest].push_back(send);
    }
  }
  // Ranks arrive in rank order.
  for (uint32_t dest : owned) {
    std::stable_sort(incoming[dest].begin(), incoming[dest].end(),
                     [](const IncomingSend& a, const IncomingSend& b) {
                       return a.sender != b.sender ? a.sender < b.sender : a.index < b.index;
                     });
  }
  return incoming;
}

// What matching the owned destinations leaves to do: the local message id of each owned
// sender's send matched here (kNone otherwise), and per sender rank a receipt for every send it
// shipped here, matched or not.
struct ReceivedMessages {
  std::vector<std::vector<uint32_t>> message_of;  // per owned sender and send
  std::vector<std::vector<Receipt>> receipts;     // per sender rank
};

// Matches each owned destination's receives with the sends it got; the rank's received messages
// come first in graph.messages, by receiver (ascending) and receive event.
ReceivedMessages MatchReceived(const trace::Trace& trace, const trace::Partition& partition,
                               comm::Communicator& comm, unsigned threads,
                               std::vector<LocationScan>& scans,
                               const std::vector<std::vector<IncomingSend>>& incoming,
                               const std::vector<uint32_t>& process_of, SyncGraph& graph) {
  const uint32_t me = comm.rank();
  const std::vector<uint32_t>& owned = partition.owned[me];
  std::vector<size_t> slot(owned.size() + 1, 0);
  for (size_t i = 0; i < owned.size(); ++i) slot[i + 1] = slot[i] + scans[owned[i]].recvs.size();
  graph.messages.resize(slot[owned.size()]);
  std::vector<DestinationResult> results(owned.size());
  std::vector<std::vector<uint32_t>> matched_from(owned.size());
  ParallelFor(owned.size(), threads, [&](size_t i) {
    const uint32_t dest = owned[i];
    results[i] = MatchDestination(trace, dest, scans[dest].recvs, incoming[dest],
                                  graph.messages.data() + slot[i], matched_from[i], process_of);
  });
  ReceivedMessages out;
  out.message_of.resize(trace.location_count());
  for (uint32_t s : owned) out.message_of[s].assign(scans[s].sends.size(), kNone);
  out.receipts.resize(comm.size());
  size_t next_free = 0;
  for (size_t i = 0; i < owned.size(); ++i) {
    const uint32_t dest = owned[i];
    const DestinationResult& r = results[i];
    std::vector<uint32_t> matched_as(incoming[dest].size(), kNone);
    for (uint32_t m = 0; m < r.matched; ++m) matched_as[matched_from[i][m]] = m;
    for (uint32_t k = 0; k < incoming[dest].size(); ++k) {
      const IncomingSend& send = incoming[dest][k];
      const uint32_t sender_rank = partition.owner[send.sender];
      const uint32_t m = matched_as[k];
      if (sender_rank == me) {
        if (m != kNone) {
          out.message_of[send.sender][send.index] = static_cast<uint32_t>(next_free + m);
        }
        continue;
      }
      // The sender's rank has the sender's facts; it needs the receiver's.
      Receipt receipt{send.sender, send.index, dest};
      receipt.send_entered = send.entered;
      if (m != kNone) {
        const Message& message = graph.messages[slot[i] + m];
        receipt.recv_event = message.recv_event;
        receipt.recv_posting = message.recv_posting;
        receipt.recv_posted_entered = message.recv_posted_entered;
      }
      out.receipts[sender_rank].push_back(receipt);
    }
    next_free = PlaceReceived(dest, slot[i], next_free, r, graph);
  }
  graph.messages.resize(next_free);
  graph.stats.messages = next_free;  // the job's total is the sum over ranks
  return out;
}

// Sends each sender rank its receipts, and adds copies of the messages this rank's locations
// sent to other ranks, read in the order they were shipped, after the received ones.
void AddSentMessages(const trace::Trace& trace, const trace::Partition& partition,
                     comm::Communicator& comm, const std::vector<LocationScan>& scans,
                     ReceivedMessages& received, SyncGraph& graph) {
  const uint32_t n = trace.location_count();
  const uint32_t me = comm.rank();
  std::vector<comm::ByteWriter> to_senders(comm.size());
  {
    ReceiptCodec codec(n);
    for (uint32_t rank = 0; rank < comm.size(); ++rank) {
      codec.Reset();
      std::vector<Receipt>& list = received.receipts[rank];
      std::sort(list.begin(), list.end(), [](const Receipt& a, const Receipt& b) {
        return a.sender != b.sender ? a.sender < b.sender : a.index < b.index;
      });
      for (const Receipt& receipt : list) codec.Write(to_senders[rank], receipt);
      std::vector<Receipt>().swap(list);
    }
  }
  const std::vector<comm::Bytes> answered = comm.Exchange(comm::TakeAll(to_senders));
  ReceiptCodec codec(n);  // each rank's stream names only its own receivers: one codec serves
  std::vector<comm::ByteReader> readers;
  readers.reserve(answered.size());
  for (const comm::Bytes& bytes : answered) readers.emplace_back(bytes);
  for (uint32_t s : partition.owned[me]) {
    for (uint32_t i = 0; i < scans[s].sends.size(); ++i) {
      const SendRecord& record = scans[s].sends[i];
      const uint32_t rank = partition.owner[record.dest];
      if (rank == me) continue;
      const IncomingSend send = ReadSend(trace, s, i, record);
      Message m;
      m.sender = s;
      m.receiver = record.dest;
      m.send_entered = send.entered;
      m.send_time = send.time;
      m.bytes = send.bytes;
      m.send_event = send.event;
      if (!codec.Read(readers[rank], m)) continue;
      received.message_of[s][i] = static_cast<uint32_t>(graph.messages.size());
      graph.messages.push_back(m);
    }
  }
  for (const comm::ByteReader& reader : readers) CW_CHECK(reader.done());
  graph.messages.shrink_to_fit();
}

}  // namespace

void MatchPointToPoint(const trace::Trace& trace, const trace::Partition& partition,
                       comm::Communicator& comm, unsigned threads, SyncGraph& graph) {
  const uint32_t n = trace.location_count();
  const std::vector<uint32_t>& owned = partition.owned[comm.rank()];
  std::vector<LocationScan> scans(n);
  ParallelFor(owned.size(), threads,
              [&](size_t i) { scans[owned[i]] = ScanPointToPoint(trace, owned[i]); });
  // Processes whose threads send and receive are matched as processes by one analysis process
  // only (MatchPool): here they are matched thread by thread, and the report says so.
  bool any_pool = false;
  const std::vector<uint32_t> endpoint = PoolEndpoints(trace, scans, any_pool);
  // Every analysis rank must key channels alike, so the sources are processes wherever a process
  // may have several locations (the definitions say so; scans of other ranks are not here).
  const std::vector<uint32_t> process_of = ProcessesFromDefinitions(trace);
  for (uint32_t loc : owned) {
    if (endpoint[loc] != loc) {
      graph.diagnostics.Report(kThreadsMatchedPerThread, "location " + std::to_string(loc));
      break;
    }
  }

  ReceivedMessages received;
  {
    // The sends shipped here are released once matched.
    const std::vector<std::vector<IncomingSend>> incoming =
        ShipSends(trace, partition, comm, scans);
    received = MatchReceived(trace, partition, comm, threads, scans, incoming, process_of, graph);
  }
  AddSentMessages(trace, partition, comm, scans, received, graph);
  for (uint32_t s : owned) {
    graph.diagnostics.Merge(scans[s].diagnostics);
    graph.stats.cancelled_requests += scans[s].cancelled;
    std::vector<uint32_t>& sent = graph.by_location[s].sent;
    for (uint32_t i = 0; i < scans[s].sends.size(); ++i) {
      if (received.message_of[s][i] != kNone) {
        sent.push_back(received.message_of[s][i]);
      } else {
        ++graph.stats.unmatched_sends;
        graph.diagnostics.Report(UnmatchedKind(trace, scans[s].sends[i].dest, kUnmatchedSend),
                                 trace::EventPlace(s, scans[s].sends[i].event));
      }
    }
  }
}

}  // namespace cw::match::internal
