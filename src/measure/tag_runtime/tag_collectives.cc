// The hooks of collectives and communicators: Sikora et al. 2016 §4.5's links between the members
// of a collective, and the shadow communicators the piggybacks travel on.
#include <algorithm>
#include <vector>

#include "measure/core/timer.h"
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

// After the collective, its members exchange their piggybacks on the shadow (Sikora et al. 2016
// §4.5): a one-to-all operation's root sends its own to every member, which links to the root;
// every member of an all-to-one operation sends its own to the root, and every member of a rootless
// one (barriers, all-to-all, scans) to rank 0 of the communicator, which lists them. The
// exchange is non-blocking, so that the program's collective is not followed by a second
// synchronisation: its links are written when it completes (CompleteLinks, at the next
// collective and at the end).
void CollEnd(OTF2_CollectiveOp op, MPI_Comm comm, uint32_t root, uint64_t sent, uint64_t received) {
  State& s = S();
  const bool on_graph = OnGraphThread() && s.call.open;
  const int rank = CommRank(comm);
  PendingLinks& p = s.links.emplace_back();
  p.comm = comm;
  p.mine.node = on_graph ? s.call.node : kNone;
  p.mine.entry = OnRankZeroClock(on_graph ? s.call.entry : TimerNow());
  p.mine.bytes = sent;
  p.node = p.mine.node;
  p.entry = s.call.entry;
  p.start = s.call.start;
  p.exit = s.call.exit;
  p.received = received;
  bool started = false;
  if (OneToAll(op) && root != kNoRoot) {
    p.link = true;
    p.root = static_cast<int>(root);
    p.write = on_graph && rank != p.root;
    started = s.piggybacks.IBroadcast(&p.mine, p.root, comm, &p.request);
  } else {
    p.root = AllToOne(op) && root != kNoRoot ? static_cast<int>(root) : 0;
    p.write = on_graph && rank == p.root;
    if (rank == p.root) p.all.resize(static_cast<size_t>(std::max(0, s.piggybacks.Size(comm))));
    started = s.piggybacks.IGather(&p.mine, p.root, comm, p.all.data(), &p.request);
  }
  if (!started) s.links.pop_back();
  CompleteLinks(false);
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
  if (*comm == MPI_COMM_NULL) return;
  CompleteLinks(true, *comm);  // their exchanges run on the shadow that goes now
  S().piggybacks.RemoveShadow(*comm);
}

}  // namespace cw::measure::tag_hook

namespace cw::measure::tag_runtime {

void CompleteLinks(bool wait, MPI_Comm comm) {
  State& s = S();
  for (auto it = s.links.begin(); it != s.links.end();) {
    PendingLinks& p = *it;
    if (comm != MPI_COMM_NULL && p.comm != comm) {
      ++it;
      continue;
    }
    int done = 0;
    if (wait) {
      PMPI_Wait(&p.request, MPI_STATUS_IGNORE);
      done = 1;
    } else {
      PMPI_Test(&p.request, &done, MPI_STATUS_IGNORE);
    }
    if (!done) {
      // Exchanges complete in the order they began; testing the later ones now is wasted.
      if (comm == MPI_COMM_NULL) break;
      ++it;
      continue;
    }
    // Only the thread that writes the graph writes; another thread's exchange just completes.
    if (p.write && OnGraphThread()) {
      tag_segment::SegmentWriter& w = *s.writer;
      const double duration = p.exit >= p.start ? static_cast<double>(p.exit - p.start) : 0;
      const int64_t my_entry = OnRankZeroClock(p.entry);
      w.Begin();
      if (p.link) {
        const int peer = s.piggybacks.WorldRank(p.comm, p.root);
        if (peer >= 0) {
          w.MessageIn(p.node, static_cast<uint32_t>(peer), p.mine.node, tag_segment::Via::kRootLink,
                      p.received, duration, static_cast<double>(p.mine.entry - my_entry));
        }
      } else {
        for (size_t m = 0; m < p.all.size(); ++m) {
          const int peer = s.piggybacks.WorldRank(p.comm, static_cast<int>(m));
          if (static_cast<int>(m) == p.root || peer < 0) continue;
          w.MessageIn(p.node, static_cast<uint32_t>(peer), p.all[m].node,
                      tag_segment::Via::kRootList, p.all[m].bytes, duration,
                      static_cast<double>(p.all[m].entry - my_entry));
        }
      }
      w.Commit();
    }
    it = s.links.erase(it);
  }
}

}  // namespace cw::measure::tag_runtime
