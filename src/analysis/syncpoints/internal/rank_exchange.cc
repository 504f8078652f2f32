#include "analysis/syncpoints/internal/rank_exchange.h"

#include <algorithm>
#include <utility>

#include "base/check.h"
#include "comm/wire.h"

namespace cw::analysis::internal {
namespace {

using trace::kNone;

constexpr auto kPatterns = static_cast<uint64_t>(kSyncPatternCount);

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
    // The waiter follows from the id (every rank knows where each location's ids start).
    comm::ByteWriter& w = out[rank];
    w.PutDelta(next, previous[rank]);
    previous[rank] = next;
    w.PutVarint(uint64_t{e.delayer} * kPatterns + static_cast<uint64_t>(e.pattern));
    w.PutVarint(e.delayer_event);
    w.PutVarint(static_cast<uint64_t>(e.wait));
  }
  sp.edges = {};
  const std::vector<comm::Bytes> in = comm.Exchange(comm::TakeAll(out));
  for (uint32_t from = 0; from < in.size(); ++from) {
    comm::ByteReader r(in[from]);
    uint64_t id = 0;
    while (!r.done()) {
      id = r.GetDelta(id);
      CW_CHECK(id < first[n]);
      WaitEdge e;
      // The location whose ids start at or before `id` last.
      e.waiter = static_cast<uint32_t>(std::upper_bound(first.begin(), first.end(), id) -
                                       first.begin() - 1);
      const uint64_t delayer_and_pattern = r.GetVarint();
      e.delayer = static_cast<uint32_t>(delayer_and_pattern / kPatterns);
      e.pattern = static_cast<SyncPattern>(delayer_and_pattern % kPatterns);
      CW_CHECK(e.waiter < n && e.delayer < n && share.Holds(e.delayer));
      // The waiter's rank resolves its own event; the delayer's event is resolved here, where
      // its events are. Edges come from the synchronisation graph, so the event exists.
      e.delayer_event =
          CallHolding(trace.location(e.delayer), static_cast<uint32_t>(r.GetVarint()));
      CW_CHECK(e.delayer_event != kNone);
      e.wait = static_cast<int64_t>(r.GetVarint());
      edges.push_back(Numbered{id, e, from});
    }
  }
  std::sort(edges.begin(), edges.end(),
            [](const Numbered& a, const Numbered& b) { return a.id < b.id; });
  sp.edges.resize(edges.size());
  sp.global_edge.resize(edges.size());
  sp.other_rank.resize(edges.size());
  for (size_t i = 0; i < edges.size(); ++i) {
    sp.edges[i] = edges[i].edge;
    sp.global_edge[i] = edges[i].id;
    sp.other_rank[i] = edges[i].other_rank;
  }
}

