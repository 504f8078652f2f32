#include "analysis/critpath/critical_path.h"

#include <algorithm>
#include <memory>
#include <string>

#include "analysis/critpath/scalasca_impact.h"
#include "base/check.h"
#include "base/parallel.h"
#include "comm/wire.h"

namespace cw::analysis {
namespace {

using trace::kNone;

// Follows the path backwards. Only one location holds it at a time, so instead of a replay over
// every synchronisation (Scalasca's token passing, in which every step checks for the token) it
// walks from holder to holder: on the current location, back to its latest wait before the
// current point; there it keeps the non-waiting part of the waiting call and jumps to the
// delayer's role of that wait. An OpenMP worker's path also ends at the start of its team: it
// goes on from its master's fork (as Scalasca's path does), the time between the fork and the
// worker's start being its time in the parallel region (TimeLead). Distributed, a rank walks while
// the path stays on its locations; where it jumps to another rank's, it hands the path over in one
// exchange of all ranks (a process's threads are on one rank: trace/partition.h).
class PathWalk {
 public:
  PathWalk(const trace::Trace& trace, const SyncPoints& sp, Semantics semantics,
           CriticalPathFacts& facts)
      : trace_(trace),
        sp_(sp),
        semantics_(semantics),
        facts_(facts),
        followed_(sp.edges.size(), false),
        followed_team_(sp.groups.size(), false) {
    facts_.on_path.assign(trace.location_count(), {});
    facts_.on_path_untracked.assign(trace.location_count(), 0);
    pending_.assign(trace.location_count(), {});
  }

  // Follows the path from the window's end back to its start, then sums what it collected.
  void Run() {
    Follow();
    for (uint32_t loc = 0; loc < pending_.size(); ++loc) Flush(loc);
  }

 private:
  void Follow() {
    const RankShare& share = sp_.share;
    Position at;
    bool holding = share.Holds(sp_.window.end_location);
    if (holding) {
      at.location = sp_.window.end_location;
      const LocationSyncPoints& l = sp_.locations[at.location];
      at.segment_end = l.time.boundary_count() - 1;  // the end of the window
      at.before = static_cast<uint32_t>(l.roles.size());
    }
    if (!share.distributed()) {
      Walk(at);
      return;
    }
    comm::Communicator& comm = *share.comm;
    constexpr uint8_t kHandOver = 1, kEnded = 2;
    while (true) {
      std::vector<comm::Bytes> out(comm.size());
      if (holding) {
        const uint32_t jump = Walk(at);
        comm::ByteWriter w;
        if (jump == kNone) {
          w.Put(kEnded);
          out.assign(comm.size(), w.Take());
        } else {
          w.Put(kHandOver);
          w.PutVarint(sp_.GlobalEdge(jump));
          out[sp_.other_rank[jump]] = w.Take();
        }
        holding = false;
      }
      bool ended = false;
      for (const comm::Bytes& bytes : comm.Exchange(std::move(out))) {
        if (bytes.empty()) continue;
        comm::ByteReader in(bytes);
        if (in.Get<uint8_t>() == kEnded) {
          ended = true;
          continue;
        }
        const uint32_t edge = sp_.LocalEdge(in.GetVarint());
        CW_CHECK(share.Holds(sp_.edges[edge].delayer));
        holding = true;
        at = Arrive(edge);
      }
      if (ended) return;
    }
  }

  // Where the walk is: on `location`, looking for a wait before role `before`; the path segment
  // being closed ends at time-map boundary `segment_end`.
  struct Position {
    uint32_t location = kNone;
    uint32_t before = 0;
    uint32_t segment_end = 0;
  };

  Position Arrive(uint32_t edge) const {
    Position at;
    at.location = sp_.edges[edge].delayer;
    at.before = sp_.ends[edge].delayer_role;
    at.segment_end = sp_.locations[at.location].roles[at.before].activity + 1;
    return at;
  }

