// Timestamp correction with the controlled logical clock (Haus 2024 §2.2 and §3.2; Becker et
// al.'s algorithm as Scalasca implements it), `causeway analyze --time-correct`.
//
// Forward amortisation visits every location's events in order, each receive-like event after
// the sources it depends on (clock_condition.h). An event keeps its distance to its predecessor,
// shrunk by at most the factor γ, so that a clock running ahead slowly falls back to its own
// timestamps: C(e) = max(t(e), C(prev) + ⌈γ (t(e) − t(prev))⌉). A receive-like event is moved
// to at least every source's corrected time plus the minimum latency l_min; where that moves it
// (a violation), the jump Δ is remembered.
//
// Backward amortisation spreads each jump over the events before it, so that they do not seem
// to stand still before it: events in the Δ / s_max ticks before the jump move later along a line
// of slope s_max (clipped to the location's first event, which makes it steeper). A send-like
// event on that line must stay at least l_min before every event that depends on it (for a
// probed message, the probe, never the later receive: Haus 2024 §3.2); where the line would pass
// such a limit, the line from that event on is made steeper so that it reaches the limit exactly
// there, and the events before it get the recursion with the limit's slack as their jump.
//
// Local order is kept (every shift is a non-decreasing function of time), distances between
// consecutive events never shrink by more than the factor γ, and after the pass no receive-like
// event is earlier than its sources. Corrected times replace the trace's timestamps; the caller
// matches the trace again, so that messages carry the new times.
//
//   match::SyncGraph graph = match::MatchTrace(trace, threads);
//   ClockCorrection c = CorrectTimestamps(trace, graph, {});
//   graph = match::MatchTrace(trace, threads);
#pragma once

#include <cstdint>

#include "base/diagnostics.h"
#include "clock/clock_condition.h"
#include "match/sync_graph.h"
#include "trace/trace.h"

namespace cw::clock {

struct ClockOptions {
  // Scalasca's parameters: the minimum message latency (1 µs), the forward amortisation factor
  // γ, and the largest slope of the backward amortisation.
  double min_latency_seconds = 1e-6;
  double gamma = 0.99999;
  double max_slope = 0.01;
};

struct ClockCorrection {
  ClockViolationCounts before;  // receive-like events earlier than a source (latency 0)
  ClockViolationCounts after;
  uint64_t jumps = 0;             // receive-like events the forward pass moved to their sources
  uint64_t corrected_events = 0;  // events whose timestamp changed
  uint64_t unresolved = 0;        // dependencies left out to break cycles (inconsistent traces)
  int64_t max_shift = 0;          // largest change of a timestamp, ticks
  double max_slope = 0;           // steepest backward amortisation line used
  Diagnostics diagnostics;
};

inline constexpr DiagnosticKind kClockCycle{
    "clock.cycle", Severity::kError,
    "receive-like events depend on each other in a cycle (an inconsistent trace); the clock "
    "condition of some of them was not enforced"};

inline constexpr DiagnosticKind kClockSpanTooLong{
    "clock.span_too_long", Severity::kError,
    "the trace's timestamps span more than 2^61 ticks, which only damaged timestamps do; they "
    "were not corrected"};

ClockCorrection CorrectTimestamps(trace::Trace& trace, const match::SyncGraph& graph,
                                  const ClockOptions& options);

}  // namespace cw::clock
