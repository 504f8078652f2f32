// Critical-path analysis (Böhme 2013 chapter 5): what determines the runtime.
//
// The critical path is the longest path through the program's activities that contains no wait
// state. It is found backwards: it starts where the last process arrives at MPI_Finalize and
// stays on a location until that location waited; there it keeps the non-waiting part of the
// waiting call and moves to the location waited for, before the call that made it wait. It ends
// at the start of the analysis window. Its segments are contiguous, so its length (plus time
// outside every region, which the path crosses but cannot charge to a call path) equals the
// window, when the clock condition holds.
//
// From the path:
//   critical_path           time of each call path on the path, on the location that ran it;
//   critical_path_imbalance ι(c) = max(d_cp(c) − avg_p d_p(c), 0), where d_cp(c) is c's time on
//                           the path and d_p(c) its non-waiting time on process p: how much
//                           longer c makes the run than a perfectly balanced c would;
//   performance_impact      every call path's own time (activity impact up to its critical-path
//                           time, the rest non-critical) plus the waiting it causes: each
//                           process's waiting ŵ_p (end-of-run idle included) is charged to the
//                           critical call paths that take longer on the path than on p, in
//                           proportion δ_p(c) = max(d_cp(c) − d_p(c), 0); intra-partition when p
//                           runs c itself, inter-partition when it never does (MPMD).
// Quantities defined per call path (ι, the imbalance costs) are written on the locations that
// carry the path, in proportion to their time on it, so that their sum over locations is the
// call path's value. Under Scalasca semantics (CriticalPathOptions::semantics) the path starts
// earlier and these metrics follow Scalasca's definitions (scalasca_impact.h).
#pragma once

#include <cstdint>
#include <vector>

#include "analysis/metrics/semantics.h"
#include "analysis/metrics/severity.h"
#include "analysis/syncpoints/sync_points.h"
#include "base/diagnostics.h"
#include "trace/trace.h"

namespace cw::analysis {

struct CriticalPathOptions {
  unsigned threads = 1;
  // Scalasca semantics: the path starts at MPI_Init's Enter on the location where the walk ends
  // (so it is longer than the window by that process's launch skew), and the impact and
  // imbalance metrics follow Scalasca's definitions (scalasca_impact.h).
  Semantics semantics = Semantics::kCauseway;
};

// One stretch of the path on one location, [begin, end) in ticks.
struct PathSegment {
  uint32_t location;
  int64_t begin;
  int64_t end;
};

struct CriticalPathResult {
  int64_t length = 0;     // time of call paths on the path (ticks): the critical_path values
  int64_t untracked = 0;  // time on the path outside every region (no call path to charge)
  AnalysisWindow window;  // the path should span it
  std::vector<PathSegment> segments;  // from the start of the window to its end
  uint64_t processes = 0;             // the participating locations
  // Waiting that no critical call path could take (the path is shorter than the window).
  double unattributed_waiting = 0;
  // Time of processes outside every region, in the window: neither work nor waiting.
  int64_t untracked_time = 0;
  Diagnostics diagnostics;
};

inline constexpr DiagnosticKind kPathCycle{
    "critpath.cycle", Severity::kError,
    "the critical path came back to a wait it had already followed (the trace's "
    "synchronisations contradict each other): the path was cut there"};

// What the walk along the path finds, by location: the path's time there and each process's own
// time in the window. Distributed, each rank fills its own locations' entries; the first rank
// gathers them before it finishes.
struct CriticalPathFacts {
  std::vector<TimeVector> on_path;  // time per call path on the path
  std::vector<int64_t> on_path_untracked;
  std::vector<TimeVector> own;  // the process's time per call path in the window (participants)
  std::vector<int64_t> own_untracked;
  std::vector<PathSegment> segments;  // in the order walked
  Diagnostics diagnostics;
};

// Walks the path. Distributed, every rank of the job calls it (the path is handed from rank to
// rank where it crosses).
CriticalPathFacts WalkCriticalPath(const trace::Trace& trace, const SyncPoints& sync,
                                   unsigned threads, Semantics semantics = Semantics::kCauseway);

// Adds critical_path, critical_path_imbalance and the performance-impact metrics to
// `severities` (indexed by location), from the facts of every location.
CriticalPathResult FinishCriticalPath(const SyncPoints& sync, const CriticalPathFacts& facts,
                                      std::vector<LocationSeverities>& severities,
                                      const CriticalPathOptions& options);

// Both, in one process.
CriticalPathResult AnalyzeCriticalPath(const trace::Trace& trace, const SyncPoints& sync,
                                       std::vector<LocationSeverities>& severities,
                                       const CriticalPathOptions& options);

}  // namespace cw::analysis
