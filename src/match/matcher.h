// Builds the synchronisation graph of a trace.
//
// Point-to-point: a message is the k-th send on a channel (communicator, source, destination,
// tag) matched with the k-th receive on that channel, where sends are ordered as the sender
// issued them and receives in the order they were posted (MPI's non-overtaking rule; a wildcard
// receive is already resolved in the trace). Requests come linked from the trace (Isend ->
// IsendComplete, IrecvRequest -> Irecv, see trace::P2pPayload); cancelled requests take no part.
// Probes (Haus 2024 §3.2): a probe is linked to the message it found, which is the message of the
// next receive on the location with the probe's envelope (communicator, source, tag, and message
// handle for MPI_Mprobe/MPI_Mrecv), as the probe's attributes give them (trace/probe_attributes.h).
// A second probe of an envelope before its receive is a repeated probe and synchronises nothing.
// Traces without probe attributes (Score-P's) get the link inferred: a blocking MPI_Probe found
// the message of the next receive posted after it, an MPI_Mprobe that of the next MPI_Mrecv or
// MPI_Imrecv (in order); further MPI_Probes before that receive are taken as repeated, and
// MPI_Iprobe/MPI_Improbe, which may have found nothing, are left out. Inferred links are counted
// and reported.
// Collectives: instance k of a communicator is the k-th collective of every member on it.
// Whatever cannot be matched is counted (stats, diagnostics) and left out; never an error.
//
//   match::SyncGraph graph = match::MatchTrace(trace, /*threads=*/4);
#pragma once

#include "comm/communicator.h"
#include "match/sync_graph.h"
#include "trace/partition.h"
#include "trace/trace.h"

namespace cw::match {

inline constexpr DiagnosticKind kUnmatchedSend{
    "match.unmatched_send", Severity::kError,
    "a send has no matching receive; it takes no part in the wait-state analysis"};
inline constexpr DiagnosticKind kUnmatchedReceive{
    "match.unmatched_receive", Severity::kError,
    "a receive has no matching send; it takes no part in the wait-state analysis"};
inline constexpr DiagnosticKind kMessageAfterRankEnded{
    "match.message_after_rank_ended", Severity::kWarning,
    "a send or receive has no partner because the partner's rank had stopped recording (an "
    "abort, a signal, the size limit of causeway trace --max-size: trace.rank_ended_early); it "
    "takes no part in the wait-state analysis"};
inline constexpr DiagnosticKind kUnknownPeer{
    "match.unknown_peer", Severity::kError,
    "a message names a communicator or rank that the definitions do not resolve"};
inline constexpr DiagnosticKind kThreadsMatchedPerThread{
    "match.threads_matched_per_thread", Severity::kWarning,
    "several threads of a process send or receive: in one process causeway matches their "
    "messages as the process's (receives in the order they were posted, sends in the order they "
    "were issued), but an MPI job of the analysis matches them thread by thread, so messages "
    "between threads that share a communicator stay unmatched (collectives are matched as the "
    "process's where an analysis rank owns the process whole); analyse the trace in one process"};
inline constexpr DiagnosticKind kCancelledRequest{
    "match.cancelled_request", Severity::kInfo,
    "a send request was cancelled; it takes no part in matching"};
inline constexpr DiagnosticKind kIncompleteCollective{
    "match.incomplete_collective", Severity::kError,
    "a collective instance lacks some members of its communicator; no wait state is computed"};
inline constexpr DiagnosticKind kCollectiveAfterRankEnded{
    "match.collective_after_rank_ended", Severity::kWarning,
    "a collective instance lacks members whose ranks had stopped recording (an abort, a signal, "
    "the size limit of causeway trace --max-size: trace.rank_ended_early); the ranks that "
    "recorded it went on without them, and no wait state is computed for it"};
inline constexpr DiagnosticKind kCollectiveRootOutside{
    "match.collective_root_outside", Severity::kError,
    "a rooted collective names a root rank its communicator does not have; it was analysed "
    "without a root (no Late Broadcast or Early Reduce)"};
inline constexpr DiagnosticKind kCollectiveMismatch{
    "match.collective_mismatch", Severity::kError,
    "members of one collective instance recorded different operations or roots"};
inline constexpr DiagnosticKind kCollectiveUnknownComm{
    "match.collective_unknown_comm", Severity::kError,
    "a collective names a communicator that is undefined or does not contain its location"};
inline constexpr DiagnosticKind kCollectiveUnknownWindow{
    "match.collective_unknown_window", Severity::kError,
    "an RMA collective (fence, window creation or freeing) names a window that is undefined, or "
    "whose communicator is undefined or does not contain its location"};

inline constexpr DiagnosticKind kProbeInferred{
    "match.probe_inferred", Severity::kInfo,
    "the trace does not record which message a probe found (Score-P writes probes as Enter/Leave "
    "only): each blocking probe was linked to the next receive on its location"};
inline constexpr DiagnosticKind kProbeUnlinked{
    "match.probe_unlinked", Severity::kWarning,
    "a probe found a message that no later receive on its location took; the probe takes no part "
    "in the wait-state analysis"};
inline constexpr DiagnosticKind kNonBlockingProbeUnresolved{
    "match.nonblocking_probe_unresolved", Severity::kInfo,
    "the trace does not say whether an MPI_Iprobe/MPI_Improbe found a message; these probes are "
    "treated as plain MPI calls"};
SyncGraph MatchTrace(const trace::Trace& trace, unsigned threads);

// One rank's share of the synchronisation graph in an MPI analysis job, where `trace` holds the
// events of the locations `partition` gives this rank (job_read/owned_locations.h). Point-to-point:
// each rank ships its sends, with the facts their messages carry, to the rank of their destination,
// which matches them as one process would and returns the messages of remote senders. The
// rank's graph then lists the messages its locations received (by receiver and receive event,
// as MatchTrace does), followed by copies of those they sent to other ranks; by_location is
// filled for its own locations only, and message ids are this rank's. Stats and diagnostics
// count what the rank's locations sent and received: summed over the ranks, they are MatchTrace's.
// Probes link as in one process (a probe and the messages it can find are on one location).
// Collectives: each member call goes, with its facts, to the rank that owns the first location of
// its communicator, which builds the instances once each (counting and reporting them) and sends
// every instance, with all its members, to the ranks of its members. The rank's graph lists the
// instances its locations took part in, in one process's order.
SyncGraph MatchOwnedLocations(const trace::Trace& trace, const trace::Partition& partition,
                              comm::Communicator& comm, unsigned threads);

}  // namespace cw::match
