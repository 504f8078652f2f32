#include "match/internal/collective_matcher.h"

#include <algorithm>
#include <map>
#include <string>
#include <tuple>

#include "base/parallel.h"
#include "comm/wire.h"
#include "match/internal/collective_calls.h"
#include "match/matcher.h"

namespace cw::match::internal {

namespace {

// The instances of the calls of `phase` on communicators (0: blocking, 2: non-blocking
// collectives), communicator by communicator in ascending id order, so that instance ids are
// deterministic.
void BuildOnCommunicators(const trace::Trace& trace, uint32_t phase,
                          const std::vector<LocationCalls>& calls, SyncGraph& graph) {
  const std::vector<trace::Comm>& comms = trace.defs.comms;
  std::map<uint32_t, std::vector<uint32_t>> self_users;  // self-like comm -> locations using it
  std::vector<bool> used(comms.size(), false);
  for (uint32_t loc = 0; loc < calls.size(); ++loc) {
    for (const auto& [comm, list] : CallsOfPhase(calls[loc], phase)) {
      const uint32_t rank = RankIn(comms, comm, loc);
      if (rank == kNone) {
        graph.diagnostics.Report(kCollectiveUnknownComm, trace::EventPlace(loc, list.front().end),
                                 list.size());
      } else if (comms[comm].is_self) {
        self_users[comm].push_back(loc);
      } else {
        used[comm] = true;
      }
    }
  }
  for (uint32_t comm = 0; comm < comms.size(); ++comm) {
    if (used[comm]) {
      BuildFromScans(trace, phase, comm, kNone, comms[comm].rank_to_location, calls, graph);
    }
    auto self = self_users.find(comm);
    if (self == self_users.end()) continue;
    // A self-like communicator is a separate one-member communicator on every location.
    for (uint32_t loc : self->second)
      BuildFromScans(trace, phase, comm, kNone, {loc}, calls, graph);
  }
}

}  // namespace

void MatchCollectives(const trace::Trace& trace, unsigned threads, SyncGraph& graph) {
  const uint32_t n = trace.location_count();
  std::vector<LocationCalls> calls(n);
  ParallelFor(n, threads, [&](size_t loc) {
    calls[loc] = ScanCollectiveCalls(trace.location(static_cast<uint32_t>(loc)));
  });
  std::vector<uint32_t> all(n);
  for (uint32_t loc = 0; loc < n; ++loc) all[loc] = loc;
  FoldThreadCalls(trace, all, calls);

  // In the order of the phases, as an MPI analysis job lists them (GroupKey).
  BuildOnCommunicators(trace, 0, calls, graph);
  const std::vector<trace::Comm>& comms = trace.defs.comms;
  // RMA collectives, window by window, over the ranks of the window's communicator.
  const std::vector<trace::RmaWindow>& windows = trace.defs.windows;
  std::vector<bool> window_used(windows.size(), false);
  for (uint32_t loc = 0; loc < n; ++loc) {
    for (const auto& [window, list] : calls[loc].by_window) {
      if (RankInWindow(trace.defs, window, loc) == kNone) {
        graph.diagnostics.Report(kCollectiveUnknownWindow, trace::EventPlace(loc, list.front().end),
                                 list.size());
        continue;
      }
      window_used[window] = true;
    }
  }
  for (uint32_t window = 0; window < windows.size(); ++window) {
    if (!window_used[window]) continue;
    const uint32_t comm = windows[window].comm;
    BuildFromScans(trace, 1, comm, window, comms[comm].rank_to_location, calls, graph);
  }
  BuildOnCommunicators(trace, 2, calls, graph);
  graph.stats.collective_instances = graph.collectives.size();
  for (uint64_t c = 0; c < graph.collectives.size(); ++c) graph.collectives[c].origin = c;

  for (uint32_t m = 0; m < graph.members.size(); ++m) {
    graph.by_location[graph.members[m].location].collectives.push_back(m);
  }
  ParallelFor(n, threads, [&](size_t loc) {
    std::vector<uint32_t>& list = graph.by_location[loc].collectives;
    std::sort(list.begin(), list.end(), [&](uint32_t a, uint32_t b) {
      return graph.members[a].end_event < graph.members[b].end_event;
    });
  });
}

namespace {

// Which instances a member call belongs to: those of communicator `id` (phase 0; of
// `self_location` alone for a self-like communicator), of window `id` (phase 1) or the
// non-blocking collectives of communicator `id` (phase 2, as phase 0). Ordered as
// one process builds them, so that every rank lists instances in the same order.
struct GroupKey {
  uint32_t phase = 0;
  uint32_t id = 0;
  uint32_t self_location = kNone;
  bool operator<(const GroupKey& o) const {
    return std::tie(phase, id, self_location) < std::tie(o.phase, o.id, o.self_location);
  }
  bool operator==(const GroupKey&) const = default;
};

struct ShippedMember {
  GroupKey key;
  uint32_t round;  // k: the call is the member's k-th of the group
  uint32_t rank;   // in the communicator
  MemberCall call;
};

struct InstanceHeader {
  GroupKey key;
  uint32_t round;  // k: the instance's place among its group's
  CollectiveInstance instance;
};

// Member facts as differences to the previous member written to the same rank: a location's
// calls travel in order, so events and times differ little from one to the next, and its
// location, rank and message sizes mostly repeat (a flags byte says which do).
class MemberCodec {
 public:
  void Write(comm::ByteWriter& out, const CollectiveMember& m) {
    const bool same_place = m.location == last_.location && m.rank == last_.rank;
    const bool same_sizes =
        m.sent == last_.sent && m.received == last_.received && m.senders == last_.senders;
    const bool completed_later = m.completion_entered != m.entered;  // non-blocking
    out.Put(static_cast<uint8_t>((same_place ? kSamePlace : 0) | (same_sizes ? kSameSizes : 0) |
                                 (completed_later ? kCompletedLater : 0)));
    if (!same_place) {
      out.PutDelta(m.location, last_.location);
      out.PutDelta(m.rank, last_.rank);
    }
    out.PutDelta(m.begin_event, last_.begin_event);
    out.PutDelta(m.end_event, m.begin_event);
    out.PutDelta(m.entered, last_.entered);
    out.PutDelta(m.end_time, m.entered);
    if (completed_later) out.PutDelta(m.completion_entered, m.entered);
    if (!same_sizes) {
      out.PutVarint(m.sent);
      out.PutVarint(m.received);
      out.PutVarint(uint64_t{m.senders} + 1);  // kNone + 1 == 0
    }
    last_ = m;
  }
  CollectiveMember Read(comm::ByteReader& in) {
    const auto flags = in.Get<uint8_t>();
    CollectiveMember m = last_;
    if ((flags & kSamePlace) == 0) {
      m.location = in.GetDelta32(last_.location);
      m.rank = in.GetDelta32(last_.rank);
    }
    m.begin_event = in.GetDelta32(last_.begin_event);
    m.end_event = in.GetDelta32(m.begin_event);
    m.entered = in.GetDelta(last_.entered);
    m.end_time = in.GetDelta(m.entered);
    m.completion_entered = (flags & kCompletedLater) != 0 ? in.GetDelta(m.entered) : m.entered;
    if ((flags & kSameSizes) == 0) {
      m.sent = in.GetVarint();
      m.received = in.GetVarint();
      m.senders = static_cast<uint32_t>(in.GetVarint() - 1);
    }
    last_ = m;
    return m;
  }

