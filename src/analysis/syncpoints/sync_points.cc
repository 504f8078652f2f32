#include "analysis/syncpoints/sync_points.h"

#include <algorithm>
#include <limits>
#include <string>

#include "base/flat_hash_map.h"
#include "base/parallel.h"

namespace cw::analysis {
namespace {

using trace::EventKind;
using trace::kNone;

int64_t ExitOf(const trace::LocationEvents& ev, uint32_t call) {
  uint32_t leave = ev.kind(call) == EventKind::kEnter ? ev.pair(call) : kNone;
  return static_cast<int64_t>(ev.time(leave == kNone ? call : leave));
}

// The call that holds `event` (its Enter), or the event itself outside every region.
uint32_t CallOf(const trace::LocationEvents& ev, uint32_t event) {
  if (event == kNone || event >= ev.size()) return kNone;
  if (ev.kind(event) == EventKind::kEnter) return event;
  uint32_t enter = ev.pair(event);
  return enter == kNone ? event : enter;
}

std::vector<bool> FindParticipants(const trace::Trace& trace) {
  const uint32_t n = trace.location_count();
  std::vector<bool> participant(n, false);
  std::vector<bool> group_taken(trace.defs.location_groups.size() + 1, false);
  for (uint32_t l = 0; l < n; ++l) {
    const trace::Location& loc = trace.defs.locations[l];
    if (loc.type != trace::LocationType::kCpuThread && loc.type != trace::LocationType::kUnknown)
      continue;
    if (loc.group == kNone || loc.group >= trace.defs.location_groups.size()) {
      participant[l] = true;
      continue;
    }
    if (group_taken[loc.group]) continue;
    group_taken[loc.group] = true;
    participant[l] = true;
  }
  return participant;
}

// Orders locations for "lowest rank on ties": by MPI rank, then by index.
uint64_t RankKey(const trace::Trace& trace, uint32_t location) {
  uint32_t rank = trace.defs.RankOfLocation(location);
  return (static_cast<uint64_t>(rank) << 32) | location;
}

AnalysisWindow FindWindow(const trace::Trace& trace, const SyncEdges& sync,
                          const std::vector<uint32_t>& participants) {
  AnalysisWindow w;
  bool first = true;
  int64_t latest_end = 0;
  for (uint32_t l : participants) {
    const trace::LocationEvents& ev = trace.location(l);
    if (ev.empty()) continue;
    uint32_t init = l < sync.init_call.size() ? sync.init_call[l] : kNone;
    uint32_t fin = l < sync.finalize_call.size() ? sync.finalize_call[l] : kNone;
    int64_t arrive = static_cast<int64_t>(init != kNone ? ev.time(init) : ev.first_time());
    int64_t leave = static_cast<int64_t>(fin != kNone ? ev.time(fin) : ev.last_time());
    if (first || arrive > w.begin) w.begin = arrive;
    if (first || leave > latest_end ||
        (leave == latest_end && RankKey(trace, l) < RankKey(trace, w.end_location))) {
      latest_end = leave;
      w.end_location = l;
    }
    first = false;
  }
  w.end = std::max(latest_end, w.begin);
  return w;
}

// Finds, on one location, where the interval of every edge starts: the previous role that
// synchronised the location with the edge's partner.
class IntervalStarts {
 public:
  explicit IntervalStarts(const SyncPoints& sp) : sp_(sp) {}

  void Run(uint32_t location, std::vector<EdgeEnds>& ends) {
    const std::vector<SyncRole>& roles = sp_.locations[location].roles;
    previous_in_key_.assign(roles.size(), kNone);
    for (uint32_t r = 0; r < roles.size(); ++r) {
      const SyncRole& role = roles[r];
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
      const WaitEdge& edge = sp_.edges[role.id];
      uint32_t partner = role.kind == RoleKind::kWaiter ? edge.delayer : edge.waiter;
      uint32_t start = Previous(roles, partner);
      if (role.kind == RoleKind::kWaiter) {
        ends[role.id].waiter_start = start;
      } else {
        ends[role.id].delayer_start = start;
      }
      last_with_.Insert(partner, r);
    }
  }

 private:
  bool Contains(uint32_t group, uint32_t location) const {
    return sp_.GroupMemberOf(group, location) != kNone;
  }