void FetchPartnerExits(SyncPoints& sp) {
  const RankShare& share = sp.share;
  comm::Communicator& comm = *share.comm;
  // What is asked of each rank: the crossing edges (by local number) and the group members (by
  // index) whose partner's exit a cut needs, each once. StartCut reads the partner's exit only
  // where the interval starts at an earlier call.
  std::vector<bool> edge_asked(sp.edges.size(), false);
  std::vector<bool> member_asked(sp.group_members.size(), false);
  std::vector<std::vector<uint32_t>> edges_asked(comm.size()), members_asked(comm.size());
  for (uint32_t loc : sp.held_participants) {
    const LocationSyncPoints& l = sp.locations[loc];
    for (const SyncRole& role : l.roles) {
      if (role.kind == RoleKind::kGroup || role.start == kNone) continue;
      const SyncRole& start = l.roles[role.start];
      if (start.activity >= role.activity) continue;
      if (start.kind != RoleKind::kGroup) {
        if (!sp.Crosses(start.id) || edge_asked[start.id]) continue;
        edge_asked[start.id] = true;
        edges_asked[sp.other_rank[start.id]].push_back(start.id);
        continue;
      }
      if (share.Holds(role.partner)) continue;
      const uint32_t member = sp.GroupMemberOf(start.id, role.partner);
      if (member == kNone || member_asked[member]) continue;
      member_asked[member] = true;
      members_asked[share.OwnerOf(role.partner)].push_back(member);
    }
  }
  // Edges are named by their global id, members by their group's origin and their location.
  std::vector<uint32_t> group_of(sp.group_members.size());
  for (uint32_t g = 0; g < sp.groups.size(); ++g) {
    for (uint32_t k = 0; k < sp.groups[g].member_count; ++k)
      group_of[sp.groups[g].first_member + k] = g;
  }
  std::vector<comm::ByteWriter> requests(comm.size());
  for (uint32_t rank = 0; rank < comm.size(); ++rank) {
    std::vector<uint32_t>& edges = edges_asked[rank];
    std::sort(edges.begin(), edges.end());  // ascending local numbers: ascending global ids
    comm::ByteWriter& w = requests[rank];
    w.PutVarint(edges.size());
    uint64_t previous = 0;
    for (uint32_t e : edges) {
      w.PutDelta(sp.global_edge[e], previous);
      previous = sp.global_edge[e];
    }
    previous = 0;  // origins mostly ascend: differences are short
    for (uint32_t member : members_asked[rank]) {
      w.PutDelta(sp.groups[group_of[member]].origin, previous);
      previous = sp.groups[group_of[member]].origin;
      w.PutVarint(sp.group_members[member].location);
    }
  }
  std::vector<std::pair<uint64_t, uint32_t>> by_origin;  // (origin, group), sorted
  by_origin.reserve(sp.groups.size());
  for (uint32_t g = 0; g < sp.groups.size(); ++g) by_origin.emplace_back(sp.groups[g].origin, g);
  std::sort(by_origin.begin(), by_origin.end());
  const std::vector<comm::Bytes> asked_here = comm.Exchange(comm::TakeAll(requests));
  // Answers: the exits in the order asked, as differences.
  std::vector<comm::ByteWriter> answers(comm.size());
  for (uint32_t from = 0; from < asked_here.size(); ++from) {
    comm::ByteReader r(asked_here[from]);
    comm::ByteWriter& w = answers[from];
    int64_t previous = 0;
    auto answer = [&](int64_t exit) {
      w.PutDelta(static_cast<uint64_t>(exit), static_cast<uint64_t>(previous));
      previous = exit;
    };
    if (r.done()) continue;  // an empty request from this rank itself
    const uint64_t edge_count = r.GetVarint();
    uint64_t id = 0;
    for (uint64_t i = 0; i < edge_count; ++i) {
      id = r.GetDelta(id);
      const uint32_t e = sp.LocalEdge(id);
      CW_CHECK(sp.Crosses(e) && sp.other_rank[e] == from);
      answer(share.Holds(sp.edges[e].waiter) ? sp.ends[e].waiter_exit : sp.ends[e].delayer_exit);
    }
    uint64_t origin = 0;
    while (!r.done()) {
      origin = r.GetDelta(origin);
      const auto location = static_cast<uint32_t>(r.GetVarint());
      auto it = std::lower_bound(by_origin.begin(), by_origin.end(),
                                 std::pair<uint64_t, uint32_t>{origin, 0});
      CW_CHECK(it != by_origin.end() && it->first == origin && share.Holds(location));
      const uint32_t member = sp.GroupMemberOf(it->second, location);
      CW_CHECK(member != kNone);
      answer(sp.group_member_exit[member]);
    }
  }
  const std::vector<comm::Bytes> answered = comm.Exchange(comm::TakeAll(answers));
  for (uint32_t rank = 0; rank < answered.size(); ++rank) {
    comm::ByteReader r(answered[rank]);
    int64_t exit = 0;
    auto next = [&] {
      return exit = static_cast<int64_t>(r.GetDelta(static_cast<uint64_t>(exit)));
    };
    for (uint32_t e : edges_asked[rank]) {
      if (share.Holds(sp.edges[e].waiter)) {
        sp.ends[e].delayer_exit = next();
      } else {
        sp.ends[e].waiter_exit = next();
      }
    }
    for (uint32_t member : members_asked[rank]) sp.group_member_exit[member] = next();
    CW_CHECK(r.done());
  }
}

}  // namespace cw::analysis::internal