 private:
  static constexpr uint8_t kSamePlace = 1, kSameSizes = 2, kCompletedLater = 4;
  CollectiveMember last_;
};

void PutGroupKey(comm::ByteWriter& out, const GroupKey& key) {
  out.PutVarint(key.phase);
  out.PutVarint(key.id);
  out.PutVarint(key.self_location + 1u);  // kNone (the common case) in one byte
}

GroupKey GetGroupKey(comm::ByteReader& in) {
  GroupKey key;
  key.phase = static_cast<uint32_t>(in.GetVarint());
  key.id = static_cast<uint32_t>(in.GetVarint());
  key.self_location = static_cast<uint32_t>(in.GetVarint()) - 1u;
  return key;
}

void PutKey(comm::ByteWriter& out, const GroupKey& key, uint32_t round) {
  PutGroupKey(out, key);
  out.PutVarint(round);
}

std::pair<GroupKey, uint32_t> GetKey(comm::ByteReader& in) {
  const GroupKey key = GetGroupKey(in);
  return {key, static_cast<uint32_t>(in.GetVarint())};
}

// A member call on its way to the rank that builds its instance. A location's calls travel one
// after another: the group mostly stays, the round grows by one (or skips the rounds other
// ranks build), and the operation repeats, so one varint holds the round's difference and two
// bits saying whether a new group or operation follows. The member's rank is its rank in the
// communicator (MemberCodec carries it).
class ShippedMemberCodec {
 public:
  void Write(comm::ByteWriter& out, const ShippedMember& m) {
    const bool new_key = m.key != last_key_;
    const bool new_call = m.call.op != last_op_ || m.call.root_rank != last_root_;
    out.PutVarint((comm::ZigZag(m.round, last_round_) << 2) | (new_key ? kNewKey : 0) |
                  (new_call ? kNewCall : 0));
    if (new_key) PutGroupKey(out, m.key);
    if (new_call) {
      out.PutVarint(static_cast<uint64_t>(m.call.op));
      out.PutVarint(m.call.root_rank + 1u);
    }
    members_.Write(out, m.call.member);
    last_key_ = m.key;
    last_round_ = m.round;
    last_op_ = m.call.op;
    last_root_ = m.call.root_rank;
  }
  ShippedMember Read(comm::ByteReader& in) {
    const uint64_t head = in.GetVarint();
    ShippedMember m;
    m.round = static_cast<uint32_t>(comm::UnZigZag(head >> 2, last_round_));
    m.key = (head & kNewKey) != 0 ? GetGroupKey(in) : last_key_;
    m.call.op = last_op_;
    m.call.root_rank = last_root_;
    if ((head & kNewCall) != 0) {
      m.call.op = static_cast<trace::CollectiveOp>(in.GetVarint());
      m.call.root_rank = static_cast<uint32_t>(in.GetVarint()) - 1u;
    }
    m.call.member = members_.Read(in);
    m.call.non_blocking = m.key.phase == 2;
    m.rank = m.call.member.rank;
    last_key_ = m.key;
    last_round_ = m.round;
    last_op_ = m.call.op;
    last_root_ = m.call.root_rank;
    return m;
  }

