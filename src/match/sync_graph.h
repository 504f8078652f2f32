// The synchronisation graph of a trace: matched point-to-point messages and collective instances.
//
// This is what every analysis walks instead of re-enacting communication. Events are referred to
// by (location, event index) into trace::Trace; the enclosing MPI call of any event is
// trace.location(loc).pair(event).
//
//   const Message& m = graph.messages[id];
//   uint32_t send_call = trace.location(m.sender).pair(m.send_event);   // Enter of MPI_Send
//   for (uint32_t id : graph.by_location[loc].received) { ... }         // in completion order
#pragma once

#include <cstdint>
#include <vector>

#include "base/diagnostics.h"
#include "trace/enums.h"

namespace cw::match {

using trace::kNone;

struct Message {
  uint32_t sender = kNone;
  uint32_t send_event = kNone;     // MpiSend or MpiIsend
  uint32_t send_complete = kNone;  // where the send completed: the send itself if blocking,
                                   // the MpiIsendComplete event, or kNone if never completed
  uint32_t receiver = kNone;
  uint32_t recv_event = kNone;     // MpiRecv or MpiIrecv (the completion)
  uint32_t recv_request = kNone;   // where the receive was posted: the receive itself if
                                   // blocking, else the MpiIrecvRequest event
};

struct CollectiveMember {
  uint32_t location = kNone;
  uint32_t begin_event = kNone;  // MpiCollectiveBegin, or the Enter of the call if absent
  uint32_t end_event = kNone;    // MpiCollectiveEnd
  uint32_t rank = kNone;         // rank in the communicator
};

struct CollectiveInstance {
  uint32_t comm = kNone;
  trace::CollectiveOp op = trace::CollectiveOp::kBarrier;
  uint32_t root = kNone;          // root location for rooted operations, else kNone
  uint32_t first_member = 0;      // index into SyncGraph::members
  uint32_t member_count = 0;
  bool complete = false;          // every rank of the communicator took part
};

struct LocationSync {
  std::vector<uint32_t> sent;      // message ids, ordered by send event
  std::vector<uint32_t> received;  // message ids, ordered by receive (completion) event
  std::vector<uint32_t> collectives;  // member indices, in event order
};

struct MatchStats {
  uint64_t messages = 0;
  uint64_t unmatched_sends = 0;
  uint64_t unmatched_receives = 0;
  uint64_t cancelled_requests = 0;
  uint64_t collective_instances = 0;
  uint64_t incomplete_collectives = 0;
};

struct SyncGraph {
  std::vector<Message> messages;
  std::vector<CollectiveInstance> collectives;
  std::vector<CollectiveMember> members;  // grouped by instance, in communicator rank order
  std::vector<LocationSync> by_location;
  MatchStats stats;
  Diagnostics diagnostics;
};

}  // namespace cw::match
