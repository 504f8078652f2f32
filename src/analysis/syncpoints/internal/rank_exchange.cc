#include "analysis/syncpoints/internal/rank_exchange.h"

#include <algorithm>
#include <utility>

#include "base/check.h"
#include "comm/wire.h"

namespace cw::analysis::internal {
namespace {

using trace::kNone;

// The local number of the edge with global id `id`: sp.global_edge is ascending.
uint32_t LocalEdge(const SyncPoints& sp, uint64_t id) {
  auto it = std::lower_bound(sp.global_edge.begin(), sp.global_edge.end(), id);
  CW_CHECK(it != sp.global_edge.end() && *it == id);
  return static_cast<uint32_t>(it - sp.global_edge.begin());
}

}  // namespace

void SharePresence(const RankShare& share, std::vector<Presence>& presence) {
  comm::ByteWriter out;
  for (uint32_t loc : share.partition->owned[share.comm->rank()]) {
    if (!presence[loc].present) continue;
    out.PutVarint(loc);
    out.Put(presence[loc].arrive);
    out.Put(presence[loc].leave);
  }
  for (const comm::Bytes& bytes : share.comm->AllGather(out.Take())) {
    comm::ByteReader in(bytes);
    while (!in.done()) {
      const auto loc = static_cast<uint32_t>(in.GetVarint());
      CW_CHECK(loc < presence.size());
      presence[loc].present = true;
      presence[loc].arrive = in.Get<int64_t>();
      presence[loc].leave = in.Get<int64_t>();
    }
  }
}

void JoinDelayerEdges(const trace::Trace& trace, SyncPoints& sp) {
  const RankShare& share = sp.share;
  comm::Communicator& comm = *share.comm;
  const uint32_t n = trace.location_count();
  // Global numbering: the edges of every location, in location order (as one process lists
  // them), so each rank needs every location's count.
  std::vector<uint64_t> first(n + 1, 0);
  {
    std::vector<uint64_t> count(n, 0);
    for (const WaitEdge& e : sp.edges) ++count[e.waiter];
    comm::ByteWriter out;
    for (uint32_t loc : share.partition->owned[comm.rank()]) {
      if (count[loc] == 0) continue;
      out.PutVarint(loc);
      out.PutVarint(count[loc]);
    }
    for (const comm::Bytes& bytes : comm.AllGather(out.Take())) {
      comm::ByteReader in(bytes);
      while (!in.done()) {
        const auto loc = static_cast<uint32_t>(in.GetVarint());
        CW_CHECK(loc < n);
        count[loc] = in.GetVarint();
      }
    }
    for (uint32_t loc = 0; loc < n; ++loc) first[loc + 1] = first[loc] + count[loc];
  }

  struct Numbered {
    uint64_t id;
    WaitEdge edge;
    uint32_t other_rank;
  };
  std::vector<Numbered> edges;
  edges.reserve(sp.edges.size());
  std::vector<comm::ByteWriter> out(comm.size());
  std::vector<uint64_t> previous(comm.size(), 0);
  uint64_t next = 0;
  for (size_t i = 0; i < sp.edges.size(); ++i) {
    const WaitEdge& e = sp.edges[i];
    next = (i > 0 && e.waiter == sp.edges[i - 1].waiter) ? next + 1 : first[e.waiter];
    const uint32_t rank = share.OwnerOf(e.delayer);
    const bool crosses = rank != comm.rank();
    edges.push_back(Numbered{next, e, crosses ? rank : kNone});
    if (!crosses) continue;
    comm::ByteWriter& w = out[rank];
    w.PutDelta(next, previous[rank]);
    previous[rank] = next;
    w.PutVarint(e.waiter);
    w.PutVarint(e.delayer);
    w.PutVarint(e.delayer_event);
    w.PutVarint(static_cast<uint64_t>(e.wait));
    w.Put(static_cast<uint8_t>(e.pattern));
  }
  sp.edges = {};
  const std::vector<comm::Bytes> in = comm.Exchange(comm::TakeAll(out));
  for (uint32_t from = 0; from < in.size(); ++from) {
    comm::ByteReader r(in[from]);
    uint64_t id = 0;
    while (!r.done()) {
      id = r.GetDelta(id);
      WaitEdge e;
      e.waiter = static_cast<uint32_t>(r.GetVarint());
      e.delayer = static_cast<uint32_t>(r.GetVarint());
      CW_CHECK(e.waiter < n && e.delayer < n && share.Holds(e.delayer));
      // The waiter's rank resolves its own event; the delayer's event is resolved here, where
      // its events are. Edges come from the synchronisation graph, so the event exists.
      e.delayer_event =
          CallHolding(trace.location(e.delayer), static_cast<uint32_t>(r.GetVarint()));
      CW_CHECK(e.delayer_event != kNone);
      e.wait = static_cast<int64_t>(r.GetVarint());
      e.pattern = static_cast<SyncPattern>(r.Get<uint8_t>());
      edges.push_back(Numbered{id, e, from});
    }
  }
  std::sort(edges.begin(), edges.end(),
            [](const Numbered& a, const Numbered& b) { return a.id < b.id; });
  sp.edges.resize(edges.size());
  sp.global_edge.resize(edges.size());
  sp.remote.assign(edges.size(), RemoteEnd{});
  for (size_t i = 0; i < edges.size(); ++i) {
    sp.edges[i] = edges[i].edge;
    sp.global_edge[i] = edges[i].id;
    sp.remote[i].rank = edges[i].other_rank;
  }
}

void ExchangeEdgeExits(SyncPoints& sp) {
  comm::Communicator& comm = *sp.share.comm;
  std::vector<comm::ByteWriter> out(comm.size());
  std::vector<uint64_t> previous(comm.size(), 0);
  std::vector<int64_t> previous_exit(comm.size(), 0);
  for (uint32_t e = 0; e < sp.edges.size(); ++e) {
    if (!sp.Crosses(e)) continue;
    const uint32_t rank = sp.remote[e].rank;
    const bool waiter_here = sp.share.Holds(sp.edges[e].waiter);
    const int64_t exit = waiter_here ? sp.ends[e].waiter_exit : sp.ends[e].delayer_exit;
    comm::ByteWriter& w = out[rank];
    w.PutDelta(sp.global_edge[e], previous[rank]);
    previous[rank] = sp.global_edge[e];
    w.PutVarint(e);
    w.PutDelta(static_cast<uint64_t>(exit), static_cast<uint64_t>(previous_exit[rank]));
    previous_exit[rank] = exit;
  }
  const std::vector<comm::Bytes> in = comm.Exchange(comm::TakeAll(out));
  for (uint32_t from = 0; from < in.size(); ++from) {
    comm::ByteReader r(in[from]);
    uint64_t id = 0;
    int64_t exit = 0;
    while (!r.done()) {
      id = r.GetDelta(id);
      const uint32_t e = LocalEdge(sp, id);
      CW_CHECK(sp.remote[e].rank == from);
      sp.remote[e].edge = static_cast<uint32_t>(r.GetVarint());
      exit = static_cast<int64_t>(r.GetDelta(static_cast<uint64_t>(exit)));
      if (sp.share.Holds(sp.edges[e].waiter)) {
        sp.ends[e].delayer_exit = exit;
      } else {
        sp.ends[e].waiter_exit = exit;
      }
    }
  }
}

void FetchGroupExits(SyncPoints& sp) {
  const RankShare& share = sp.share;
  comm::Communicator& comm = *share.comm;
  // The members whose exits are needed: each asked for once, from the rank that holds it.
  std::vector<bool> asked(sp.group_members.size(), false);
  std::vector<std::vector<uint32_t>> asking(comm.size());  // per rank: member indices
  for (uint32_t loc : sp.held_participants) {
    const LocationSyncPoints& l = sp.locations[loc];
    for (const SyncRole& role : l.roles) {
      if (role.kind == RoleKind::kGroup || role.start == kNone) continue;
      const SyncRole& start = l.roles[role.start];
      if (start.kind != RoleKind::kGroup || share.Holds(role.partner)) continue;
      const uint32_t member = sp.GroupMemberOf(start.id, role.partner);
      if (member == kNone || asked[member]) continue;
      asked[member] = true;
      asking[share.OwnerOf(role.partner)].push_back(member);
    }
  }
  // Members are named by their group's origin and their location.
  std::vector<uint32_t> group_of(sp.group_members.size());
  for (uint32_t g = 0; g < sp.groups.size(); ++g) {
    for (uint32_t k = 0; k < sp.groups[g].member_count; ++k)
      group_of[sp.groups[g].first_member + k] = g;
  }
  std::vector<comm::ByteWriter> requests(comm.size());
  for (uint32_t rank = 0; rank < comm.size(); ++rank) {
    uint64_t previous = 0;  // origins mostly ascend: differences are short
    for (uint32_t member : asking[rank]) {
      requests[rank].PutDelta(sp.groups[group_of[member]].origin, previous);
      previous = sp.groups[group_of[member]].origin;
      requests[rank].PutVarint(sp.group_members[member].location);
    }
  }
  std::vector<std::pair<uint64_t, uint32_t>> by_origin;  // (origin, group), sorted
  by_origin.reserve(sp.groups.size());
  for (uint32_t g = 0; g < sp.groups.size(); ++g) by_origin.emplace_back(sp.groups[g].origin, g);
  std::sort(by_origin.begin(), by_origin.end());
  const std::vector<comm::Bytes> asked_here = comm.Exchange(comm::TakeAll(requests));
  std::vector<comm::ByteWriter> answers(comm.size());
  for (uint32_t from = 0; from < asked_here.size(); ++from) {
    comm::ByteReader r(asked_here[from]);
    int64_t previous = 0;
    uint64_t origin = 0;
    while (!r.done()) {
      origin = r.GetDelta(origin);
      const auto location = static_cast<uint32_t>(r.GetVarint());
      auto it = std::lower_bound(by_origin.begin(), by_origin.end(),
                                 std::pair<uint64_t, uint32_t>{origin, 0});
      CW_CHECK(it != by_origin.end() && it->first == origin && share.Holds(location));
      const uint32_t member = sp.GroupMemberOf(it->second, location);
      CW_CHECK(member != kNone);
      const int64_t exit = sp.group_member_exit[member];
      answers[from].PutDelta(static_cast<uint64_t>(exit), static_cast<uint64_t>(previous));
      previous = exit;
    }
  }
  const std::vector<comm::Bytes> answered = comm.Exchange(comm::TakeAll(answers));
  for (uint32_t rank = 0; rank < answered.size(); ++rank) {
    comm::ByteReader r(answered[rank]);
    int64_t exit = 0;
    for (uint32_t member : asking[rank]) {
      exit = static_cast<int64_t>(r.GetDelta(static_cast<uint64_t>(exit)));
      sp.group_member_exit[member] = exit;
    }
    CW_CHECK(r.done());
  }
}

}  // namespace cw::analysis::internal
