#include "match/internal/collective_matcher.h"

#include <algorithm>
#include <map>
#include <string>
#include <tuple>

#include "base/parallel.h"
#include "comm/wire.h"
#include "match/matcher.h"
#include "trace/collective_senders.h"

namespace cw::match::internal {
namespace {

using trace::EventKind;

struct CollectiveCall {
  uint32_t begin;
  uint32_t end;
  // The location that made the call, where it is not the one whose list holds it (a thread's
  // call folded into its process's list: FoldThreadCalls).
  uint32_t location = kNone;
};

// Per location: its collective calls grouped by communicator (or, for RMA collectives, by
// window), each list in event order.
using CallsByComm = std::map<uint32_t, std::vector<CollectiveCall>>;
struct LocationCalls {
  CallsByComm by_comm;
  CallsByComm by_window;
};

LocationCalls ScanLocation(const trace::LocationEvents& ev) {
  LocationCalls calls;
  uint32_t last_begin = kNone;
  for (uint32_t i = 0; i < ev.size(); ++i) {
    EventKind kind = ev.kind(i);
    if (kind == EventKind::kMpiCollectiveBegin || kind == EventKind::kRmaCollectiveBegin) {
      last_begin = i;
    } else if (kind == EventKind::kMpiCollectiveEnd || kind == EventKind::kRmaCollectiveEnd) {
      // The begin record belongs to this call if both sit in the same region instance;
      // otherwise the Enter of the call stands in for it.
      uint32_t begin =
          last_begin != kNone && ev.pair(last_begin) == ev.pair(i) ? last_begin : ev.pair(i);
      if (begin == kNone) begin = i;
      CallsByComm& calls_of_kind =
          kind == EventKind::kRmaCollectiveEnd ? calls.by_window : calls.by_comm;
      calls_of_kind[ev.collective(i).comm_or_window].push_back(CollectiveCall{begin, i});
      last_begin = kNone;
    }
  }
  return calls;
}

// The rank of `loc` in communicator `c` (0 in a self-like one), or kNone if collectives on `c`
// cannot be matched on `loc`: the communicator is undefined, unresolved, or lacks `loc`.
uint32_t RankIn(const std::vector<trace::Comm>& comms, uint32_t c, uint32_t loc) {
  if (c >= comms.size() || !comms[c].defined) return kNone;
  if (comms[c].is_self) return 0;
  const std::vector<uint32_t>& ranks = comms[c].rank_to_location;
  auto it = std::find(ranks.begin(), ranks.end(), loc);
  return it == ranks.end() ? kNone : static_cast<uint32_t>(it - ranks.begin());
}

// The location of `c` (a communicator that does not contain `loc`) in `loc`'s process: a thread's
// collective call is its process's.
uint32_t ProcessMemberIn(const trace::Trace& trace, uint32_t c, uint32_t loc) {
  const std::vector<trace::Comm>& comms = trace.defs.comms;
  if (c >= comms.size() || !comms[c].defined || comms[c].is_self) return kNone;
  const uint32_t group = trace.defs.locations[loc].group;
  for (uint32_t member : comms[c].rank_to_location) {
    if (member != kNone && trace.defs.locations[member].group == group) return member;
  }
  return kNone;
}

// The rank of `loc` in the communicator of window `w`, or kNone if the window's collectives
// cannot be matched on `loc`.
uint32_t RankInWindow(const trace::Definitions& defs, uint32_t w, uint32_t loc) {
  if (w >= defs.windows.size() || !defs.windows[w].defined) return kNone;
  const uint32_t c = defs.windows[w].comm;
  if (c >= defs.comms.size() || defs.comms[c].is_self) return kNone;
  return RankIn(defs.comms, c, loc);
}

// Moves the collective calls that threads made on communicators (and windows) naming only
// another location of their process into that location's lists, in the order the calls began:
// the process takes part in the collective through whichever of its threads calls it. Only
// calls whose process member is among `locations` move (an MPI job's analysis rank folds the
// processes it owns whole).
void FoldThreadCalls(const trace::Trace& trace, const std::vector<uint32_t>& locations,
                     std::vector<LocationCalls>& calls) {
  const trace::Definitions& defs = trace.defs;
  std::vector<bool> listed(trace.location_count(), false);
  for (uint32_t loc : locations) listed[loc] = true;
  for (uint32_t loc : locations) {
    for (int phase = 0; phase < 2; ++phase) {
      CallsByComm& of_loc = phase == 0 ? calls[loc].by_comm : calls[loc].by_window;
      for (auto it = of_loc.begin(); it != of_loc.end();) {
        const uint32_t id = it->first;
        const uint32_t c = phase == 0 ? id
                                      : (id < defs.windows.size() && defs.windows[id].defined
                                             ? defs.windows[id].comm
                                             : kNone);
        const bool member =
            phase == 0 ? RankIn(defs.comms, c, loc) != kNone : RankInWindow(defs, id, loc) != kNone;
        const uint32_t into = member ? kNone : ProcessMemberIn(trace, c, loc);
        if (into == kNone || !listed[into]) {
          ++it;
          continue;
        }
        std::vector<CollectiveCall>& target =
            (phase == 0 ? calls[into].by_comm : calls[into].by_window)[id];
        for (CollectiveCall call : it->second) {
          call.location = loc;
          target.push_back(call);
        }
        auto began = [&](const CollectiveCall& call) {
          const uint32_t at = call.location != kNone ? call.location : into;
          return trace.location(at).time(call.begin);
        };
        std::stable_sort(
            target.begin(), target.end(),
            [&](const CollectiveCall& a, const CollectiveCall& b) { return began(a) < began(b); });
        it = of_loc.erase(it);
      }
    }
  }
}

// A member's call as instance building needs it: the member with its facts, and what it says
// about the instance.
struct MemberCall {
  CollectiveMember member;
  trace::CollectiveOp op = trace::CollectiveOp::kBarrier;
  uint32_t root_rank = kNone;
};

MemberCall ReadMember(const trace::Trace& trace, uint32_t loc, const CollectiveCall& call,
                      uint32_t rank) {
  if (call.location != kNone) loc = call.location;
  const trace::LocationEvents& ev = trace.location(loc);
  const trace::CollectivePayload& p = ev.collective(call.end);
  // The call's Enter: `begin` itself when the trace has no begin record, else its pair.
  const uint32_t enter =
      ev.kind(call.begin) == EventKind::kEnter ? call.begin : ev.pair(call.begin);
  MemberCall m;
  m.member = CollectiveMember{loc,
                              call.begin,
                              call.end,
                              rank,
                              ev.time(enter == kNone ? call.begin : enter),
                              ev.time(call.end),
                              p.sent,
                              p.received,
                              trace::CollectiveSenders(trace.defs, ev, call.end)};
  m.op = p.op;
  m.root_rank = p.root;
  return m;
}

// Whether every member missing from `round` belongs to a rank whose recording the tracer noted
// ended early: ranks stop independently (each at its own share of --max-size, or when it
// crashes), so the ranks still recording call collectives the stopped ones are absent from.
// That is what the trace says happened, not an inconsistency.
bool MissingOnlyRanksThatEnded(const trace::Trace& trace,
                               const std::vector<uint32_t>& rank_locations,
                               const std::vector<const MemberCall*>& round) {
  std::vector<bool> present(rank_locations.size(), false);
  for (const MemberCall* m : round) {
    if (m->member.rank < present.size()) present[m->member.rank] = true;
  }
  for (size_t r = 0; r < rank_locations.size(); ++r) {
    if (present[r]) continue;
    if (rank_locations[r] == kNone) return false;
    if (!trace.defs.LocationEndedEarly(rank_locations[r])) return false;
  }
  return true;
}

// Appends instance `k` of communicator `comm_id` (or of window `window` over it), whose members'
// calls are `round` in rank order; `rank_locations[r]` is the location of rank r.
void AddInstance(const trace::Trace& trace, uint32_t comm_id, uint32_t window,
                 const std::vector<uint32_t>& rank_locations,
                 const std::vector<const MemberCall*>& round, SyncGraph& graph) {
  CollectiveInstance instance;
  instance.comm = comm_id;
  instance.window = window;
  instance.first_member = static_cast<uint32_t>(graph.members.size());
  bool mismatch = false;
  uint32_t root_rank = round.front()->root_rank;
  instance.op = round.front()->op;
  for (const MemberCall* m : round) {
    mismatch |= m->op != instance.op;
    graph.members.push_back(m->member);
  }
  const trace::Comm& comm = trace.defs.comms[comm_id];
  if (comm.is_inter()) {
    // Each member names the root from its side (trace::kRootSelf ...): they agree if they
    // name one location.
    instance.root = kNone;
    root_rank = kNone;
    for (const MemberCall* m : round) {
      if (m->root_rank == kNone || m->root_rank == trace::kRootThisGroup) continue;
      const uint32_t root = m->root_rank == trace::kRootSelf
                                ? m->member.location
                                : comm.LocationOfRank(m->root_rank, m->member.location);
      if (root == kNone) root_rank = m->root_rank;  // reported below, as outside
      if (instance.root == kNone) {
        instance.root = root;
      } else {
        mismatch |= root != instance.root;
      }
    }
  } else {
    for (const MemberCall* m : round) mismatch |= m->root_rank != root_rank;
    instance.root = root_rank == kNone ? kNone : comm.LocationOfRank(root_rank, rank_locations[0]);
  }
  instance.member_count = static_cast<uint32_t>(round.size());
  instance.complete = instance.member_count == rank_locations.size();
  const CollectiveMember& head = graph.members[instance.first_member];
  // The example is the lowest place, wherever (on whichever analysis rank) the instance is built.
  const uint64_t place = uint64_t{head.location} << 32 | head.end_event;
  if (mismatch) {
    graph.diagnostics.Report(kCollectiveMismatch, trace::EventPlace(head.location, head.end_event),
                             1, place);
  }
  if (root_rank != kNone && instance.root == kNone) {
    graph.diagnostics.Report(kCollectiveRootOutside,
                             trace::EventPlace(head.location, head.end_event) + ", root " +
                                 std::to_string(root_rank) + " of " +
                                 std::to_string(rank_locations.size()) + " ranks",
                             1, place);
  }
  if (!instance.complete) {
    ++graph.stats.incomplete_collectives;
    graph.diagnostics.Report(MissingOnlyRanksThatEnded(trace, rank_locations, round)
                                 ? kCollectiveAfterRankEnded
                                 : kIncompleteCollective,
                             trace::EventPlace(head.location, head.end_event), 1, place);
  }
  graph.collectives.push_back(instance);
}

// Instances of one communicator (or of window `window` over it): instance k is the k-th call of
// every member; `lists[r]` holds rank r's calls (nullptr if it made none).
void BuildInstances(const trace::Trace& trace, uint32_t comm_id, uint32_t window,
                    const std::vector<uint32_t>& rank_locations,
                    const std::vector<const std::vector<MemberCall>*>& lists, SyncGraph& graph) {
  size_t rounds = 0;
  for (const std::vector<MemberCall>* list : lists) {
    if (list != nullptr) rounds = std::max(rounds, list->size());
  }
  std::vector<const MemberCall*> round;
  for (size_t k = 0; k < rounds; ++k) {
    round.clear();
    for (const std::vector<MemberCall>* list : lists) {
      if (list != nullptr && k < list->size()) round.push_back(&(*list)[k]);
    }
    AddInstance(trace, comm_id, window, rank_locations, round, graph);
  }
}

// The calls of each rank of a communicator (or window) from one process's scans.
void BuildFromScans(const trace::Trace& trace, uint32_t comm_id, uint32_t window,
                    const std::vector<uint32_t>& rank_locations,
                    const std::vector<LocationCalls>& calls, SyncGraph& graph) {
  std::vector<std::vector<MemberCall>> lists(rank_locations.size());
  std::vector<const std::vector<MemberCall>*> present(rank_locations.size(), nullptr);
  for (size_t r = 0; r < rank_locations.size(); ++r) {
    uint32_t loc = rank_locations[r];
    if (loc == kNone) continue;
    const CallsByComm& of_loc = window == kNone ? calls[loc].by_comm : calls[loc].by_window;
    auto it = of_loc.find(window == kNone ? comm_id : window);
    if (it == of_loc.end()) continue;
    for (const CollectiveCall& call : it->second) {
      lists[r].push_back(ReadMember(trace, loc, call, static_cast<uint32_t>(r)));
    }
    present[r] = &lists[r];
  }
  BuildInstances(trace, comm_id, window, rank_locations, present, graph);
}

}  // namespace

void MatchCollectives(const trace::Trace& trace, unsigned threads, SyncGraph& graph) {
  const uint32_t n = trace.location_count();
  std::vector<LocationCalls> calls(n);
  ParallelFor(n, threads, [&](size_t loc) {
    calls[loc] = ScanLocation(trace.location(static_cast<uint32_t>(loc)));
  });
  std::vector<uint32_t> all(n);
  for (uint32_t loc = 0; loc < n; ++loc) all[loc] = loc;
  FoldThreadCalls(trace, all, calls);

  const std::vector<trace::Comm>& comms = trace.defs.comms;
  // Communicator ids used anywhere, in ascending order, so instance ids are deterministic.
  std::map<uint32_t, std::vector<uint32_t>> self_users;  // self-like comm -> locations using it
  std::vector<bool> used(comms.size(), false);
  for (uint32_t loc = 0; loc < n; ++loc) {
    for (const auto& [comm, list] : calls[loc].by_comm) {
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
    if (used[comm]) BuildFromScans(trace, comm, kNone, comms[comm].rank_to_location, calls, graph);
    auto self = self_users.find(comm);
    if (self == self_users.end()) continue;
    // A self-like communicator is a separate one-member communicator on every location.
    for (uint32_t loc : self->second) BuildFromScans(trace, comm, kNone, {loc}, calls, graph);
  }

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
    BuildFromScans(trace, comm, window, comms[comm].rank_to_location, calls, graph);
  }
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
// `self_location` alone for a self-like communicator) or of window `id` (phase 1). Ordered as
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
    out.Put(static_cast<uint8_t>((same_place ? kSamePlace : 0) | (same_sizes ? kSameSizes : 0)));
    if (!same_place) {
      out.PutDelta(m.location, last_.location);
      out.PutDelta(m.rank, last_.rank);
    }
    out.PutDelta(m.begin_event, last_.begin_event);
    out.PutDelta(m.end_event, m.begin_event);
    out.PutDelta(m.entered, last_.entered);
    out.PutDelta(m.end_time, m.entered);
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
    if ((flags & kSameSizes) == 0) {
      m.sent = in.GetVarint();
      m.received = in.GetVarint();
      m.senders = static_cast<uint32_t>(in.GetVarint() - 1);
    }
    last_ = m;
    return m;
  }

