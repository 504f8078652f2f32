// The building blocks of collective matching (private to match/), shared by matching in one
// process and as one rank of an MPI analysis job (collective_matcher.h): each location's
// collective calls by communicator and window, the calls of a process's threads folded into
// their process's lists, and the instances that the k-th calls of a communicator's members make.
#pragma once

#include <cstdint>
#include <map>
#include <vector>

#include "match/sync_graph.h"
#include "trace/trace.h"

namespace cw::match::internal {

struct CollectiveCall {
  uint32_t begin;
  uint32_t end;
  // The location that made the call, where it is not the one whose list holds it (a thread's
  // call folded into its process's list: FoldThreadCalls).
  uint32_t location = kNone;
};

// Per location: its collective calls grouped by communicator (or, for RMA collectives, by
// window), each list in event order; its non-blocking collectives (IsMatchedNonBlocking) by
// communicator, each list in the order they started (`begin`: the request record; `end`: the
// completion record, in a later call).
using CallsByComm = std::map<uint32_t, std::vector<CollectiveCall>>;
struct LocationCalls {
  CallsByComm by_comm;
  CallsByComm by_window;
  CallsByComm by_nbc;
};

// The lists of one kind of instance: phase 0 the communicators', 1 the windows', 2 the
// non-blocking collectives' (by communicator).
inline constexpr uint32_t kPhaseCount = 3;
inline CallsByComm& CallsOfPhase(LocationCalls& calls, uint32_t phase) {
  return phase == 0 ? calls.by_comm : phase == 1 ? calls.by_window : calls.by_nbc;
}
inline const CallsByComm& CallsOfPhase(const LocationCalls& calls, uint32_t phase) {
  return phase == 0 ? calls.by_comm : phase == 1 ? calls.by_window : calls.by_nbc;
}

// The non-blocking collectives matched into instances (CollectiveInstance::non_blocking): those
// of every collective operation on a communicator.
bool IsMatchedNonBlocking(trace::CollectiveOp op);

// A member's call as instance building needs it: the member with its facts, and what it says
// about the instance.
struct MemberCall {
  CollectiveMember member;
  trace::CollectiveOp op = trace::CollectiveOp::kBarrier;
  uint32_t root_rank = kNone;
  bool non_blocking = false;
};

LocationCalls ScanCollectiveCalls(const trace::LocationEvents& ev);

// The rank of `loc` in communicator `c` (0 in a self-like one), or kNone if collectives on `c`
// cannot be matched on `loc`: the communicator is undefined, unresolved, or lacks `loc`.
uint32_t RankIn(const std::vector<trace::Comm>& comms, uint32_t c, uint32_t loc);

// The rank of `loc` in the communicator of window `w`, or kNone if the window's collectives
// cannot be matched on `loc`.
uint32_t RankInWindow(const trace::Definitions& defs, uint32_t w, uint32_t loc);

// Moves the collective calls that threads made on communicators (and windows) naming only
// another location of their process into that location's lists, in the order the calls began:
// the process takes part in the collective through whichever of its threads calls it. Only
// calls whose process member is among `locations` move (an MPI job's analysis rank folds the
// processes it owns whole).
void FoldThreadCalls(const trace::Trace& trace, const std::vector<uint32_t>& locations,
                     std::vector<LocationCalls>& calls);

MemberCall ReadMember(const trace::Trace& trace, uint32_t loc, const CollectiveCall& call,
                      uint32_t rank);

// Appends instance `k` of communicator `comm_id` (or of window `window` over it), whose members'
// calls are `round` in rank order; `rank_locations[r]` is the location of rank r.
void AddInstance(const trace::Trace& trace, uint32_t comm_id, uint32_t window,
                 const std::vector<uint32_t>& rank_locations,
                 const std::vector<const MemberCall*>& round, SyncGraph& graph);

// Instances of one communicator (or of window `window` over it): instance k is the k-th call of
// every member; `lists[r]` holds rank r's calls (nullptr if it made none).
void BuildCommInstances(const trace::Trace& trace, uint32_t comm_id, uint32_t window,
                        const std::vector<uint32_t>& rank_locations,
                        const std::vector<const std::vector<MemberCall>*>& lists, SyncGraph& graph);

// The calls of each rank of a communicator (or window) from one process's scans: those of
// `phase` (CallsOfPhase), whose lists hold `window` in phase 1 and `comm_id` otherwise.
void BuildFromScans(const trace::Trace& trace, uint32_t phase, uint32_t comm_id, uint32_t window,
                    const std::vector<uint32_t>& rank_locations,
                    const std::vector<LocationCalls>& calls, SyncGraph& graph);

}  // namespace cw::match::internal
