#include "analysis/waitstates/internal/omp_patterns.h"

#include <algorithm>
#include <limits>
#include <map>
#include <utility>

#include "base/parallel.h"

namespace cw::analysis::internal {
namespace {

using trace::EventKind;
using trace::kNone;
using trace::Paradigm;
using trace::RegionRole;

// A team a thread forked: from its ThreadFork to its ThreadJoin (kNever: never joined).
struct Fork {
  uint64_t begin = 0;
  uint64_t end = kNever;
  uint32_t event = kNone;  // the ThreadFork
};

// A ThreadTeamBegin (thread teams are OpenMP's): where a thread started to work in a team.
struct TeamBegin {
  uint64_t time = 0;
  uint32_t event = kNone;
};

struct BarrierEnter {
  uint64_t time = 0;
  uint32_t callpath = kNone;
  uint32_t is_explicit = 0;  // 1: an explicit barrier, 0: an implicit one
  uint32_t event = kNone;    // the barrier's Enter
};

// A ThreadAcquireLock of the OpenMP paradigm, in the construct or routine entered at `entered`.
struct Acquisition {
  uint32_t lock = 0;
  uint32_t order = 0;
  uint64_t entered = 0;
  uint32_t callpath = kNone;
  uint32_t critical = 0;   // 1: a critical section, 0: an OpenMP lock routine
  uint32_t event = kNone;  // the ThreadAcquireLock
};

struct Release {
  uint32_t lock = 0;
  uint32_t order = 0;
  uint64_t time = 0;
  uint32_t event = kNone;  // the ThreadReleaseLock
};

// A visit of an OpenMP parallel region: when it was entered and left.
struct ParallelVisit {
  uint64_t enter = 0;
  uint64_t leave = 0;
  uint32_t callpath = kNone;
};

struct OmpRecords {
  std::vector<Fork> forks;  // the outermost teams this thread forked
  std::vector<TeamBegin> team_begins;
  std::vector<ParallelVisit> parallels;
  std::vector<BarrierEnter> barriers;
  std::vector<Acquisition> acquisitions;
  std::vector<Release> releases;
};

// The region of `callpath` if it is an OpenMP construct or routine, else nullptr.
const trace::Region* OmpRegion(const trace::Trace& trace, uint32_t callpath) {
  const uint32_t region = trace.CallpathRegion(callpath);
  if (region >= trace.defs.regions.size()) return nullptr;
  const trace::Region& r = trace.defs.regions[region];
  return r.paradigm == Paradigm::kOpenMp ? &r : nullptr;
}

void AddLockRecord(const trace::Trace& trace, const trace::LocationEvents& ev, uint32_t i,
                   OmpRecords& out) {
  const trace::ThreadPayload& p = ev.thread(i);
  if (p.model != Paradigm::kOpenMp) return;
  if (ev.kind(i) == EventKind::kThreadReleaseLock) {
    out.releases.push_back(Release{p.lock, p.count, ev.time(i), i});
    return;
  }
  const CallTimes call = CallOf(ev, i);
  if (call.enter == kNone) return;  // outside every region: no construct to wait in
  const uint32_t callpath = ev.ref(call.enter);
  const trace::Region* region = OmpRegion(trace, callpath);
  const bool critical = region != nullptr && (region->role == RegionRole::kCritical ||
                                              region->role == RegionRole::kCriticalSblock);
  out.acquisitions.push_back(
      Acquisition{p.lock, p.count, call.entered, callpath, critical ? 1u : 0u, i});
}

OmpRecords ScanOmpLocation(const Context& ctx, uint32_t location) {
  const trace::LocationEvents& ev = ctx.trace.location(location);
  OmpRecords out;
  int depth = 0;  // of forks: a team forked inside a team is nested
  std::span<const EventKind> kinds = ev.kinds();
  for (uint32_t i = 0; i < kinds.size(); ++i) {
    switch (kinds[i]) {
      case EventKind::kThreadFork:
        if (ev.thread(i).model != Paradigm::kOpenMp) break;
        if (depth++ == 0) out.forks.push_back(Fork{ev.time(i), kNever, i});
        break;
      case EventKind::kThreadTeamBegin:  // names its team, not a paradigm: OpenMP's alone
        out.team_begins.push_back({ev.time(i), i});
        break;
      case EventKind::kThreadJoin:
        if (ev.thread(i).model != Paradigm::kOpenMp || depth == 0) break;
        if (--depth == 0) out.forks.back().end = ev.time(i);
        break;
      case EventKind::kEnter: {
        const trace::Region* region = OmpRegion(ctx.trace, ev.ref(i));
        if (region == nullptr) break;
        if (region->role == RegionRole::kParallel) {
          out.parallels.push_back(ParallelVisit{ev.time(i), ev.time(ev.pair(i)), ev.ref(i)});
        }
        if (region->role == RegionRole::kBarrier || region->role == RegionRole::kImplicitBarrier) {
          out.barriers.push_back(BarrierEnter{ev.time(i), ev.ref(i),
                                              region->role == RegionRole::kBarrier ? 1u : 0u, i});
        }
        break;
      }
      case EventKind::kThreadAcquireLock:
      case EventKind::kThreadReleaseLock:
        AddLockRecord(ctx.trace, ev, i, out);
        break;
      default:
        break;
    }
  }
  return out;
}

// Whether a thread other than `master` forked a team inside `team` (nested parallelism).
bool HasNestedTeam(const std::vector<uint32_t>& threads, uint32_t master, const Fork& team,
                   const std::vector<OmpRecords>& records) {
  for (uint32_t t : threads) {
    if (t == master) continue;
    for (const Fork& f : records[t].forks) {
      if (f.begin >= team.begin && f.begin <= team.end) return true;
    }
  }
  return false;
}

// Appends a group of `members` (location, event) with OpenMP's key, if it synchronises anyone.
void AddGroup(std::span<const GroupMember> members, uint32_t leader, OmpGroups& groups) {
  if (members.size() < 2) return;
  SyncGroup g;
  g.key = kOmpTeamGroupKey;
  g.first_member = static_cast<uint32_t>(groups.members.size());
  g.member_count = static_cast<uint32_t>(members.size());
  g.origin = (uint64_t{kOmpTeamGroupKey} << 32) | groups.groups.size();
  g.leader = leader;
  groups.groups.push_back(g);
  groups.members.insert(groups.members.end(), members.begin(), members.end());
}

// The start of a team as a synchronisation of its threads: the master at its ThreadFork, every
// other member at its ThreadTeamBegin in the team's interval.
void AddTeamStart(const std::vector<uint32_t>& threads, uint32_t master, const Fork& team,
                  const std::vector<OmpRecords>& records, OmpGroups& groups) {
  std::vector<GroupMember> members{GroupMember{master, team.event}};
  for (uint32_t t : threads) {
    if (t == master) continue;
    const std::vector<TeamBegin>& b = records[t].team_begins;
    auto first = std::lower_bound(b.begin(), b.end(), team.begin,
                                  [](const TeamBegin& e, uint64_t v) { return e.time < v; });
    if (first != b.end() && first->time <= team.end) members.push_back({t, first->event});
  }
  AddGroup(members, master, groups);
}

// Wait at Barrier in the teams `master` forked; with `groups`, each team's start and barrier
// instances as synchronisations of its threads, and each wait's partner event.
void BarrierWaits(const std::vector<uint32_t>& threads, uint32_t master,
                  const std::vector<OmpRecords>& records, std::vector<std::vector<OmpWait>>& out,
                  OmpGroups* groups) {
  struct Member {
    uint32_t location;
    std::span<const BarrierEnter> barriers;  // in the team's interval
  };
  for (const Fork& team : records[master].forks) {
    if (HasNestedTeam(threads, master, team, records)) continue;
    if (groups != nullptr) AddTeamStart(threads, master, team, records, *groups);
    std::vector<Member> members;
    size_t instances = 0;
    for (uint32_t t : threads) {
      const std::vector<BarrierEnter>& b = records[t].barriers;
      auto first = std::lower_bound(b.begin(), b.end(), team.begin,
                                    [](const BarrierEnter& e, uint64_t v) { return e.time < v; });
      auto last = std::upper_bound(first, b.end(), team.end,
                                   [](uint64_t v, const BarrierEnter& e) { return v < e.time; });
      if (first == last) continue;
      members.push_back(
          Member{t, std::span<const BarrierEnter>(&*first, static_cast<size_t>(last - first))});
      instances = std::max(instances, members.back().barriers.size());
    }
    std::vector<GroupMember> instance_members;
    for (size_t k = 0; k < instances; ++k) {
      const BarrierEnter* latest = nullptr;
      uint32_t last_thread = kNone;
      instance_members.clear();
      for (const Member& m : members) {
        if (k >= m.barriers.size()) continue;
        instance_members.push_back({m.location, m.barriers[k].event});
        if (latest == nullptr || m.barriers[k].time > latest->time) {
          latest = &m.barriers[k];
          last_thread = m.location;
        }
      }
      if (groups != nullptr && instance_members.size() >= 2) {
        AddGroup(instance_members, kNone, *groups);
        for (const GroupMember& m : instance_members)
          groups->barriers[m.location].push_back(m.event);
      }
      for (const Member& m : members) {
        if (k >= m.barriers.size() || m.barriers[k].time >= latest->time) continue;
        const BarrierEnter& e = m.barriers[k];
        out[m.location].push_back(
            OmpWait{e.is_explicit != 0 ? MetricId::kOmpEbarrierWait : MetricId::kOmpIbarrierWait,
                    e.callpath, e.time, static_cast<int64_t>(latest->time - e.time), last_thread,
                    e.event, latest->event});
      }
    }
  }
}

// Thread management: each member's parallel region in the teams `master` forked, against the
// team's fork and join.
void Management(const std::vector<uint32_t>& threads, uint32_t master,
                const std::vector<OmpRecords>& records,
                std::vector<std::vector<OmpManagement>>& out) {
  for (const Fork& team : records[master].forks) {
    if (HasNestedTeam(threads, master, team, records)) continue;
    for (uint32_t t : threads) {
      for (const ParallelVisit& v : records[t].parallels) {
        if (v.enter < team.begin || v.enter > team.end) continue;
        const int64_t join =
            team.end == kNever || team.end < v.leave ? 0 : static_cast<int64_t>(team.end - v.leave);
        out[t].push_back(OmpManagement{v.callpath, static_cast<int64_t>(v.enter - team.begin), join,
                                       t == master});
      }
    }
  }
}

// Lock Contention: each acquisition waited for the release of the one before it, from the
// Enter of its construct or routine to that release.
void LockWaits(const std::vector<uint32_t>& threads, const std::vector<OmpRecords>& records,
               std::vector<std::vector<OmpWait>>& out) {
  struct Holder {
    const Release* release;
    uint32_t thread;
  };
  std::map<std::pair<uint32_t, uint32_t>, Holder> released;  // by (lock, order)
  for (uint32_t t : threads) {
    for (const Release& r : records[t].releases) released[{r.lock, r.order}] = {&r, t};
  }
  for (uint32_t t : threads) {
    for (const Acquisition& a : records[t].acquisitions) {
      if (a.order <= 1) continue;
      auto before = released.find({a.lock, a.order - 1});
      if (before == released.end() || before->second.release->time <= a.entered) continue;
      const Release& r = *before->second.release;
      out[t].push_back(OmpWait{
          a.critical != 0 ? MetricId::kOmpLockContentionCritical : MetricId::kOmpLockContentionApi,
          a.callpath, a.entered, static_cast<int64_t>(r.time - a.entered), before->second.thread,
          a.event, r.event});
    }
  }
}

}  // namespace

std::vector<std::vector<uint32_t>> ThreadsOfProcesses(const trace::Definitions& defs) {
  std::map<uint32_t, std::vector<uint32_t>> by_group;
  for (uint32_t l = 0; l < defs.locations.size(); ++l) {
    const trace::LocationType type = defs.locations[l].type;
    if (type != trace::LocationType::kCpuThread && type != trace::LocationType::kUnknown) continue;
    by_group[defs.locations[l].group].push_back(l);
  }
  std::vector<std::vector<uint32_t>> processes;
  for (auto& [group, threads] : by_group) processes.push_back(std::move(threads));
  return processes;
}

bool HasOpenMp(const trace::Definitions& defs) {
  return std::any_of(defs.regions.begin(), defs.regions.end(),
                     [](const trace::Region& r) { return r.paradigm == Paradigm::kOpenMp; });
}

OmpOutcomes EvaluateOmpWaits(const Context& ctx, unsigned threads) {
  const uint32_t n = ctx.trace.location_count();
  OmpOutcomes outcomes;
  std::vector<std::vector<OmpWait>>& out = outcomes.waits;
  out.resize(n);
  outcomes.management.resize(n);
  if (!HasOpenMp(ctx.trace.defs)) return outcomes;
  if (ctx.emit_edges) outcomes.groups.barriers.resize(n);
  std::vector<OmpRecords> records(n);
  ParallelFor(n, threads, [&](size_t loc) {
    if (ctx.Holds(static_cast<uint32_t>(loc)))
      records[loc] = ScanOmpLocation(ctx, static_cast<uint32_t>(loc));
  });
  // Distributed, a process's threads are all on one rank (trace/partition.h).
  for (const std::vector<uint32_t>& process : ThreadsOfProcesses(ctx.trace.defs)) {
    // The master: the first thread that forked a team.
    auto master = std::find_if(process.begin(), process.end(),
                               [&](uint32_t t) { return !records[t].forks.empty(); });
    if (master != process.end()) {
      const bool grouped = ctx.emit_edges && ctx.Holds(*master);
      BarrierWaits(process, *master, records, out, grouped ? &outcomes.groups : nullptr);
      Management(process, *master, records, outcomes.management);
    }
    LockWaits(process, records, out);
  }
  for (uint32_t loc = 0; loc < n; ++loc) {
    if (ctx.Holds(loc)) continue;
    out[loc].clear();
    outcomes.management[loc].clear();
  }
  return outcomes;
}

void AppendOmpGroups(OmpOutcomes& outcomes, SyncEdges& sync) {
  const auto offset = static_cast<uint32_t>(sync.group_members.size());
  for (SyncGroup g : outcomes.groups.groups) {
    g.first_member += offset;
    sync.groups.push_back(g);
  }
  sync.group_members.insert(sync.group_members.end(), outcomes.groups.members.begin(),
                            outcomes.groups.members.end());
  outcomes.groups = {};
}

void ApplyOmpOutcomes(const Context& ctx, const OmpOutcomes& outcomes, uint32_t location,
                      LocationOutput& out) {
  for (const OmpWait& w : outcomes.waits[location]) {
    const auto value = static_cast<double>(w.value);
    out.severities.Add(w.metric, w.callpath, value);
    out.instances.Offer(Instance{w.metric, w.callpath, location, w.entered, value, w.partner});
    if (ctx.emit_edges && w.event != kNone) {
      const bool lock = w.metric == MetricId::kOmpLockContentionCritical ||
                        w.metric == MetricId::kOmpLockContentionApi;
      out.edges.push_back(WaitEdge{location, w.event, w.partner, w.partner_event, w.value,
                                   lock ? SyncPattern::kOmpLock : SyncPattern::kOmpBarrier});
    }
  }
  if (ctx.interval_completions && location < outcomes.groups.barriers.size()) {
    for (uint32_t event : outcomes.groups.barriers[location]) {
      out.completions.push_back(EventCompletion{event, 0});
    }
  }
  for (const OmpManagement& m : outcomes.management[location]) {
    const auto fork = static_cast<double>(m.fork);
    const auto join = static_cast<double>(m.join);
    AddWithAncestors(out.severities, MetricId::kOmpFork, m.callpath, fork);
    AddWithAncestors(out.severities, MetricId::kOmpManagement, m.callpath, join);
    const uint32_t forked_in = ctx.trace.call_tree.parent(m.callpath);
    if (!m.master || forked_in == kNone) continue;
    // The master's own fork and join were its exclusive time where it forked (never more than
    // that category holds there: a damaged trace cannot make it negative).
    const MetricId category = ctx.time_category[ctx.trace.CallpathRegion(forked_in)];
    const double moved =
        std::min(fork + join, std::max(0.0, out.severities.Get(category, forked_in)));
    AddWithAncestors(out.severities, category, forked_in, -moved);
  }
}

}  // namespace cw::analysis::internal
