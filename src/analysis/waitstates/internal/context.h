// Shared state of the per-location wait-state passes (private to analysis/waitstates/).
#pragma once

#include <cstdint>
#include <limits>
#include <vector>

#include "analysis/metrics/severity.h"
#include "analysis/waitstates/internal/traffic_counts.h"
#include "analysis/waitstates/sync_edges.h"
#include "analysis/waitstates/waitstate_analysis.h"
#include "match/sync_graph.h"
#include "trace/trace.h"

namespace cw::analysis::internal {

// A time that never comes: an interval never closed, an event that never happened.
inline constexpr uint64_t kNever = std::numeric_limits<uint64_t>::max();

// What one location's passes write; one per location, merged in location order.
struct LocationOutput {
  LocationOutput(uint32_t callpaths, size_t instances_per_metric)
      : severities(callpaths), instances(instances_per_metric), traffic(callpaths) {}
  LocationSeverities severities;
  InstanceCollector instances;
  ClockViolations violations;
  TrafficCounts traffic;                     // written to `severities` when the location is done
  std::vector<WaitEdge> edges;               // the wait states this location incurred
  std::vector<EventCompletion> completions;  // SyncEdges::completions of this location
};

struct Context {
  const trace::Trace& trace;
  const match::SyncGraph& graph;
  const std::vector<MetricId>& time_category;           // by region
  const std::vector<trace::MpiFunction>& callpath_mpi;  // by call path: what its region does
  bool emit_edges = true;   // record every wait as a WaitEdge (for the root-cause analyses)
  bool probes_wait = true;  // WaitStateOptions::probes_wait
  bool interval_completions = false;  // WaitStateOptions::interval_completions
  bool one_sided_sync = true;         // WaitStateOptions::one_sided_sync
  bool sender_waits = true;           // WaitStateOptions::sender_waits
  // One rank of an MPI analysis job: the trace holds the events of the rank's own locations.
  comm::Communicator* comm = nullptr;
  const trace::Partition* partition = nullptr;

  bool Distributed() const { return comm != nullptr && partition != nullptr; }
  // Whether this process holds `location`'s events.
  bool Holds(uint32_t location) const {
    return !Distributed() || partition->owner[location] == comm->rank();
  }
};

// Adds `value` to `metric` and every ancestor up to the root of the metric tree. Used for
// metrics that partition their parent (time categories, send/receive counts, bytes).
void AddWithAncestors(LocationSeverities& severities, MetricId metric, uint32_t callpath,
                      double value);

// Whether `window` is an MPI window: CUDA and OpenCL memory copies are recorded as RMA on their
// own windows; only windows of MPI communicators are MPI one-sided communication.
bool IsMpiWindow(const trace::Definitions& defs, uint32_t window);
// Whether `window` is an OpenSHMEM window (the symmetric heap as an active set sees it).
bool IsShmemWindow(const trace::Definitions& defs, uint32_t window);

// Times of the call that contains `event` (its innermost region instance).
struct CallTimes {
  uint32_t enter = trace::kNone;  // event index of the Enter, kNone if outside every region
  uint64_t entered = 0;
  uint64_t left = 0;
};
CallTimes CallOf(const trace::LocationEvents& ev, uint32_t event);

// When the call containing `event` was entered (the event's own time outside every region; an
// Enter is the call it enters).
inline uint64_t EnteredAt(const trace::LocationEvents& ev, uint32_t event) {
  if (ev.kind(event) == trace::EventKind::kEnter) return ev.time(event);
  uint32_t enter = ev.pair(event);
  return ev.time(enter == trace::kNone ? event : enter);
}

// The MPI classification of the region entered at `enter` (an Enter event index).
inline trace::MpiFunction MpiOf(const Context& ctx, const trace::LocationEvents& ev,
                                uint32_t enter) {
  return enter == trace::kNone ? trace::MpiFunction{} : ctx.callpath_mpi[ev.ref(enter)];
}

}  // namespace cw::analysis::internal
