#include "analysis/syncpoints/sync_points.h"

#include <algorithm>
#include <limits>
#include <span>
#include <string>
#include <utility>

#include "analysis/syncpoints/internal/participants.h"
#include "analysis/syncpoints/internal/rank_exchange.h"
#include "base/check.h"
#include "base/flat_hash_map.h"
#include "base/parallel.h"

namespace cw::analysis {
namespace {

using internal::CallHolding;
using internal::ExitOfCall;
using internal::FindParticipants;
using internal::FindProcesses;
using internal::FindWindow;
using internal::TeamStartLeads;
using trace::EventKind;
using trace::kNone;

bool ByLocationOrder(const GroupMember& a, const GroupMember& b) { return a.location < b.location; }

std::vector<uint32_t>& LastWithTable(size_t locations) {
  thread_local std::vector<uint32_t> table;
  if (table.size() < locations) table.resize(locations, kNone);
  return table;
}

// Finds, on one location, where the interval of every edge starts: the previous role that
// synchronised the location with the edge's partner.
class IntervalStarts {
 public:
  explicit IntervalStarts(SyncPoints& sp) : sp_(sp) {}
  ~IntervalStarts() {
    for (uint32_t partner : touched_) last_with_[partner] = kNone;
  }
  IntervalStarts(const IntervalStarts&) = delete;
  IntervalStarts& operator=(const IntervalStarts&) = delete;

  // Fills `start` and `cut` of every edge role of `location`.
  void Run(uint32_t location) {
    LocationSyncPoints& l = sp_.locations[location];
    std::vector<SyncRole>& roles = l.roles;
    previous_in_key_.assign(roles.size(), kNone);
    for (uint32_t r = 0; r < roles.size(); ++r) {
      SyncRole& role = roles[r];
      if (role.kind == RoleKind::kGroup) {
        uint32_t key = sp_.groups[role.id].key;
        uint32_t* latest = latest_group_.Find(key);
        if (latest != nullptr) {
          previous_in_key_[r] = *latest;
          *latest = r;
        } else {
          latest_group_.Insert(key, r);
          keys_.push_back(key);
        }
        continue;
      }
      role.start = Previous(roles, role.partner);
      if (last_with_[role.partner] == kNone) touched_.push_back(role.partner);
      last_with_[role.partner] = r;
    }
  }

 private:
  bool Contains(uint32_t group, uint32_t location) const {
    return sp_.GroupMemberOf(group, location) != kNone;
  }

  uint32_t Previous(const std::vector<SyncRole>& roles, uint32_t partner) const {
    uint32_t best = last_with_[partner];
    for (uint32_t key : keys_) {
      // The latest group of this communicator that has the partner; groups of N x N operations
      // can leave members out, so look a few groups further back.
      uint32_t r = *latest_group_.Find(key);
      for (int steps = 0; r != kNone && steps < kGroupLookback; ++steps) {
        if (best != kNone && r < best) break;
        if (Contains(roles[r].id, partner)) {
          if (best == kNone || r > best) best = r;
          break;
        }
        r = previous_in_key_[r];
      }
    }
    return best;
  }

  static constexpr int kGroupLookback = 64;

