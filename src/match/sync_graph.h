// The synchronisation graph of a trace: matched point-to-point messages, the probes that found
// them, and collective instances.
//
// This is what every analysis walks instead of re-enacting communication. Events are referred to
// by (location, event index) into trace::Trace; the enclosing MPI call of any event is
// trace.location(loc).pair(event).
//
//   const Message& m = graph.messages[id];
//   uint32_t send_call = trace.location(m.sender).pair(m.send_event);   // Enter of MPI_Send
//   const LocationSync& s = graph.by_location[loc];
//   for (uint32_t id = s.first_received; id < s.first_received + s.received_count; ++id) ...
#pragma once

#include <cstdint>
#include <vector>

#include "base/diagnostics.h"
#include "trace/trace.h"

namespace cw::match {

using trace::kNone;

// A matched message, with the sender's and receiver's facts every analysis needs copied in, so
// that analysing a location reads its own events and its messages, not its partners' events.
struct Message {
  uint64_t send_entered = 0;         // when the sender entered the call holding the send record
  uint64_t send_time = 0;            // time of the send record
  uint64_t recv_posted_entered = 0;  // when the receiver entered the call that posted it
  uint64_t bytes = 0;                // as the sender recorded them
  uint32_t sender = kNone;
  uint32_t send_event = kNone;  // MpiSend or MpiIsend
  uint32_t receiver = kNone;
  uint32_t recv_event = kNone;  // MpiRecv or MpiIrecv (the completion)
  // Where the receive was posted: the receive record itself if blocking, else the
  // MpiIrecvRequest record (the Irecv record itself if the request could not be linked).
  uint32_t recv_posting = kNone;
};

// Where the send of `m` completed: the send record itself if blocking, the MpiIsendComplete
// record, or kNone if the request never completed in the trace.
uint32_t SendCompletion(const trace::Trace& trace, const Message& m);

// A member of a blocking collective, or of a non-blocking one (CollectiveInstance::non_blocking:
// started by one call, such as MPI_Ialltoallv, and completed by a later one, such as MPI_Wait).
struct CollectiveMember {
  uint32_t location = kNone;
  // MpiCollectiveBegin, or the Enter of the call if absent; non-blocking: the
  // NonBlockingCollectiveRequest record in the call that started it.
  uint32_t begin_event = kNone;
  uint32_t end_event = kNone;  // MpiCollectiveEnd; non-blocking: NonBlockingCollectiveComplete
  uint32_t rank = kNone;       // rank in the communicator
  // The member's facts other members' analyses need, copied in as for messages, so that an
  // analysis rank of an MPI job has them for members it does not own.
  uint64_t entered = 0;   // when the member entered the call (non-blocking: the starting call)
  uint64_t end_time = 0;  // time of the end record
  // Non-blocking: when the member entered the call that completed it (where it can wait);
  // blocking: `entered`.
  uint64_t completion_entered = 0;
  uint64_t sent = 0;  // bytes, as the end record says
  uint64_t received = 0;
  // A v-collective (MPI_Alltoallv/w, Allgatherv and their non-blocking forms) traced by
  // causeway: the group of the processes that send the member data
  // (trace/collective_senders.h), kNone if the trace does not say.
  uint32_t senders = kNone;
};

struct CollectiveInstance {
  uint32_t comm = kNone;
  // RMA collectives (MPI_Win_fence, window creation and freeing): the window; its members are
  // the ranks of its communicator `comm`. kNone for operations on a communicator.
  uint32_t window = kNone;
  trace::CollectiveOp op = trace::CollectiveOp::kBarrier;
  uint32_t root = kNone;      // root location for rooted operations, else kNone
  uint32_t first_member = 0;  // index into SyncGraph::members
  uint32_t member_count = 0;
  bool complete = false;  // every rank of the communicator took part
  // A non-blocking collective (MPI_Iallreduce, MPI_Ialltoallv, ...): its members are matched in
  // the order they started it, apart from the blocking collectives of the communicator. Only
  // the wait-state analysis reads them (Wait for Senders); every other reader of the
  // collectives passes them by.
  bool non_blocking = false;
  // Names the instance on every rank of an MPI analysis job: the rank that built it (whole, in
  // SyncGraph::built) << 32 | its index there. One process: its index in `collectives`.
  uint64_t origin = 0;
};

// A probe that found a message (Haus 2024 ch. 3). The receiving side of a probed message
// synchronises at the probe, which waits for a late sender; the receive that follows cannot
// wait any more. Repeated probes for a message already found take no part.
struct ProbeLink {
  uint32_t probe = kNone;    // Enter of the probe call, on the message's receiver
  uint32_t message = kNone;  // the message it found
  bool inferred = false;     // the trace did not say which message (see LinkProbes)
};

struct LocationSync {
  std::vector<uint32_t> sent;  // message ids, ordered by send event
  // Messages this location received are the ids [first_received, first_received +
  // received_count), ordered by receive (completion) event.
  uint32_t first_received = 0;
  uint32_t received_count = 0;
  std::vector<uint32_t> collectives;  // member indices, in event order
  // Probes of this location that found a message: [first_probe, first_probe + probe_count) in
  // SyncGraph::probes, ordered by probe event.
  uint32_t first_probe = 0;
  uint32_t probe_count = 0;
};

struct MatchStats {
  uint64_t messages = 0;
  uint64_t unmatched_sends = 0;
  uint64_t unmatched_receives = 0;
  uint64_t cancelled_requests = 0;
  uint64_t collective_instances = 0;
  uint64_t incomplete_collectives = 0;
  uint64_t probes_linked = 0;    // probes linked to the message they found
  uint64_t probes_inferred = 0;  // of those, linked by inference (no probe attributes)
  uint64_t probes_repeated = 0;  // probes for a message an earlier probe had already found
  uint64_t probes_unlinked = 0;  // probes that found a message no later receive took
  uint64_t probes_unresolved =
      0;  // non-blocking probes of traces that do not say if they found one

