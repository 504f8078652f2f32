// The exchanges between the ranks of an MPI analysis job while they build their synchronisation
// points (private to analysis/syncpoints/). Each is one bulk round (Communicator::Exchange or
// AllGather) that every rank calls in the same order.
#pragma once

#include <cstdint>
#include <vector>

#include "analysis/syncpoints/sync_points.h"
#include "trace/trace.h"

namespace cw::analysis::internal {

// Named apart from analysis/waitstates' internal::CallOf (same namespace, other result): inline
// functions of one name and parameters in two components would be one symbol to the linker.

// The Exit time of the call whose Enter is `call` (an event outside every region: its time).
inline int64_t ExitOfCall(const trace::LocationEvents& ev, uint32_t call) {
  uint32_t leave = ev.kind(call) == trace::EventKind::kEnter ? ev.pair(call) : trace::kNone;
  return static_cast<int64_t>(ev.time(leave == trace::kNone ? call : leave));
}

// The call that holds `event` (its Enter), or the event itself outside every region.
inline uint32_t CallHolding(const trace::LocationEvents& ev, uint32_t event) {
  if (event == trace::kNone || event >= ev.size()) return trace::kNone;
  if (ev.kind(event) == trace::EventKind::kEnter) return event;
  uint32_t enter = ev.pair(event);
  return enter == trace::kNone ? event : enter;
}

// When a participant arrived in the parallel program and when it left (its MPI_Init and
// MPI_Finalize, else its first and last event); absent for locations without events.
struct Presence {
  bool present = false;
  int64_t arrive = 0;
  int64_t leave = 0;
};

// Every rank learns every participant's presence from the rank that holds it.
void SharePresence(const RankShare& share, std::vector<Presence>& presence);

// `sp.edges` holds the followed edges of the rank's own waiters, in location order. Numbers them
// as one process numbers the edges of the whole trace (every rank learns how many each location
// has), sends those whose delayer another rank holds to that rank, and adds those sent here:
// `sp.edges` then holds every edge with an end on this rank, in global order, with
// `sp.global_edge` and the rank of the other end in `sp.other_rank`.
void JoinDelayerEdges(const trace::Trace& trace, SyncPoints& sp);

// Once the interval starts are found: fetches, from the ranks that hold them, the partners' exits
// of the edges and groups that start an interval here (each rank knows only its own ends' and
// members' exits). Most synchronisations start no interval on the other side of a cut (a later
// one of the same pair does), so asking costs far less than telling every exit.
void FetchPartnerExits(SyncPoints& sp);

}  // namespace cw::analysis::internal
