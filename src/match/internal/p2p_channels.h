// The building blocks of point-to-point matching (private to match/), shared by matching in one
// process and as one rank of an MPI analysis job (p2p_matcher.h): a location's sends and
// receives, the sends a destination matches with the facts their messages carry, and the
// matching of one destination's receives (or one pooled process's) against them, channel by
// channel, in posting and issue order.
#pragma once

#include <cstdint>
#include <vector>

#include "base/diagnostics.h"
#include "match/sync_graph.h"
#include "trace/trace.h"

namespace cw::match::internal {

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

struct SendRef {
  uint32_t sender;
  uint32_t index;  // into that sender's LocationScan::sends
};

// A send as its destination matches it: where it came from and the sender's facts a message
// carries (see Message). In one process they are read from the sender's events while matching;
// in an MPI analysis job the sender's rank reads them and ships the record.
struct IncomingSend {
  uint64_t entered;
  uint64_t time;
  uint64_t bytes;
  uint32_t sender;
  uint32_t index;  // into that sender's LocationScan::sends
  uint32_t event;
  uint32_t comm;
  uint32_t tag;
  uint32_t reserved = 0;
};

struct DestinationResult {
  uint32_t matched = 0;
  uint64_t unmatched_receives = 0;
  Diagnostics diagnostics;
};

// The diagnostic of a send or receive left unmatched: a warning where the partner's rank had
// stopped recording before it (ranks stop independently: a crash, --max-size), an error where
// the trace should hold the partner's record.
const DiagnosticKind& UnmatchedKind(const trace::Trace& trace, uint32_t partner,
                                    const DiagnosticKind& otherwise);

// Reads one location's point-to-point records. Requests were linked by the trace builder.
LocationScan ScanPointToPoint(const trace::Trace& trace, uint32_t loc);

// Send `index` of location `sender` (`send`) as its destination matches it.
IncomingSend ReadSend(const trace::Trace& trace, uint32_t sender, uint32_t index,
                      const SendRecord& send);

// Where several threads of a process send or receive, a message's source is the process, not
// the thread: process_of[loc] is the first location of loc's process (SourceProcesses), and the
// sends of a process's threads queue in the order they were issued. Empty where every process
// keeps its point-to-point records on one location (the sender location is the source).
std::vector<uint32_t> SourceProcesses(const trace::Trace& trace,
                                      const std::vector<LocationScan>& scans);

// process_of from the definitions alone (an MPI job's ranks see only their own records):
// empty unless some process has several locations.
std::vector<uint32_t> ProcessesFromDefinitions(const trace::Trace& trace);

// Matches the receives of `dest` (in posting order) with `incoming` (per sender in issue order).
// Writes the messages to out[0, matched) in receive order; matched_from[m] is the index into
// `incoming` of message m's send.
DestinationResult MatchDestination(const trace::Trace& trace, uint32_t dest,
                                   std::vector<RecvRecord>& recvs,
                                   const std::vector<IncomingSend>& incoming, Message* out,
                                   std::vector<uint32_t>& matched_from,
                                   const std::vector<uint32_t>& process_of);

// Processes whose point-to-point records are spread over several of their locations (threads
// that send and receive on communicators they share): a message to such a process may be
// received by any of its threads, so their receives are matched together, in the order they
// were posted, against the sends of the source process in the order they were issued, from
// whichever of its threads. endpoint[loc] is the first such location of loc's process, or loc
// itself where the process keeps its point-to-point records on one location.
std::vector<uint32_t> PoolEndpoints(const trace::Trace& trace,
                                    const std::vector<LocationScan>& scans, bool& any_pool);

// Matches the receives of the locations `members` of one pooled process (PoolEndpoints)
// against `incoming`, the sends to that process. Each member's messages go to its own slots
// (`slots[member]`, in its receive order) and its result to results[member]; matched sends get
// their real receiver and their index among its messages.
void MatchPool(const trace::Trace& trace, const std::vector<uint32_t>& members,
               const std::vector<uint32_t>& process_of, std::vector<LocationScan>& scans,
               std::vector<IncomingSend>& incoming, const std::vector<size_t>& slot,
               Message* messages, std::vector<DestinationResult>& results);

// Moves the `r.matched` messages of `dest`, matched into slots from `slot`, down to `next_free`
// (slots of unmatched receives are squeezed out in place, so the messages never exist twice),
// and records them as the location's received messages. Returns the next free slot.
size_t PlaceReceived(uint32_t dest, size_t slot, size_t next_free, const DestinationResult& r,
                     SyncGraph& graph);

}  // namespace cw::match::internal