  // Walks from `at` until the path ends (returns kNone) or jumps to a location this rank does
  // not hold (returns the edge it jumps along). In a consistent trace every jump
  // goes back in time; a trace that contradicts itself could lead in a circle, so no waiter role
  // is followed twice.
  uint32_t Walk(Position at) {
    while (true) {
      const LocationSyncPoints& l = sp_.locations[at.location];
      uint32_t role = at.before;
      while (role > 0 && !Jumps(at.location, l.roles[role - 1])) --role;
      if (role == 0) {
        Close(at.location, 0, BoundaryTime(l, 0), at.segment_end);
        if (semantics_ == Semantics::kScalasca) ExtendToInit(at.location);
        return kNone;
      }
      const SyncRole& r = l.roles[role - 1];
      if (r.kind == RoleKind::kGroup) {
        if (followed_team_[r.id]) {
          facts_.diagnostics.Report(kPathCycle, "team start " + std::to_string(r.id));
          return kNone;
        }
        followed_team_[r.id] = true;
        at = FromTeamStart(at, r);
        continue;
      }
      Close(at.location, r.activity + 1, BoundaryTime(l, r.activity + 1) + r.wait, at.segment_end);
      if (followed_[r.id]) {
        facts_.diagnostics.Report(kPathCycle, "edge " + std::to_string(sp_.GlobalEdge(r.id)));
        return kNone;
      }
      followed_[r.id] = true;
      if (sp_.Crosses(r.id)) return r.id;
      at = Arrive(r.id);
    }
  }

  // Where the walk leaves a location: at a wait, or at the start of an OpenMP team on a thread
  // other than its master.
  bool Jumps(uint32_t location, const SyncRole& r) const {
    if (r.kind == RoleKind::kWaiter) return true;
    if (r.kind != RoleKind::kGroup) return false;
    const uint32_t leader = sp_.groups[r.id].leader;
    return leader != kNone && leader != location && LeaderRole(r.id) != kNone;
  }

  // The index of the role of group `g` on its leader (kNone where a damaged trace left the leader
  // out of its own team, or on another rank).
  uint32_t LeaderRole(uint32_t g) const {
    const uint32_t leader = sp_.groups[g].leader;
    const uint32_t member = sp_.GroupMemberOf(g, leader);
    if (member == kNone || !sp_.share.Holds(leader)) return kNone;
    const LocationSyncPoints& m = sp_.locations[leader];
    const uint32_t event = sp_.group_members[member].event;
    auto call = std::lower_bound(m.calls.begin(), m.calls.end(), event);
    if (call == m.calls.end() || *call != event) return kNone;
    const auto activity = static_cast<uint32_t>(call - m.calls.begin());
    auto role = std::lower_bound(m.roles.begin(), m.roles.end(), activity,
                                 [](const SyncRole& x, uint32_t a) { return x.activity < a; });
    for (; role != m.roles.end() && role->activity == activity; ++role) {
      if (role->kind == RoleKind::kGroup && role->id == g) {
        return static_cast<uint32_t>(role - m.roles.begin());
      }
    }
    return kNone;
  }

  // Closes the worker's stretch from the team start `r` (from its master's fork on) and goes on
  // at the master's fork.
  Position FromTeamStart(const Position& at, const SyncRole& r) {
    const LocationSyncPoints& worker = sp_.locations[at.location];
    const uint32_t master = sp_.groups[r.id].leader;
    const LocationSyncPoints& m = sp_.locations[master];
    const uint32_t role = LeaderRole(r.id);  // Jumps found it
    const uint32_t activity = m.roles[role].activity;

    // The worker's stretch from its team start holds its wake-up since the fork (TimeLead).
    const int64_t forked =
        std::min(BoundaryTime(m, activity + 1), BoundaryTime(worker, r.activity + 1));
    Close(at.location, r.activity + 1, forked, at.segment_end);
    Position next;
    next.location = master;
    next.before = role;
    next.segment_end = activity + 1;
    return next;
  }

