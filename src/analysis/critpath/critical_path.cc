#include "analysis/critpath/critical_path.h"

#include <algorithm>
#include <memory>
#include <string>

#include "base/parallel.h"
#include "replay/pass.h"

namespace cw::analysis {
namespace {

using trace::kNone;

// The state of one location while the path is traced backwards.
class LocationPath {
 public:
  LocationPath(const SyncPoints& sp, uint32_t location)
      : sp_(sp), loc_(location), l_(sp.locations[location]) {
    if (location == sp.window.end_location) {
      owner_ = true;
      segment_end_ = l_.time.boundary_count() - 1;
    }
  }

  // The location waited here: if the path is here, it keeps the non-waiting rest of the call
  // and moves to the location waited for.
  void Waiter(uint32_t role, replay::Mailbox<uint8_t>& mail) {
    const SyncRole& r = l_.roles[role];
    bool moves = owner_;
    if (owner_) {
      CloseSegment(r.activity + 1, BoundaryTime(r.activity + 1) + r.wait);
      owner_ = false;
    }
    mail.Send(r.id, moves ? 1 : 0);
  }

  // Someone waited for this location here: the path may arrive, before this call.
  void Delayer(uint32_t role, replay::Mailbox<uint8_t>& mail) {
    const SyncRole& r = l_.roles[role];
    const uint8_t* token = mail.Receive(r.id);
    if (token == nullptr || *token == 0 || owner_) return;
    owner_ = true;
    segment_end_ = r.activity + 1;
  }

  // After the pass: the path ends (in backward order) at the start of the window.
  void Finish() {
    if (owner_) CloseSegment(0, BoundaryTime(0));
  }

  const TimeVector& profile() const { return profile_; }
  int64_t untracked() const { return untracked_; }
  const std::vector<PathSegment>& segments() const { return segments_; }

 private:
  int64_t BoundaryTime(uint32_t boundary) const {
    if (boundary == 0) return sp_.window.begin;
    if (boundary > l_.calls.size()) return sp_.window.end;
    return std::clamp(l_.call_time[boundary - 1], sp_.window.begin, sp_.window.end);
  }

  void CloseSegment(uint32_t from_boundary, int64_t from_time) {
    TimeVector part;
    l_.time.Sum(from_boundary, segment_end_, part);
    AddTimes(part, profile_);
    untracked_ += l_.time.Untracked(from_boundary, segment_end_);
    int64_t end = BoundaryTime(segment_end_);
    int64_t begin = std::min(from_time, end);
    if (begin < end) segments_.push_back(PathSegment{loc_, begin, end});
  }

  const SyncPoints& sp_;
  uint32_t loc_;
  const LocationSyncPoints& l_;
  bool owner_ = false;
  uint32_t segment_end_ = 0;  // boundary where the path's current stretch here ends
  TimeVector profile_;
  int64_t untracked_ = 0;
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

  const uint32_t n = trace.location_count();
  const BackwardPlan& plan = *sp.backward;
  std::vector<std::unique_ptr<LocationPath>> state(n);
  for (uint32_t loc : sp.participants) state[loc] = std::make_unique<LocationPath>(sp, loc);
  replay::Pass pass(plan.schedule);
  replay::Mailbox<uint8_t> mail(pass);
  replay::PassStats stats = pass.Run(options.threads, [&](uint32_t loc, uint32_t step) {
    uint32_t role = plan.step_role[loc][step];
    if (sp.locations[loc].roles[role].kind == RoleKind::kWaiter) {
      state[loc]->Waiter(role, mail);
    } else {
      state[loc]->Delayer(role, mail);
    }
  });
  result.broken_edges = stats.broken_edges.size();

  std::vector<TimeVector> profile(n);
  for (uint32_t loc : sp.participants) {
    state[loc]->Finish();
    profile[loc] = state[loc]->profile();
    for (const CallpathTicks& e : profile[loc]) result.length += e.ticks;
    result.untracked += state[loc]->untracked();
    const std::vector<PathSegment>& s = state[loc]->segments();
    result.segments.insert(result.segments.end(), s.begin(), s.end());
  }
  std::sort(result.segments.begin(), result.segments.end(),
            [](const PathSegment& a, const PathSegment& b) {
              return a.begin != b.begin ? a.begin < b.begin : a.location < b.location;
            });

  ImpactCalculator impact(trace, sp, profile, options.threads);
  impact.Write(severities, result);
  return result;
}

}  // namespace cw::analysis
