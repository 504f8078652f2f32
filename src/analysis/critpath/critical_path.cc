#include "analysis/critpath/critical_path.h"

#include <algorithm>
#include <memory>
#include <string>

#include "base/parallel.h"

namespace cw::analysis {
namespace {

using trace::kNone;

// Follows the path backwards. Only one location holds it at a time, so instead of a replay over
// every synchronisation (Scalasca's token passing, in which every step checks for the token) it
// walks from holder to holder: on the current location, back to its latest wait before the
// current point; there it keeps the non-waiting part of the waiting call and jumps to the
// delayer's role of that wait. (An MPI back end forwards the token with one message per jump.)
class PathWalk {
 public:
  PathWalk(const trace::Trace& trace, const SyncPoints& sp)
      : sp_(sp), profile_(trace.location_count()), untracked_(trace.location_count(), 0) {}

  void Run(CriticalPathResult& result) {
    uint32_t loc = sp_.window.end_location;
    const LocationSyncPoints* l = &sp_.locations[loc];
    uint32_t segment_end = l->time.boundary_count() - 1;  // the end of the window
    uint32_t before = static_cast<uint32_t>(l->roles.size());
    // In a consistent trace every jump goes back in time; a trace that contradicts itself could
    // lead in a circle, so no waiter role is followed twice.
    std::vector<bool> followed(sp_.edges.size(), false);
    while (true) {
      uint32_t role = before;
      while (role > 0 && l->roles[role - 1].kind != RoleKind::kWaiter) --role;
      if (role == 0) {
        Close(loc, 0, BoundaryTime(*l, 0), segment_end);
        break;
      }
      const SyncRole& r = l->roles[role - 1];
      Close(loc, r.activity + 1, BoundaryTime(*l, r.activity + 1) + r.wait, segment_end);
      if (followed[r.id]) {
        result.diagnostics.Report(kPathCycle, "edge " + std::to_string(r.id));
        break;
      }
      followed[r.id] = true;
      loc = sp_.edges[r.id].delayer;
      l = &sp_.locations[loc];
      before = sp_.ends[r.id].delayer_role;
      segment_end = l->roles[before].activity + 1;
    }
  }

  const std::vector<TimeVector>& profile() const { return profile_; }
  const std::vector<int64_t>& untracked() const { return untracked_; }
  std::vector<PathSegment>& segments() { return segments_; }

 private:
  int64_t BoundaryTime(const LocationSyncPoints& l, uint32_t boundary) const {
    if (boundary == 0) return sp_.window.begin;
    if (boundary > l.calls.size()) return sp_.window.end;
    return std::clamp(l.call_time[boundary - 1], sp_.window.begin, sp_.window.end);
  }

  // The path ran on `loc` from boundary `from` (at `from_time`) to boundary `to`.
  void Close(uint32_t loc, uint32_t from, int64_t from_time, uint32_t to) {
    const LocationSyncPoints& l = sp_.locations[loc];
    if (to < from) return;  // only where the clock condition fails
    TimeVector part;
    l.time.Sum(from, to, part);
    AddTimes(part, profile_[loc]);
    untracked_[loc] += l.time.Untracked(from, to);
    int64_t end = BoundaryTime(l, to);
    int64_t begin = std::min(from_time, end);
    if (begin < end) segments_.push_back(PathSegment{loc, begin, end});
  }

  const SyncPoints& sp_;
  std::vector<TimeVector> profile_;  // by location
  std::vector<int64_t> untracked_;   // by location
  std::vector<PathSegment> segments_;
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
  ImpactCalculator(const trace::Trace& trace, const SyncPoints& sp,
                   const std::vector<TimeVector>& path_profile, unsigned threads)
      : sp_(sp), path_profile_(path_profile), threads_(threads) {
    for (uint32_t loc : sp.participants) AddTimes(path_profile[loc], on_path_);
    own_.resize(trace.location_count());
    own_untracked_.resize(trace.location_count(), 0);
    ParallelFor(sp.participants.size(), threads, [&](size_t i) {
      uint32_t loc = sp.participants[i];
      const TimeMap& map = sp.locations[loc].time;
      map.Sum(0, map.boundary_count() - 1, own_[loc]);
      own_untracked_[loc] = map.Untracked(0, map.boundary_count() - 1);
    });
  }

  void Write(std::vector<LocationSeverities>& severities, CriticalPathResult& result) {
    const size_t k = on_path_.size();
    const double processes = static_cast<double>(sp_.participants.size());
    // avg_p d_p(c) for the call paths on the path.
    std::vector<double> average(k, 0.0);
    for (uint32_t loc : sp_.participants) {
      for (size_t i = 0; i < k; ++i) average[i] += At(own_[loc], on_path_[i].callpath);
    }
    for (double& a : average) a /= processes;

    // Imbalance costs of each process, then summed in location order.
    std::vector<std::vector<double>> intra(sp_.participants.size()), inter(sp_.participants.size());
    std::vector<double> unattributed(sp_.participants.size(), 0.0);
    const double window = static_cast<double>(sp_.window.length());
    ParallelFor(sp_.participants.size(), threads_, [&](size_t p) {
      uint32_t loc = sp_.participants[p];
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
    for (size_t p = 0; p < sp_.participants.size(); ++p) {
      result.untracked_time += own_untracked_[sp_.participants[p]];
      for (size_t i = 0; i < k; ++i) {
        intra_total[i] += intra[p][i];
        inter_total[i] += inter[p][i];
      }
      result.unattributed_waiting += unattributed[p];
    }

    for (uint32_t loc : sp_.participants) {
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
  const SyncPoints& sp_;
  const std::vector<TimeVector>& path_profile_;
  unsigned threads_;
  TimeVector on_path_;           // d_cp(c)
  std::vector<TimeVector> own_;  // d_p(c), by location
  std::vector<int64_t> own_untracked_;
};

}  // namespace

CriticalPathResult AnalyzeCriticalPath(const trace::Trace& trace, const SyncPoints& sp,
                                       std::vector<LocationSeverities>& severities,
                                       const CriticalPathOptions& options) {
  CriticalPathResult result;
  result.window = sp.window;
  result.processes = sp.participants.size();
  if (sp.participants.empty() || sp.window.end_location == kNone) return result;

  PathWalk walk(trace, sp);
  walk.Run(result);
  const std::vector<TimeVector>& profile = walk.profile();
  for (uint32_t loc : sp.participants) {
    for (const CallpathTicks& e : profile[loc]) result.length += e.ticks;
    result.untracked += walk.untracked()[loc];
  }
  result.segments = std::move(walk.segments());
  std::sort(result.segments.begin(), result.segments.end(),
            [](const PathSegment& a, const PathSegment& b) {
              return a.begin != b.begin ? a.begin < b.begin : a.location < b.location;
            });

  ImpactCalculator impact(trace, sp, profile, options.threads);
  impact.Write(severities, result);
  return result;
}

}  // namespace cw::analysis