  int64_t BoundaryTime(const LocationSyncPoints& l, uint32_t boundary) const {
    if (boundary == 0) return sp_.window.begin;
    if (boundary > l.calls.size()) return sp_.window.end;
    return std::clamp(l.call_time[boundary - 1], sp_.window.begin, sp_.window.end);
  }

  // The path ran on `loc` from boundary `from` (at `from_time`) to boundary `to`.
  void Close(uint32_t loc, uint32_t from, int64_t from_time, uint32_t to) {
    const LocationSyncPoints& l = sp_.locations[loc];
    if (to < from) return;  // only where the clock condition fails
    part_.clear();          // Sum adds to what it is given
    l.time.Sum(from, to, part_);
    Collect(loc, part_);
    facts_.on_path_untracked[loc] += l.time.Untracked(from, to);
    int64_t end = BoundaryTime(l, to);
    int64_t begin = std::min(from_time, end);
    if (begin < end) facts_.segments.push_back(PathSegment{loc, begin, end});
  }

  // Scalasca's path begins at MPI_Init's Enter on the location where it ends up, not at the
  // window's begin: it also holds that process's time in MPI_Init before the last process
  // arrived there (its wait for the launch of the others).
  void ExtendToInit(uint32_t loc) {
    const uint32_t init = sp_.init_call[loc];
    if (init == kNone) return;
    const trace::LocationEvents& events = trace_.location(loc);
    const auto init_time = static_cast<int64_t>(events.time(init));
    if (init_time >= sp_.window.begin) return;
    const TimeMap before = TimeMap::Build(trace_, events, {}, {}, init_time, sp_.window.begin);
    part_.clear();
    before.Sum(0, 1, part_);
    Collect(loc, part_);
    facts_.on_path_untracked[loc] += before.Untracked(0, 1);
    facts_.segments.push_back(PathSegment{loc, init_time, sp_.window.begin});
  }

  // Adds a segment's time per call path to the location's. The segments are collected and summed
  // in batches: merged one by one into the location's sorted sums, a path of many segments over
  // a program of thousands of call paths would copy those sums once per segment.
  void Collect(uint32_t loc, const TimeVector& part) {
    TimeVector& pending = pending_[loc];
    pending.insert(pending.end(), part.begin(), part.end());
    if (pending.size() > std::max<size_t>(4096, 2 * facts_.on_path[loc].size())) Flush(loc);
  }

  void Flush(uint32_t loc) {
    TimeVector& pending = pending_[loc];
    if (pending.empty()) return;
    std::sort(pending.begin(), pending.end(), [](const CallpathTicks& a, const CallpathTicks& b) {
      return a.callpath < b.callpath;
    });
    TimeVector summed;
    for (const CallpathTicks& e : pending) {
      if (!summed.empty() && summed.back().callpath == e.callpath) {
        summed.back().ticks += e.ticks;
      } else {
        summed.push_back(e);
      }
    }
    // AddTimes keeps no zero sum: a call path whose time on the path sums to zero is left out.
    std::erase_if(summed, [](const CallpathTicks& e) { return e.ticks == 0; });
    AddTimes(summed, facts_.on_path[loc]);
    pending.clear();
  }

  const trace::Trace& trace_;
  const SyncPoints& sp_;
  const Semantics semantics_;
  CriticalPathFacts& facts_;
  std::vector<TimeVector> pending_;  // by location: segments' times not yet summed
  TimeVector part_;                  // one segment's
  std::vector<bool> followed_;       // by edge: its waiter role was followed
  std::vector<bool> followed_team_;  // by group: the path went from it to the team's master
};

double At(const TimeVector& v, uint32_t callpath) {
  auto it = std::lower_bound(v.begin(), v.end(), callpath,
                             [](const CallpathTicks& e, uint32_t cp) { return e.callpath < cp; });
  return it != v.end() && it->callpath == callpath ? static_cast<double>(it->ticks) : 0.0;
}

// The per-call-path quantities of the thesis, computed from the global critical-path profile
// and every process's own non-waiting time.
class ImpactCalculator {
 public:
  ImpactCalculator(const SyncPoints& sp, const CriticalPathFacts& facts, unsigned threads)
      : participants_(sp.participants),
        window_(sp.window),
        path_profile_(facts.on_path),
        own_(facts.own),
        own_untracked_(facts.own_untracked),
        threads_(threads) {
    for (uint32_t loc : participants_) AddTimes(path_profile_[loc], on_path_);
  }