 private:
  static constexpr uint64_t kNewKey = 1, kNewCall = 2;
  GroupKey last_key_;
  uint32_t last_round_ = 0;
  trace::CollectiveOp last_op_ = trace::CollectiveOp::kBarrier;
  uint32_t last_root_ = kNone;
  MemberCodec members_;
};

// A built instance on its way to a rank that owns members of it, with those members.
class InstanceCodec {
 public:
  void Write(comm::ByteWriter& out, const InstanceHeader& h,
             const std::vector<const CollectiveMember*>& members) {
    PutKey(out, h.key, h.round);
    const CollectiveInstance& c = h.instance;
    out.PutVarint(c.comm + 1u);
    out.PutVarint(c.window + 1u);
    out.PutVarint(static_cast<uint64_t>(c.op));
    out.PutVarint(c.root + 1u);
    out.PutVarint(c.complete ? 1 : 0);
    out.Put(c.origin);
    out.PutVarint(members.size());
    for (const CollectiveMember* m : members) members_.Write(out, *m);
  }
  InstanceHeader Read(comm::ByteReader& in, std::vector<CollectiveMember>& members) {
    InstanceHeader h;
    std::tie(h.key, h.round) = GetKey(in);
    CollectiveInstance& c = h.instance;
    c.comm = static_cast<uint32_t>(in.GetVarint()) - 1u;
    c.window = static_cast<uint32_t>(in.GetVarint()) - 1u;
    c.op = static_cast<trace::CollectiveOp>(in.GetVarint());
    c.root = static_cast<uint32_t>(in.GetVarint()) - 1u;
    c.complete = in.GetVarint() != 0;
    c.origin = in.Get<uint64_t>();
    c.non_blocking = h.key.phase == 2;
    c.member_count = static_cast<uint32_t>(in.GetVarint());
    members.clear();
    for (uint32_t k = 0; k < c.member_count; ++k) members.push_back(members_.Read(in));
    return h;
  }