  uint32_t Previous(const std::vector<SyncRole>& roles, uint32_t partner) const {
    const uint32_t* pair = last_with_.Find(partner);
    uint32_t best = pair == nullptr ? kNone : *pair;
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
  const SyncPoints& sp_;
  FlatHashMap<uint32_t, uint32_t> last_with_;     // partner -> role
  FlatHashMap<uint32_t, uint32_t> latest_group_;  // group key -> role
  std::vector<uint32_t> keys_;
  std::vector<uint32_t> previous_in_key_;  // per group role: the previous one with its key
};

}  // namespace

SyncPoints BuildSyncPoints(const trace::Trace& trace, const SyncEdges& sync, unsigned threads) {
  SyncPoints sp;
  sp.source = &trace;
  const uint32_t n = trace.location_count();
  sp.is_participant = FindParticipants(trace);
  for (uint32_t l = 0; l < n; ++l) {
    if (sp.is_participant[l]) sp.participants.push_back(l);
  }
  sp.window = FindWindow(trace, sync, sp.participants);
  sp.locations.resize(n);

  // Edges between participants, at most one wait per call (the first one found).
  std::vector<FlatHashMap<uint32_t, uint32_t>> waited_calls(n);
  std::vector<std::pair<uint32_t, uint32_t>> edge_calls;  // (waiter call, delayer call)
  for (const WaitEdge& e : sync.edges) {
    bool followed = e.waiter < n && e.delayer < n && e.waiter != e.delayer && e.wait > 0 &&
                    sp.is_participant[e.waiter] && sp.is_participant[e.delayer];
    uint32_t wcall = followed ? CallOf(trace.location(e.waiter), e.waiter_event) : kNone;
    uint32_t dcall = followed ? CallOf(trace.location(e.delayer), e.delayer_event) : kNone;
    followed = followed && wcall != kNone && dcall != kNone &&
               waited_calls[e.waiter].Find(wcall) == nullptr;
    if (!followed) {
      sp.unfollowed_wait[static_cast<int>(e.pattern)] += e.wait;
      sp.diagnostics.Report(kUnfollowedWait, "location " + std::to_string(e.waiter) + " event " +
                                                 std::to_string(e.waiter_event));
      continue;
    }
    waited_calls[e.waiter].Insert(wcall, 1);
    sp.edges.push_back(e);
    edge_calls.emplace_back(wcall, dcall);
  }
  sp.ends.resize(sp.edges.size());

  // Groups, restricted to participants.
  sp.group_index_offsets.push_back(0);
  for (const SyncGroup& g : sync.groups) {
    SyncGroup kept{g.key, static_cast<uint32_t>(sp.group_members.size()), 0};
    for (uint32_t k = 0; k < g.member_count; ++k) {
      const GroupMember& m = sync.group_members[g.first_member + k];
      if (m.location >= n || !sp.is_participant[m.location]) continue;
      uint32_t call = CallOf(trace.location(m.location), m.event);
      if (call == kNone) continue;
      sp.group_members.push_back(GroupMember{m.location, call});
      ++kept.member_count;
    }
    if (kept.member_count < 2) {
      sp.group_members.resize(kept.first_member);
      continue;
    }
    sp.groups.push_back(kept);
    for (uint32_t k = 0; k < kept.member_count; ++k)
      sp.group_by_location.push_back(kept.first_member + k);
    std::sort(sp.group_by_location.end() - kept.member_count, sp.group_by_location.end(),
              [&](uint32_t a, uint32_t b) {
                return sp.group_members[a].location < sp.group_members[b].location;
              });
    sp.group_index_offsets.push_back(static_cast<uint32_t>(sp.group_by_location.size()));
  }
  sp.group_member_exit.assign(sp.group_members.size(), 0);

  // Roles per location.
  for (uint32_t e = 0; e < sp.edges.size(); ++e) {
    sp.locations[sp.edges[e].waiter].roles.push_back(
        SyncRole{edge_calls[e].first, 0, RoleKind::kWaiter, e});
    sp.locations[sp.edges[e].delayer].roles.push_back(
        SyncRole{edge_calls[e].second, 0, RoleKind::kDelayer, e});
  }
  // A group role's id is the group; the member index is found again through GroupMemberOf.
  for (uint32_t g = 0; g < sp.groups.size(); ++g) {
    for (uint32_t k = 0; k < sp.groups[g].member_count; ++k) {
      const GroupMember& m = sp.group_members[sp.groups[g].first_member + k];
      sp.locations[m.location].roles.push_back(SyncRole{m.event, 0, RoleKind::kGroup, g});
    }
  }

  ParallelFor(n, threads, [&](size_t index) {
    uint32_t loc = static_cast<uint32_t>(index);
    if (!sp.is_participant[loc]) return;
    LocationSyncPoints& l = sp.locations[loc];
    const trace::LocationEvents& ev = trace.location(loc);
    std::sort(l.roles.begin(), l.roles.end(), [](const SyncRole& a, const SyncRole& b) {
      if (a.call != b.call) return a.call < b.call;
      if (a.kind != b.kind) return a.kind < b.kind;
      return a.id < b.id;
    });
    std::vector<int64_t> waits;
    for (uint32_t r = 0; r < l.roles.size(); ++r) {
      SyncRole& role = l.roles[r];
      if (l.calls.empty() || l.calls.back() != role.call) {
        l.calls.push_back(role.call);
        l.call_time.push_back(static_cast<int64_t>(ev.time(role.call)));
        l.call_exit.push_back(ExitOf(ev, role.call));
        l.call_wait.push_back(kNone);
        l.call_role.push_back(r);
        waits.push_back(0);
      }
      role.activity = static_cast<uint32_t>(l.calls.size() - 1);
      if (role.kind == RoleKind::kWaiter) {
        l.call_wait.back() = role.id;
        waits.back() = sp.edges[role.id].wait;
        sp.ends[role.id].waiter_role = r;
        sp.ends[role.id].waiter_exit = l.call_exit.back();
      } else if (role.kind == RoleKind::kDelayer) {
        sp.ends[role.id].delayer_role = r;
        sp.ends[role.id].delayer_exit = l.call_exit.back();
      } else {
        sp.group_member_exit[sp.GroupMemberOf(role.id, loc)] = l.call_exit.back();
      }
    }
    l.time =
        TimeMap::Build(trace, trace.location(loc), l.calls, waits, sp.window.begin, sp.window.end);
    IntervalStarts starts(sp);
    starts.Run(loc, sp.ends);
  });
  return sp;
}

BackwardPlan::BackwardPlan(const SyncPoints& sp)
    : schedule(static_cast<uint32_t>(sp.locations.size()), static_cast<uint32_t>(sp.edges.size())),
      step_role(sp.locations.size()) {
  for (uint32_t loc : sp.participants) {
    const std::vector<SyncRole>& roles = sp.locations[loc].roles;
    for (uint32_t r = static_cast<uint32_t>(roles.size()); r > 0; --r) {
      const SyncRole& role = roles[r - 1];
      if (role.kind == RoleKind::kGroup) continue;
      if (role.kind == RoleKind::kDelayer) {
        schedule.AddStep(loc, {role.id});
      } else {
        schedule.AddStep(loc, {});
      }
      step_role[loc].push_back(r - 1);
    }
  }
}

uint32_t SyncPoints::GroupMemberOf(uint32_t group, uint32_t location) const {
  auto begin = group_by_location.begin() + group_index_offsets[group];
  auto end = group_by_location.begin() + group_index_offsets[group + 1];
  auto it = std::lower_bound(begin, end, location, [&](uint32_t member, uint32_t loc) {
    return group_members[member].location < loc;
  });
  return it != end && group_members[*it].location == location ? *it : kNone;
}

void SyncPoints::CutIntervalStart(uint32_t location, uint32_t start_role, uint32_t partner,
                                  uint32_t end_activity, TimeVector& out) const {
  if (start_role == kNone) return;
  const LocationSyncPoints& l = locations[location];
  const SyncRole& start = l.roles[start_role];
  const uint32_t a = start.activity;
  if (a >= end_activity) return;
  // The interval begins when the first of the pair left the start call; before that moment
  // this side's call was synchronising with the partner, not running ahead of it.
  int64_t partner_exit = 0;
  if (start.kind == RoleKind::kGroup) {
    uint32_t member = GroupMemberOf(start.id, partner);
    partner_exit = member == kNone ? l.call_exit[a] : group_member_exit[member];
  } else {
    const EdgeEnds& e = ends[start.id];
    partner_exit = start.kind == RoleKind::kWaiter ? e.delayer_exit : e.waiter_exit;
  }
  const int64_t moment = std::min(l.call_exit[a], partner_exit);
  const uint32_t wait_edge = l.call_wait[a];
  int64_t from = l.call_time[a] + (wait_edge == kNone ? 0 : edges[wait_edge].wait);
  from = std::max(from, window.begin);
  const int64_t to = std::min({moment, l.call_exit[a], window.end});
  if (to <= from) return;
  const trace::LocationEvents& ev = source->location(location);
  uint32_t call = l.calls[a];
  if (ev.kind(call) != EventKind::kEnter) return;
  uint32_t callpath = ev.ref(call);
  auto it = std::lower_bound(out.begin(), out.end(), callpath,
                             [](const CallpathTicks& e, uint32_t cp) { return e.callpath < cp; });
  if (it == out.end() || it->callpath != callpath) return;
  it->ticks -= std::min(it->ticks, to - from);
  if (it->ticks == 0) out.erase(it);
}

}  // namespace cw::analysis