  SyncPoints& sp_;
  // partner location -> its latest role here: a dense table per thread (locations are few
  // enough), reset through the list of entries this location set.
  std::vector<uint32_t>& last_with_ = LastWithTable(sp_.locations.size());
  std::vector<uint32_t> touched_;
  FlatHashMap<uint32_t, uint32_t> latest_group_;  // group key -> role
  std::vector<uint32_t> keys_;
  std::vector<uint32_t> previous_in_key_;  // per group role: the previous one with its key
};

// The part of the interval's start call before the pair's synchronisation there ended: the
// interval begins when the first of the two left that call; until then this side's call was
// synchronising with the partner, not running ahead of it. Needs the partner's exit from the
// start call's synchronisation (distributed: exchanged once the starts are known).
int64_t StartCut(const SyncPoints& sp, const LocationSyncPoints& l, const SyncRole& role) {
  if (role.start == kNone) return 0;
  const SyncRole& start = l.roles[role.start];
  const uint32_t a = start.activity;
  if (a >= role.activity) return 0;
  int64_t partner_exit = 0;
  if (start.kind == RoleKind::kGroup && sp.all_group_ordinal[start.id] != kNone) {
    partner_exit =
        sp.all_group_exit[static_cast<size_t>(sp.participant_index[role.partner]) * sp.all_groups +
                          sp.all_group_ordinal[start.id]];
  } else if (start.kind == RoleKind::kGroup) {
    uint32_t member = sp.GroupMemberOf(start.id, role.partner);
    partner_exit = member == kNone ? l.call_exit[a] : sp.group_member_exit[member];
  } else {
    const EdgeEnds& e = sp.ends[start.id];
    partner_exit = start.kind == RoleKind::kWaiter ? e.delayer_exit : e.waiter_exit;
  }
  int64_t moment = std::min(l.call_exit[a], partner_exit);
  // Scalasca's completion of the call where it measures it otherwise (semantics.h).
  if (!l.call_completion.empty() && l.call_completion[a] >= 0) {
    moment = l.call_exit[a] - l.call_completion[a];
  }
  const uint32_t waiter = l.call_wait[a];
  int64_t from = l.call_time[a] + (waiter == kNone ? 0 : l.roles[waiter].wait);
  from = std::max(from, sp.window.begin);
  const int64_t to = std::min({moment, l.call_exit[a], sp.window.end});
  if (to <= from || l.call_path[a] == kNone) return 0;
  return to - from;
}

// Keeps the edges between participants, at most one wait per call (the first one found), with
// their events resolved to the calls that hold them.
void KeepEdges(const trace::Trace& trace, std::vector<WaitEdge>&& edges, unsigned threads,
               SyncPoints& sp) {
  const uint32_t n = trace.location_count();
  // Edges come grouped by waiter location: check each group on its own task.
  std::vector<size_t> runs{0};
  for (size_t i = 1; i < edges.size(); ++i) {
    if (edges[i].waiter != edges[i - 1].waiter) runs.push_back(i);
  }
  runs.push_back(edges.size());
  const size_t run_count = edges.empty() ? 0 : runs.size() - 1;
  // Bytes, not std::vector<bool>: tasks of neighbouring runs write neighbouring entries.
  std::vector<uint8_t> followed(edges.size(), 0);
  std::vector<size_t> kept_in_run(run_count, 0);
  ParallelFor(run_count, threads, [&](size_t run) {
    // Calls that already have a wait: a bit per event of the waiter location.
    std::vector<bool> waited_calls(
        edges[runs[run]].waiter < n ? trace.location(edges[runs[run]].waiter).size() : 0, false);
    for (size_t i = runs[run]; i < runs[run + 1]; ++i) {
      WaitEdge& e = edges[i];
      if (e.waiter >= n || e.delayer >= n || e.waiter == e.delayer || e.wait <= 0 ||
          !sp.is_participant[e.waiter] || !sp.is_participant[e.delayer]) {
        continue;
      }
      uint32_t wcall = CallHolding(trace.location(e.waiter), e.waiter_event);
      // Distributed, the delayer's rank resolves its event (internal::JoinDelayerEdges).
      uint32_t dcall = sp.share.Holds(e.delayer)
                           ? CallHolding(trace.location(e.delayer), e.delayer_event)
                           : e.delayer_event;
      if (wcall == kNone || dcall == kNone || waited_calls[wcall]) continue;
      waited_calls[wcall] = true;
      e.waiter_event = wcall;
      e.delayer_event = dcall;
      followed[i] = 1;
      ++kept_in_run[run];
    }
  });
  size_t kept = 0;
  for (size_t k : kept_in_run) kept += k;
  if (kept == edges.size()) {  // the usual case: every edge is followed
    sp.edges = std::move(edges);
    sp.edges.shrink_to_fit();
    return;
  }
  for (size_t i = 0; i < edges.size(); ++i) {
    const WaitEdge& e = edges[i];
    if (followed[i]) continue;
    sp.unfollowed_wait[static_cast<int>(e.pattern)] += e.wait;
    sp.diagnostics.Report(
        kUnfollowedWait,
        "location " + std::to_string(e.waiter) + " event " + std::to_string(e.waiter_event), 1,
        (uint64_t{e.waiter} << 32) | e.waiter_event);
  }
  std::vector<size_t> first(run_count + 1, 0);
  for (size_t run = 0; run < run_count; ++run) first[run + 1] = first[run] + kept_in_run[run];
  sp.edges.resize(kept);
  ParallelFor(run_count, threads, [&](size_t run) {
    size_t out = first[run];
    for (size_t i = runs[run]; i < runs[run + 1]; ++i) {
      if (followed[i]) sp.edges[out++] = edges[i];
    }
  });
}

// Keeps the groups' participating members, with their events resolved to calls. Groups with
// fewer than two participating members synchronise nobody and are dropped.
void KeepGroups(const trace::Trace& trace, const SyncEdges& sync, unsigned threads,
                SyncPoints& sp) {
  const uint32_t n = trace.location_count();
  // Distributed, members of other ranks come without events: their ranks resolved them.
  // OpenMP's members are their events themselves (sync_edges.h).
  auto resolve = [&](const SyncGroup& g, const GroupMember& m) {
    const trace::LocationEvents& ev = trace.location(m.location);
    if (g.key != kOmpTeamGroupKey) return CallHolding(ev, m.event);
    return m.event < ev.size() ? m.event : kNone;
  };
  auto participates = [&](const SyncGroup& g, const GroupMember& m) {
    return m.location < n && sp.is_participant[m.location] &&
           (!sp.share.Holds(m.location) || resolve(g, m) != kNone);
  };
  std::vector<uint32_t> count(sync.groups.size(), 0);
  ParallelFor(sync.groups.size(), threads, [&](size_t g) {
    const SyncGroup& group = sync.groups[g];
    for (uint32_t k = 0; k < group.member_count; ++k) {
      if (participates(group, sync.group_members[group.first_member + k])) ++count[g];
    }
    if (count[g] < 2) count[g] = 0;
  });
  std::vector<uint32_t> source;  // kept group -> index in sync.groups
  uint32_t members = 0;
  for (uint32_t g = 0; g < sync.groups.size(); ++g) {
    if (count[g] == 0) continue;
    source.push_back(g);
    sp.groups.push_back(SyncGroup{sync.groups[g].key, members, count[g], sync.groups[g].origin,
                                  sync.groups[g].leader});
    members += count[g];
  }
  sp.group_members.resize(members);
  sp.group_member_exit.resize(members);
  sp.group_covers_all.assign(sp.groups.size(), 0);
  ParallelFor(sp.groups.size(), threads, [&](size_t g) {
    const SyncGroup& from = sync.groups[source[g]];
    const SyncGroup& kept = sp.groups[g];
    auto begin = sp.group_members.begin() + kept.first_member;
    auto end = begin + kept.member_count;
    auto out = begin;
    for (uint32_t k = 0; k < from.member_count; ++k) {
      const GroupMember& m = sync.group_members[from.first_member + k];
      if (!participates(from, m)) continue;
      const bool held = sp.share.Holds(m.location);
      *out++ = GroupMember{m.location, held ? resolve(from, m) : kNone};
    }
    // Members in location order: a location's member index is found by binary search, or
    // directly in a group of all participants.
    if (!std::is_sorted(begin, end, ByLocationOrder)) std::sort(begin, end, ByLocationOrder);
    for (uint32_t k = kept.first_member; k < kept.first_member + kept.member_count; ++k) {
      const GroupMember& m = sp.group_members[k];
      // Other ranks' members: fetched where they start an interval (internal::FetchGroupExits).
      sp.group_member_exit[k] =
          m.event == kNone ? 0 : ExitOfCall(trace.location(m.location), m.event);
    }
    // A location calls an operation once per instance, so a group of all participants holds
    // each exactly once, in the order of `participants`. Distributed, a rank knows only some
    // members' exits: the table of all of them is not made.
    bool all = !sp.share.distributed() && kept.member_count == sp.participants.size();
    for (uint32_t k = 0; all && k < kept.member_count; ++k) {
      all = begin[k].location == sp.participants[k];
    }
    sp.group_covers_all[g] = all ? 1 : 0;
  });
  sp.all_group_ordinal.assign(sp.groups.size(), kNone);
  std::vector<uint32_t> all_groups;
  for (uint32_t g = 0; g < sp.groups.size(); ++g) {
    if (!sp.group_covers_all[g]) continue;
    sp.all_group_ordinal[g] = static_cast<uint32_t>(all_groups.size());
    all_groups.push_back(g);
  }
  sp.all_groups = static_cast<uint32_t>(all_groups.size());
  sp.all_group_exit.resize(sp.participants.size() * all_groups.size());
  ParallelFor(sp.participants.size(), threads, [&](size_t p) {
    int64_t* out = sp.all_group_exit.data() + p * all_groups.size();
    for (uint32_t g : all_groups) *out++ = sp.group_member_exit[sp.groups[g].first_member + p];
  });
}

// Lists, per location, the ids (ascending) of the items whose location `of(item)` is it.
template <typename LocationOf>
std::vector<std::vector<uint32_t>> ByLocation(size_t items, uint32_t locations, LocationOf of) {
  std::vector<uint32_t> count(locations, 0);
  for (size_t i = 0; i < items; ++i) ++count[of(i)];
  std::vector<std::vector<uint32_t>> lists(locations);
  for (uint32_t l = 0; l < locations; ++l) lists[l].reserve(count[l]);
  for (size_t i = 0; i < items; ++i) lists[of(i)].push_back(static_cast<uint32_t>(i));
  return lists;
}

// One role to be made: its call and what it is, ordered as the roles of a location are (by
// call, then kind, then id). An edge's key carries what its role needs from the edge, read once:
// a delayer's edges lie scattered over the edge table.
struct RoleKey {
  uint32_t call;
  uint32_t id;  // edge id, or group member index
  uint32_t partner = kNone;
  SyncPattern pattern = SyncPattern::kLateSender;
  int64_t wait = 0;
  bool operator<(const RoleKey& o) const { return call != o.call ? call < o.call : id < o.id; }
};

// Sorts the keys of one kind (usually already in order: only a delayer's edges are not). The
// keys come with ascending ids, so a stable sort by call orders them by (call, id): a radix sort
// by call, which on the tens of thousands of edges a delayer has is several times faster than a
// comparison sort.
void SortKeys(std::vector<RoleKey>& keys) {
  if (std::is_sorted(keys.begin(), keys.end())) return;
  constexpr size_t kSmall = 512;
  if (keys.size() < kSmall) {
    std::sort(keys.begin(), keys.end());
    return;
  }
  constexpr int kBits = 11;
  constexpr uint32_t kBuckets = 1u << kBits;
  uint32_t max_call = 0;
  for (const RoleKey& k : keys) max_call = std::max(max_call, k.call);
  std::vector<RoleKey> buffer(keys.size());
  std::vector<uint32_t> start(kBuckets);
  for (int shift = 0; shift < 32 && (max_call >> shift) != 0; shift += kBits) {
    std::fill(start.begin(), start.end(), 0);
    for (const RoleKey& k : keys) ++start[(k.call >> shift) & (kBuckets - 1)];
    uint32_t sum = 0;
    for (uint32_t& s : start) sum += std::exchange(s, sum);
    for (const RoleKey& k : keys) buffer[start[(k.call >> shift) & (kBuckets - 1)]++] = k;
    keys.swap(buffer);
  }
}

void MakeRoles(uint32_t loc, std::span<const RoleKey> as_delayer,
               std::span<const RoleKey> as_waiter, std::span<const RoleKey> as_member,
               const std::vector<uint32_t>& group_of, SyncPoints& sp);

// Gives every location its roles in time order: by call, then kind (delayer, waiter, group),
// then id. Each kind's keys are sorted on their own and merged, which is cheaper than sorting
// the roles themselves.
void AssignRoles(unsigned threads, SyncPoints& sp) {
  const uint32_t n = static_cast<uint32_t>(sp.locations.size());
  std::vector<std::vector<uint32_t>> waited =
      ByLocation(sp.edges.size(), n, [&](size_t e) { return sp.edges[e].waiter; });
  std::vector<std::vector<uint32_t>> delayed =
      ByLocation(sp.edges.size(), n, [&](size_t e) { return sp.edges[e].delayer; });
  std::vector<std::vector<uint32_t>> member_of = ByLocation(
      sp.group_members.size(), n, [&](size_t m) { return sp.group_members[m].location; });
  // group_members are stored group after group: find each member's group by its position.
  std::vector<uint32_t> group_of(sp.group_members.size());
  ParallelFor(sp.groups.size(), threads, [&](size_t g) {
    for (uint32_t k = 0; k < sp.groups[g].member_count; ++k)
      group_of[sp.groups[g].first_member + k] = static_cast<uint32_t>(g);
  });
  ParallelFor(sp.held_participants.size(), threads, [&](size_t i) {
    uint32_t loc = sp.held_participants[i];
    auto edge_keys = [&](const std::vector<uint32_t>& ids, bool as_waiter) {
      std::vector<RoleKey> out;
      out.reserve(ids.size());
      for (uint32_t id : ids) {
        const WaitEdge& e = sp.edges[id];
        out.push_back(RoleKey{as_waiter ? e.waiter_event : e.delayer_event, id,
                              as_waiter ? e.delayer : e.waiter, e.pattern, e.wait});
      }
      SortKeys(out);
      return out;
    };
    const std::vector<RoleKey> as_delayer = edge_keys(delayed[loc], false);
    const std::vector<RoleKey> as_waiter = edge_keys(waited[loc], true);
    std::vector<RoleKey> as_member;
    as_member.reserve(member_of[loc].size());
    for (uint32_t m : member_of[loc]) as_member.push_back(RoleKey{sp.group_members[m].event, m});
    SortKeys(as_member);

    MakeRoles(loc, as_delayer, as_waiter, as_member, group_of, sp);
  });
}

// Appends a location's roles in order (merging the sorted keys of each kind) and numbers its
// calls as they come; records where each edge left its call.
void MakeRoles(uint32_t loc, std::span<const RoleKey> as_delayer,
               std::span<const RoleKey> as_waiter, std::span<const RoleKey> as_member,
               const std::vector<uint32_t>& group_of, SyncPoints& sp) {
  LocationSyncPoints& l = sp.locations[loc];
  const trace::LocationEvents& ev = sp.source->location(loc);
  const size_t count = as_delayer.size() + as_waiter.size() + as_member.size();
  // Calls are at most as many as roles; pages reserved but never written cost nothing.
  l.roles.reserve(count);
  l.calls.reserve(count);
  l.call_time.reserve(count);
  l.call_exit.reserve(count);
  l.call_path.reserve(count);
  l.call_wait.reserve(count);
  auto append = [&](uint32_t call, SyncRole role) {
    const uint32_t r = static_cast<uint32_t>(l.roles.size());
    if (l.calls.empty() || l.calls.back() != call) {
      l.calls.push_back(call);
      l.call_time.push_back(static_cast<int64_t>(ev.time(call)));
      l.call_exit.push_back(ExitOfCall(ev, call));
      l.call_path.push_back(ev.kind(call) == EventKind::kEnter ? ev.ref(call) : kNone);
      l.call_wait.push_back(kNone);
    }
    role.activity = static_cast<uint32_t>(l.calls.size() - 1);
    if (role.kind == RoleKind::kWaiter) {
      l.call_wait.back() = r;
      sp.ends[role.id].waiter_role = r;
      sp.ends[role.id].waiter_exit = l.call_exit.back();
    } else if (role.kind == RoleKind::kDelayer) {
      sp.ends[role.id].delayer_role = r;
      sp.ends[role.id].delayer_exit = l.call_exit.back();
    }
    l.roles.push_back(role);
  };
  auto edge_role = [&](const RoleKey& key, RoleKind kind) {
    SyncRole role;
    role.id = key.id;
    role.partner = key.partner;
    role.kind = kind;
    role.pattern = key.pattern;
    role.wait = key.wait;
    append(key.call, role);
  };
  size_t d = 0, w = 0, m = 0;
  constexpr uint32_t kEnd = std::numeric_limits<uint32_t>::max();
  while (d < as_delayer.size() || w < as_waiter.size() || m < as_member.size()) {
    const uint32_t dc = d < as_delayer.size() ? as_delayer[d].call : kEnd;
    const uint32_t wc = w < as_waiter.size() ? as_waiter[w].call : kEnd;
    const uint32_t mc = m < as_member.size() ? as_member[m].call : kEnd;
    if (dc <= wc && dc <= mc) {
      edge_role(as_delayer[d++], RoleKind::kDelayer);
    } else if (wc <= mc) {
      edge_role(as_waiter[w++], RoleKind::kWaiter);
    } else {
      // A group role's id is the group; the member index is found again through GroupMemberOf.
      const RoleKey& key = as_member[m++];
      SyncRole role;
      role.id = group_of[key.id];
      role.kind = RoleKind::kGroup;
      append(key.call, role);
    }
  }
}

// The steps of a location in the backward passes (locations can be planned in parallel: each
// edge is consumed by the step of one location only).
void PlanBackward(const SyncPoints& sp, uint32_t loc, BackwardPlan& plan) {
  const std::vector<SyncRole>& roles = sp.locations[loc].roles;
  for (uint32_t r = static_cast<uint32_t>(roles.size()); r > 0; --r) {
    const SyncRole& role = roles[r - 1];
    if (role.kind == RoleKind::kDelayer) {
      plan.schedule.AddStep(loc, {role.id});
    } else if (role.kind == RoleKind::kWaiter) {
      plan.schedule.AddStep(loc, {});
    }
  }
}

// Scalasca's completions of the location's calls (SyncEdges::completions), by call.
void AttachCompletions(const trace::Trace& trace, uint32_t loc, SyncPoints& sp) {
  if (loc >= sp.completions.size() || sp.completions[loc].empty()) return;
  LocationSyncPoints& l = sp.locations[loc];
  const trace::LocationEvents& ev = trace.location(loc);
  l.call_completion.assign(l.calls.size(), -1);
  for (const EventCompletion& c : sp.completions[loc]) {
    const uint32_t call = CallHolding(ev, c.event);
    auto it = std::lower_bound(l.calls.begin(), l.calls.end(), call);
    if (it != l.calls.end() && *it == call) {
      l.call_completion[static_cast<size_t>(it - l.calls.begin())] = c.ticks;
    }
  }
  std::vector<EventCompletion>().swap(sp.completions[loc]);
}

// Builds a location's time map and finds the interval starts of its edge roles (which need every
// location's roles).
void StartLocation(const trace::Trace& trace, uint32_t loc, SyncPoints& sp) {
  AttachCompletions(trace, loc, sp);
  LocationSyncPoints& l = sp.locations[loc];
  std::vector<int64_t> waits(l.calls.size(), 0);
  for (uint32_t a = 0; a < l.calls.size(); ++a) {
    if (l.call_wait[a] != kNone) waits[a] = l.roles[l.call_wait[a]].wait;
  }
  const std::vector<TimeLead> leads = TeamStartLeads(trace, loc, sp);
  l.time = TimeMap::Build(trace, trace.location(loc), l.calls, waits, sp.window.begin,
                          sp.window.end, leads);
  IntervalStarts starts(sp);
  starts.Run(loc);
}

// Cuts the intervals' start calls (which needs the partners' exits there) and plans the
// location's steps.
void FinishLocation(uint32_t loc, SyncPoints& sp) {
  LocationSyncPoints& l = sp.locations[loc];
  for (SyncRole& role : l.roles) {
    if (role.kind != RoleKind::kGroup) role.cut = StartCut(sp, l, role);
  }
  PlanBackward(sp, loc, *sp.backward);
}

}  // namespace

SyncPoints BuildSyncPoints(const trace::Trace& trace, SyncEdges&& sync, unsigned threads,
                           const RankShare& share) {
  SyncPoints sp;
  sp.source = &trace;
  sp.share = share;
  const bool distributed = share.distributed();
  const uint32_t n = trace.location_count();
  const std::vector<bool> processes = FindProcesses(trace);
  sp.is_participant = FindParticipants(trace, processes);
  sp.participant_index.assign(n, kNone);
  std::vector<uint32_t> process_list;
  for (uint32_t l = 0; l < n; ++l) {
    if (processes[l]) process_list.push_back(l);
    if (!sp.is_participant[l]) continue;
    sp.participant_index[l] = static_cast<uint32_t>(sp.participants.size());
    sp.participants.push_back(l);
    if (share.Holds(l)) sp.held_participants.push_back(l);
  }
  // The window is the processes': an OpenMP worker's records begin at its first team.
  sp.window = FindWindow(trace, sync, process_list, share);
  sp.init_call = sync.init_call;
  sp.completions = std::move(sync.completions);
  sp.locations.resize(n);

  KeepEdges(trace, std::move(sync.edges), threads, sp);
  sync.edges = {};
  if (distributed) internal::JoinDelayerEdges(trace, sp);
  sp.ends.resize(sp.edges.size());
  KeepGroups(trace, sync, threads, sp);
  sync.groups = {};
  sync.group_members = {};
  AssignRoles(threads, sp);
  sp.backward = std::make_unique<BackwardPlan>(n, static_cast<uint32_t>(sp.edges.size()));
  ParallelFor(sp.held_participants.size(), threads,
              [&](size_t i) { StartLocation(trace, sp.held_participants[i], sp); });
  // Every edge's and group member's exit on this rank is known now; distributed, the partners'
  // exits where an interval starts come from their ranks.
  if (distributed) internal::FetchPartnerExits(sp);
  ParallelFor(sp.held_participants.size(), threads,
              [&](size_t i) { FinishLocation(sp.held_participants[i], sp); });
  sp.completions = {};
  return sp;
}

uint32_t SyncPoints::LocalEdge(uint64_t global) const {
  if (global_edge.empty()) {
    CW_CHECK(global < edges.size());
    return static_cast<uint32_t>(global);
  }
  auto it = std::lower_bound(global_edge.begin(), global_edge.end(), global);
  CW_CHECK(it != global_edge.end() && *it == global);
  return static_cast<uint32_t>(it - global_edge.begin());
}

uint32_t SyncPoints::GroupMemberOf(uint32_t group, uint32_t location) const {
  const SyncGroup& g = groups[group];
  if (group_covers_all[group]) {
    uint32_t index = participant_index[location];
    return index == kNone ? kNone : g.first_member + index;
  }
  auto begin = group_members.begin() + g.first_member;
  auto end = begin + g.member_count;
  auto it = std::lower_bound(begin, end, location,
                             [](const GroupMember& m, uint32_t loc) { return m.location < loc; });
  return it != end && it->location == location ? static_cast<uint32_t>(it - group_members.begin())
                                               : kNone;
}

void SyncPoints::TakeCut(const LocationSyncPoints& l, const SyncRole& r, TimeVector& time) {
  uint32_t callpath = CutPath(l, r);
  if (callpath == kNone) return;
  auto it = std::lower_bound(time.begin(), time.end(), callpath,
                             [](const CallpathTicks& e, uint32_t cp) { return e.callpath < cp; });
  if (it == time.end() || it->callpath != callpath) return;
  it->ticks -= std::min(it->ticks, r.cut);
  if (it->ticks == 0) time.erase(it);
}

}  // namespace cw::analysis
