// The hooks of collectives and communicators: seed 003 §4.5's links between the members of a
// collective, and the shadow communicators the piggybacks travel on.
#include <vector>

#include "measure/runtime/timer.h"
#include "measure/tag_runtime/tag_hooks.h"
#include "measure/tag_runtime/tag_state.h"

namespace cw::measure::tag_hook {

using namespace cw::measure::tag_runtime;
using tag_segment::Via;

namespace {

bool OneToAll(OTF2_CollectiveOp op) {
  return op == OTF2_COLLECTIVE_OP_BCAST || op == OTF2_COLLECTIVE_OP_SCATTER ||
         op == OTF2_COLLECTIVE_OP_SCATTERV;
}

bool AllToOne(OTF2_CollectiveOp op) {
  return op == OTF2_COLLECTIVE_OP_GATHER || op == OTF2_COLLECTIVE_OP_GATHERV ||
         op == OTF2_COLLECTIVE_OP_REDUCE;
}

}  // namespace

void CollBegin() {}

// After the collective, its members exchange their piggybacks on the shadow (seed 003 §4.5): a
// one-to-all operation's root sends its own to every member, which links to the root; every
// member of an all-to-one operation sends its own to the root, and every member of a rootless
// one (barriers, all-to-all, scans) to rank 0 of the communicator, which lists them. The
// exchange is the tool's time: neither the collective's nor the computation's after it.
void CollEnd(OTF2_CollectiveOp op, MPI_Comm comm, uint32_t root, uint64_t sent,
             uint64_t received) {
  State& s = S();
  const bool on_graph = OnGraphThread() && s.call.open;
  Piggyback mine;
  mine.node = on_graph ? s.call.node : kNone;
  mine.entry = OnRankZeroClock(on_graph ? s.call.entry : TimerNow());
  mine.bytes = sent;
  const int rank = CommRank(comm);
  if (OneToAll(op) && root != kNoRoot) {
    Piggyback from_root = mine;
    const int r = static_cast<int>(root);
    if (!s.piggybacks.Broadcast(&from_root, r, comm) || rank == r || !on_graph) return;
    const int peer = s.piggybacks.WorldRank(comm, r);
    if (peer < 0) return;
    s.call.in.push_back(PendingIn{s.call.node, static_cast<uint32_t>(peer), from_root.node,
                                  Via::kRootLink, received, from_root.entry});
    return;
  }
  const int gatherer = AllToOne(op) && root != kNoRoot ? static_cast<int>(root) : 0;
  std::vector<Piggyback> members;
  if (!s.piggybacks.Gather(mine, gatherer, comm, &members) || rank != gatherer || !on_graph) {
    return;
  }
  for (size_t m = 0; m < members.size(); ++m) {
    if (static_cast<int>(m) == gatherer) continue;
    const int peer = s.piggybacks.WorldRank(comm, static_cast<int>(m));
    if (peer < 0) continue;
    s.call.in.push_back(PendingIn{s.call.node, static_cast<uint32_t>(peer), members[m].node,
                                  Via::kRootList, members[m].bytes, members[m].entry});
  }
}

// Non-blocking collectives: their calls and completion edges are in the graph; no piggyback
// travels with them (their members complete them in calls of their own choosing, where a
// collective exchange could not be placed).
void CollStarted(OTF2_CollectiveOp, MPI_Comm comm, uint32_t, uint64_t, uint64_t,
                 const MPI_Request* request) {
  State& s = S();
  Request r;
  r.kind = RequestKind::kCollective;
  r.comm = comm;
  r.node = OnGraphThread() && s.call.open ? s.call.node : kNone;
  r.started = s.call.exit;
  r.order = s.next_order++;
  s.requests.Add(*request, r);
}

void UntracedRequest(const MPI_Request* request) {
  Request r;
  r.kind = RequestKind::kUntraced;
  S().requests.Add(*request, r);
}

void CommCreated(MPI_Comm, const MPI_Comm* created) {
  if (*created != MPI_COMM_NULL) S().piggybacks.AddShadow(*created);
}

void CommFreed(const MPI_Comm* comm) {
  if (*comm != MPI_COMM_NULL) S().piggybacks.RemoveShadow(*comm);
}

}  // namespace cw::measure::tag_hook
