// Delay analysis (Böhme 2013 chapter 4): the root causes of wait states and their costs.
//
// A wait state happens because the location waited for (the delayer) arrived late; it arrived
// late because, since the previous synchronisation of the pair, it spent more time than the
// waiter in some call paths (its delays) or because it waited itself (propagation). Each wait is
// split over those causes in proportion to their size, with scale 1 / (δ̂ + ω̂):
//   - short-term costs: the share of the wait charged to the delayer's excess time per call path
//     (metric delay_<pattern>, on the delayer's location and call paths);
//   - the share charged to the delayer's own earlier waits travels further back: it becomes the
//     propagation cost φ of those waits, and in turn is split over their causes; what reaches
//     excess time that way is a long-term cost (delay_<pattern>_longterm). φ is kept per pattern
//     of the wait it finally explains, so that each pattern's costs add up to its waiting time.
// Every wait state is also classified: direct (caused by excess time) versus indirect (caused by
// the delayer's waiting), and propagating (it caused later waits) versus terminal.
//
// The analysis is a backward replay over the synchronisation points: a waiter sends its
// propagation costs and its time per call path to its delayer, which computes the costs. It runs
// on worker threads with results identical to a sequential run.
//
//   SyncPoints sp = BuildSyncPoints(trace, ws.sync, threads);
//   DelayResult r = AnalyzeDelay(trace, sp, ws.severities, {.threads = threads});
#pragma once

#include <cstdint>
#include <vector>

#include "analysis/metrics/semantics.h"
#include "analysis/metrics/severity.h"
#include "analysis/syncpoints/sync_points.h"
#include "base/diagnostics.h"
#include "trace/trace.h"

namespace cw::analysis {

struct DelayOptions {
  unsigned threads = 1;
  // Scalasca semantics: collective wait states are not classified (Scalasca classifies
  // point-to-point waits only). Which waits are followed is decided before (KeepFollowedEdges).
  Semantics semantics = Semantics::kCauseway;
};

struct DelayResult {
  // Waits whose delayer showed neither excess time nor waiting in the interval (possible only
  // where timestamps violate the clock condition or the delayer spent time outside every
  // region): charged to the delayer's synchronising call (Scalasca semantics: dropped).
  uint64_t unexplained_waits = 0;
  double unexplained_ticks = 0;
  uint64_t broken_edges = 0;  // synchronisations given up because the trace contradicts itself
  Diagnostics diagnostics;
};

// The delay-cost metrics that the causes of a pattern's waits are charged to.
struct DelayCostMetrics {
  MetricId short_term;
  MetricId long_term;
};
DelayCostMetrics DelayCostMetricsOf(SyncPattern p);

// Adds the delay-cost and wait-classification metrics to `severities` (indexed by location).
DelayResult AnalyzeDelay(const trace::Trace& trace, const SyncPoints& sync,
                         std::vector<LocationSeverities>& severities, const DelayOptions& options);

inline constexpr DiagnosticKind kUnexplainedWait{
    "delay.unexplained_wait", Severity::kWarning,
    "wait state whose delayer spent no more time in any call path than the waiter since their "
    "previous synchronisation: the delayer's time was outside every region, or the clock "
    "condition is violated, or (with --semantics scalasca) the delayer spent the interval "
    "waiting in collective operations, whose waiting Scalasca's semantics do not let explain "
    "another wait; charged to the delayer's synchronising call (with --semantics scalasca: "
    "dropped, as Scalasca drops it)"};
inline constexpr DiagnosticKind kBrokenSynchronisation{
    "replay.contradictory_synchronisation", Severity::kError,
    "synchronisations that depend on each other in a cycle (the trace contradicts itself): one "
    "was analysed without its partner's data"};

}  // namespace cw::analysis