  // The counts of another share of the trace (another rank of an MPI analysis job).
  MatchStats& operator+=(const MatchStats& other) {
    messages += other.messages;
    unmatched_sends += other.unmatched_sends;
    unmatched_receives += other.unmatched_receives;
    cancelled_requests += other.cancelled_requests;
    collective_instances += other.collective_instances;
    incomplete_collectives += other.incomplete_collectives;
    probes_linked += other.probes_linked;
    probes_inferred += other.probes_inferred;
    probes_repeated += other.probes_repeated;
    probes_unlinked += other.probes_unlinked;
    probes_unresolved += other.probes_unresolved;
    return *this;
  }
};
static_assert(sizeof(MatchStats) == 11 * sizeof(uint64_t),
              "MatchStats::operator+= adds each count");

// The collective instances one rank of an MPI analysis job built, each with all its members.
struct BuiltCollectives {
  std::vector<CollectiveInstance> collectives;
  std::vector<CollectiveMember> members;  // grouped by instance, in communicator rank order
};

struct SyncGraph {
  std::vector<Message> messages;  // grouped by receiver, in each group by receive event
  // One rank of an MPI analysis job (MatchOwnedLocations) lists here only its own locations'
  // members of an instance, except for one-sided (window) instances, which list all (the
  // one-sided epochs name their partners' members); `built` holds the instances it built whole,
  // which the wait-state analysis evaluates for every member.
  std::vector<CollectiveInstance> collectives;
  std::vector<CollectiveMember> members;  // grouped by instance, in communicator rank order
  BuiltCollectives built;
  std::vector<ProbeLink> probes;  // grouped by receiver, in each group by probe event
  std::vector<LocationSync> by_location;
  MatchStats stats;
  Diagnostics diagnostics;
};

}  // namespace cw::match