 private:
  static constexpr uint8_t kSamePlace = 1, kSameSizes = 2;
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
    auto list = calls[loc].by_comm.find(key.id);
    if (list == calls[loc].by_comm.end() || round >= list->second.size()) return;
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
    for (const auto& [c, list] : calls[loc].by_comm) {
      const uint32_t rank = RankIn(comms, c, loc);
      if (rank == kNone) {
        graph.diagnostics.Report(kCollectiveUnknownComm, trace::EventPlace(loc, list.front().end),
                                 list.size());
      } else if (comms[c].is_self) {
        ship(GroupKey{0, c, loc}, {loc}, loc, 0, list);
      } else {
        ship(GroupKey{0, c, kNone}, comms[c].rank_to_location, loc, rank, list);
        own_ranks[c].emplace_back(rank, loc);
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
  for (auto& [c, pairs] : own_ranks) std::sort(pairs.begin(), pairs.end());
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
std::vector<comm::ByteWriter> BuildInstances(const trace::Trace& trace,
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
    const uint32_t comm_id = key.phase == 0 ? key.id : windows[key.id].comm;
    const std::vector<uint32_t> rank_locations = key.self_location != kNone
                                                     ? std::vector<uint32_t>{key.self_location}
                                                     : comms[comm_id].rank_to_location;
    std::sort(members.begin(), members.end(),
              [](const auto& a, const auto& b) { return a.first < b.first; });
    round.clear();
    for (const auto& [rank, call] : members) round.push_back(&call);
    AddInstance(trace, comm_id, key.phase == 0 ? kNone : key.id, rank_locations, round, built);
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
              [&](size_t i) { calls[owned[i]] = ScanLocation(trace.location(owned[i])); });
  FoldThreadCalls(trace, owned, calls);

  OwnRanks own_ranks;
  Rounds rounds = ShipMembers(trace, partition, comm, calls, own_ranks, graph);
  std::vector<comm::ByteWriter> to_members = BuildInstances(trace, partition, comm, rounds, graph);
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