  void Write(std::vector<LocationSeverities>& severities, CriticalPathResult& result) {
    const size_t k = on_path_.size();
    const double processes = static_cast<double>(participants_.size());
    // avg_p d_p(c) for the call paths on the path.
    std::vector<double> average(k, 0.0);
    for (uint32_t loc : participants_) {
      for (size_t i = 0; i < k; ++i) average[i] += At(own_[loc], on_path_[i].callpath);
    }
    for (double& a : average) a /= processes;

    // Imbalance costs of each process, then summed in location order.
    std::vector<std::vector<double>> intra(participants_.size()), inter(participants_.size());
    std::vector<double> unattributed(participants_.size(), 0.0);
    const double window = static_cast<double>(window_.length());
    ParallelFor(participants_.size(), threads_, [&](size_t p) {
      uint32_t loc = participants_[p];
      intra[p].assign(k, 0.0);
      inter[p].assign(k, 0.0);
      double own_total = 0;
      for (const CallpathTicks& e : own_[loc]) own_total += static_cast<double>(e.ticks);
      // Wait states and end-of-run idle; time outside every region is neither.
      double waiting = window - own_total - static_cast<double>(own_untracked_[loc]);
      std::vector<double> excess(k, 0.0);
      double excess_total = 0;
      for (size_t i = 0; i < k; ++i) {
        double d = At(own_[loc], on_path_[i].callpath);
        excess[i] = std::max(static_cast<double>(on_path_[i].ticks) - d, 0.0);
        excess_total += excess[i];
      }
      if (waiting <= 0) return;
      if (excess_total <= 0) {
        unattributed[p] = waiting;
        return;
      }
      for (size_t i = 0; i < k; ++i) {
        double cost = excess[i] / excess_total * waiting;
        bool runs_it = At(own_[loc], on_path_[i].callpath) > 0;
        (runs_it ? intra[p] : inter[p])[i] = cost;
      }
    });
    std::vector<double> intra_total(k, 0.0), inter_total(k, 0.0);
    for (size_t p = 0; p < participants_.size(); ++p) {
      result.untracked_time += own_untracked_[participants_[p]];
      for (size_t i = 0; i < k; ++i) {
        intra_total[i] += intra[p][i];
        inter_total[i] += inter[p][i];
      }
      result.unattributed_waiting += unattributed[p];
    }

    for (uint32_t loc : participants_) {
      LocationSeverities& sev = severities[loc];
      // Activity impact and non-critical activities: the location's own time.
      for (const CallpathTicks& e : own_[loc]) {
        double d = static_cast<double>(e.ticks);
        double on = At(on_path_, e.callpath);
        sev.AddWithAncestors(MetricId::kCriticalPathActivities, e.callpath, std::min(d, on));
        if (d > on) sev.AddWithAncestors(MetricId::kNonCriticalPathActivities, e.callpath, d - on);
      }
      // Per-call-path quantities, shared by the locations that carry the path.
      const TimeVector& mine = path_profile_[loc];
      for (const CallpathTicks& e : mine) {
        sev.Add(MetricId::kCriticalPath, e.callpath, static_cast<double>(e.ticks));
        size_t i = static_cast<size_t>(
            std::lower_bound(on_path_.begin(), on_path_.end(), e.callpath,
                             [](const CallpathTicks& x, uint32_t cp) { return x.callpath < cp; }) -
            on_path_.begin());
        double share = static_cast<double>(e.ticks) / static_cast<double>(on_path_[i].ticks);
        double imbalance = std::max(static_cast<double>(on_path_[i].ticks) - average[i], 0.0);
        if (imbalance > 0) sev.Add(MetricId::kCriticalPathImbalance, e.callpath, share * imbalance);
        if (intra_total[i] > 0) {
          sev.AddWithAncestors(MetricId::kIntraPartitionImbalance, e.callpath,
                               share * intra_total[i]);
        }
        if (inter_total[i] > 0) {
          sev.AddWithAncestors(MetricId::kInterPartitionImbalance, e.callpath,
                               share * inter_total[i]);
        }
      }
    }
  }