 private:
  MemberCodec members_;
};

// This rank's members of instance `round` of communicator group `key` (not a window's), in
// communicator rank order: the `round`-th call of each of its locations in the group, read again
// as they were read for shipping. `own_ranks`: the (rank, location) pairs of the rank's
// locations in the communicator, by rank.
std::vector<CollectiveMember> OwnMembers(
    const trace::Trace& trace, const std::vector<LocationCalls>& calls, const GroupKey& key,
    uint32_t round, const std::vector<std::pair<uint32_t, uint32_t>>& own_ranks) {
  std::vector<CollectiveMember> members;
  auto add = [&](uint32_t loc, uint32_t rank) {
    const CallsByComm& of_loc = CallsOfPhase(calls[loc], key.phase);
    auto list = of_loc.find(key.id);
    if (list == of_loc.end() || round >= list->second.size()) return;
    members.push_back(ReadMember(trace, loc, list->second[round], rank).member);
  };
  if (key.self_location != kNone) {
    add(key.self_location, 0);  // its instances come only to the rank that owns it
    return members;
  }
  for (const auto& [rank, loc] : own_ranks) add(loc, rank);
  return members;
}

uint32_t FirstLocation(const std::vector<uint32_t>& rank_locations) {
  for (uint32_t loc : rank_locations) {
    if (loc != kNone) return loc;
  }
  return kNone;
}

// Per communicator: the (rank, location) pairs of this rank's locations that called on it.
using OwnRanks = std::map<uint32_t, std::vector<std::pair<uint32_t, uint32_t>>>;
// The members of each instance a rank builds, by communicator rank.
using Rounds =
    std::map<std::pair<GroupKey, uint32_t>, std::vector<std::pair<uint32_t, MemberCall>>>;

// Each member call goes to the rank that builds its instance: instance k of a communicator is
// built by the owner of its rank k mod size, so that the instances of a large communicator
// spread over the analysis ranks instead of all landing on one. Returns the members this rank
// builds with; fills `own_ranks`.
Rounds ShipMembers(const trace::Trace& trace, const trace::Partition& partition,
                   comm::Communicator& comm, const std::vector<LocationCalls>& calls,
                   OwnRanks& own_ranks, SyncGraph& graph) {
  const std::vector<trace::Comm>& comms = trace.defs.comms;
  const std::vector<trace::RmaWindow>& windows = trace.defs.windows;
  std::vector<comm::ByteWriter> to_builders(comm.size());
  std::vector<ShippedMemberCodec> builder_codecs(comm.size());
  auto ship = [&](const GroupKey& key, const std::vector<uint32_t>& rank_locations, uint32_t loc,
                  uint32_t rank, const std::vector<CollectiveCall>& list) {
    for (uint32_t k = 0; k < list.size(); ++k) {
      uint32_t builder = rank_locations[k % rank_locations.size()];
      if (builder == kNone) builder = FirstLocation(rank_locations);
      const uint32_t to = partition.owner[builder];
      builder_codecs[to].Write(to_builders[to],
                               ShippedMember{key, k, rank, ReadMember(trace, loc, list[k], rank)});
    }
  };
  for (uint32_t loc : partition.owned[comm.rank()]) {
    for (uint32_t phase : {0u, 2u}) {
      for (const auto& [c, list] : CallsOfPhase(calls[loc], phase)) {
        const uint32_t rank = RankIn(comms, c, loc);
        if (rank == kNone) {
          graph.diagnostics.Report(kCollectiveUnknownComm, trace::EventPlace(loc, list.front().end),
                                   list.size());
        } else if (comms[c].is_self) {
          ship(GroupKey{phase, c, loc}, {loc}, loc, 0, list);
        } else {
          ship(GroupKey{phase, c, kNone}, comms[c].rank_to_location, loc, rank, list);
          own_ranks[c].emplace_back(rank, loc);
        }
      }
    }
    for (const auto& [w, list] : calls[loc].by_window) {
      const uint32_t rank = RankInWindow(trace.defs, w, loc);
      if (rank == kNone) {
        graph.diagnostics.Report(kCollectiveUnknownWindow, trace::EventPlace(loc, list.front().end),
                                 list.size());
        continue;
      }
      ship(GroupKey{1, w, kNone}, comms[windows[w].comm].rank_to_location, loc, rank, list);
    }
  }
  for (auto& [c, pairs] : own_ranks) {
    std::sort(pairs.begin(), pairs.end());
    pairs.erase(std::unique(pairs.begin(), pairs.end()), pairs.end());  // both phases
  }
  Rounds rounds;
  for (const comm::Bytes& bytes : comm.Exchange(comm::TakeAll(to_builders))) {
    comm::ByteReader in(bytes);
    ShippedMemberCodec codec;
    while (!in.done()) {
      const ShippedMember m = codec.Read(in);
      rounds[{m.key, m.round}].emplace_back(m.rank, m.call);
    }
  }
  return rounds;
}

// Builds this rank's instances, each once, in one process's order, into graph.built, and
// returns for each rank the instances that have members it owns (with all their members for
// one-sided instances: a rank knows its own members' facts, it sent them).
std::vector<comm::ByteWriter> BuildCommInstances(const trace::Trace& trace,
                                                 const trace::Partition& partition,
                                                 comm::Communicator& comm, Rounds& rounds,
                                                 SyncGraph& graph) {
  const std::vector<trace::Comm>& comms = trace.defs.comms;
  const std::vector<trace::RmaWindow>& windows = trace.defs.windows;
  SyncGraph built;
  std::vector<comm::ByteWriter> to_members(comm.size());
  std::vector<InstanceCodec> member_codecs(comm.size());
  std::vector<std::vector<const CollectiveMember*>> shipped(comm.size());
  std::vector<const MemberCall*> round;
  for (auto& [where, members] : rounds) {
    const auto& [key, k] = where;
    const uint32_t comm_id = key.phase != 1 ? key.id : windows[key.id].comm;
    const std::vector<uint32_t> rank_locations = key.self_location != kNone
                                                     ? std::vector<uint32_t>{key.self_location}
                                                     : comms[comm_id].rank_to_location;
    std::sort(members.begin(), members.end(),
              [](const auto& a, const auto& b) { return a.first < b.first; });
    round.clear();
    for (const auto& [rank, call] : members) round.push_back(&call);
    AddInstance(trace, comm_id, key.phase != 1 ? kNone : key.id, rank_locations, round, built);
    built.collectives.back().origin =
        (uint64_t{comm.rank()} << 32) | (built.collectives.size() - 1);
    const CollectiveInstance& instance = built.collectives.back();
    for (std::vector<const CollectiveMember*>& list : shipped) list.clear();
    for (uint32_t m = 0; m < instance.member_count; ++m) {
      const CollectiveMember& member = built.members[instance.first_member + m];
      shipped[partition.owner[member.location]].push_back(&member);
    }
    std::vector<const CollectiveMember*> all;
    if (instance.window != kNone) {
      for (uint32_t m = 0; m < instance.member_count; ++m) {
        all.push_back(&built.members[instance.first_member + m]);
      }
    }
    for (uint32_t rank = 0; rank < comm.size(); ++rank) {
      if (shipped[rank].empty()) continue;
      member_codecs[rank].Write(to_members[rank], InstanceHeader{key, k, instance}, all);
    }
  }
  // Counted where built: summed over the ranks, they are one process's.
  graph.stats.collective_instances += built.collectives.size();
  graph.stats.incomplete_collectives += built.stats.incomplete_collectives;
  graph.diagnostics.Merge(built.diagnostics);
  graph.built.collectives = std::move(built.collectives);
  graph.built.members = std::move(built.members);
  return to_members;
}

// The instances with members on this rank, from the ranks that built them, in one process's
// order; each holds this rank's members (its own facts) or, one-sided, all of them.
void ReceiveInstances(const trace::Trace& trace, comm::Communicator& comm,
                      std::vector<comm::ByteWriter> to_members,
                      const std::vector<LocationCalls>& calls, const OwnRanks& own_ranks,
                      SyncGraph& graph) {
  struct Received {
    InstanceHeader header;
    std::vector<CollectiveMember> members;
  };
  std::vector<Received> received;
  for (const comm::Bytes& bytes : comm.Exchange(comm::TakeAll(to_members))) {
    comm::ByteReader in(bytes);
    InstanceCodec codec;
    while (!in.done()) {
      Received r;
      r.header = codec.Read(in, r.members);
      received.push_back(std::move(r));
    }
  }
  std::sort(received.begin(), received.end(), [](const Received& a, const Received& b) {
    if (a.header.key < b.header.key) return true;
    if (b.header.key < a.header.key) return false;
    return a.header.round < b.header.round;
  });
  for (Received& r : received) {
    CollectiveInstance instance = r.header.instance;
    instance.first_member = static_cast<uint32_t>(graph.members.size());
    if (instance.window == kNone) {
      static const std::vector<std::pair<uint32_t, uint32_t>> kNoRanks;
      auto own = own_ranks.find(r.header.key.id);
      r.members = OwnMembers(trace, calls, r.header.key, r.header.round,
                             own == own_ranks.end() ? kNoRanks : own->second);
      CW_CHECK(!r.members.empty());
      instance.member_count = static_cast<uint32_t>(r.members.size());
    }
    graph.members.insert(graph.members.end(), r.members.begin(), r.members.end());
    graph.collectives.push_back(instance);
  }
}

}  // namespace

void MatchCollectives(const trace::Trace& trace, const trace::Partition& partition,
                      comm::Communicator& comm, unsigned threads, SyncGraph& graph) {
  const uint32_t me = comm.rank();
  const std::vector<uint32_t>& owned = partition.owned[me];
  std::vector<LocationCalls> calls(trace.location_count());
  ParallelFor(owned.size(), threads,
              [&](size_t i) { calls[owned[i]] = ScanCollectiveCalls(trace.location(owned[i])); });
  FoldThreadCalls(trace, owned, calls);

  OwnRanks own_ranks;
  Rounds rounds = ShipMembers(trace, partition, comm, calls, own_ranks, graph);
  std::vector<comm::ByteWriter> to_members =
      BuildCommInstances(trace, partition, comm, rounds, graph);
  ReceiveInstances(trace, comm, std::move(to_members), calls, own_ranks, graph);
  for (uint32_t m = 0; m < graph.members.size(); ++m) {
    const uint32_t loc = graph.members[m].location;
    if (partition.owner[loc] == me) graph.by_location[loc].collectives.push_back(m);
  }
  ParallelFor(owned.size(), threads, [&](size_t i) {
    std::vector<uint32_t>& list = graph.by_location[owned[i]].collectives;
    std::sort(list.begin(), list.end(), [&](uint32_t a, uint32_t b) {
      return graph.members[a].end_event < graph.members[b].end_event;
    });
  });
}

}  // namespace cw::match::internal