 private:
  const std::vector<uint32_t>& participants_;
  const AnalysisWindow window_;
  const std::vector<TimeVector>& path_profile_;
  const std::vector<TimeVector>& own_;         // d_p(c), by location
  const std::vector<int64_t>& own_untracked_;  // by location
  unsigned threads_;
  TimeVector on_path_;  // d_cp(c)
};

}  // namespace

CriticalPathFacts WalkCriticalPath(const trace::Trace& trace, const SyncPoints& sp,
                                   unsigned threads, Semantics semantics) {
  CriticalPathFacts facts;
  if (sp.participants.empty() || sp.window.end_location == kNone) return facts;
  PathWalk walk(trace, sp, semantics, facts);
  walk.Run();
  // Every process's own time in the window (the d_p(c) of the impact metrics).
  facts.own.assign(trace.location_count(), {});
  facts.own_untracked.assign(trace.location_count(), 0);
  ParallelFor(sp.held_participants.size(), threads, [&](size_t i) {
    uint32_t loc = sp.held_participants[i];
    const TimeMap& map = sp.locations[loc].time;
    map.Sum(0, map.boundary_count() - 1, facts.own[loc]);
    facts.own_untracked[loc] = map.Untracked(0, map.boundary_count() - 1);
  });
  return facts;
}

CriticalPathResult FinishCriticalPath(const SyncPoints& sp, const CriticalPathFacts& facts,
                                      std::vector<LocationSeverities>& severities,
                                      const CriticalPathOptions& options) {
  CriticalPathResult result;
  result.window = sp.window;
  result.processes = sp.participants.size();
  result.diagnostics = facts.diagnostics;
  if (sp.participants.empty() || sp.window.end_location == kNone) return result;

  for (uint32_t loc : sp.participants) {
    for (const CallpathTicks& e : facts.on_path[loc]) result.length += e.ticks;
    result.untracked += facts.on_path_untracked[loc];
  }
  result.segments = facts.segments;
  std::sort(result.segments.begin(), result.segments.end(),
            [](const PathSegment& a, const PathSegment& b) {
              if (a.begin != b.begin) return a.begin < b.begin;
              return a.location != b.location ? a.location < b.location : a.end < b.end;
            });

  if (options.semantics == Semantics::kScalasca) {
    for (uint32_t loc : sp.participants) result.untracked_time += facts.own_untracked[loc];
    WriteScalascaImpact(sp.source->call_tree, sp.source->location_count(), sp.participants,
                        facts.on_path, severities);
    return result;
  }
  ImpactCalculator impact(sp, facts, options.threads);
  impact.Write(severities, result);
  return result;
}

CriticalPathResult AnalyzeCriticalPath(const trace::Trace& trace, const SyncPoints& sp,
                                       std::vector<LocationSeverities>& severities,
                                       const CriticalPathOptions& options) {
  CW_CHECK(!sp.share.distributed());  // an MPI analysis job walks, gathers, then finishes
  return FinishCriticalPath(sp, WalkCriticalPath(trace, sp, options.threads, options.semantics),
                            severities, options);
}

}  // namespace cw::analysis
