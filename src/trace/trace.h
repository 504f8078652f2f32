// The in-memory trace: definitions, the call tree and the events of every location.
//
// This is what every later stage reads. It is built once (by otf2::ReadTrace, or by a test or
// simulator through LocationBuilder + AssembleCallTree) and is immutable afterwards, so analyses
// may read it from many threads at once.
//
//   cw::Result<trace::Trace> t = otf2::ReadTrace("run1/traces.otf2", {});
//   for (uint32_t loc = 0; loc < t->location_count(); ++loc) { ... t->location(loc) ... }
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "base/diagnostics.h"
#include "trace/call_tree.h"
#include "trace/definitions.h"
#include "trace/location_events.h"

namespace cw::trace {

class Trace {
 public:
  std::string path;  // the anchor file it was read from (empty for built traces)
  Definitions defs;
  CallTree call_tree;
  std::vector<LocationEvents> locations;  // indexed like defs.locations
  Diagnostics diagnostics;                // what the reader had to repair or skip

  uint32_t location_count() const { return static_cast<uint32_t>(locations.size()); }
  const LocationEvents& location(uint32_t index) const { return locations[index]; }

  // Events held in the model, and those read from the file (without synthetic ones).
  uint64_t EventCount() const;
  uint64_t RecordedEventCount() const;

  // Earliest and latest timestamp over all locations (0, 0 for an empty trace).
  uint64_t BeginTime() const;
  uint64_t EndTime() const;

  // Converts a tick count to seconds with the clock resolution.
  double Seconds(uint64_t ticks) const {
    return static_cast<double>(ticks) / static_cast<double>(defs.clock.resolution);
  }
  // Seconds since the clock's global offset (how Score-P tools print event times).
  double SecondsSinceStart(uint64_t time) const {
    return Seconds(time >= defs.clock.global_offset ? time - defs.clock.global_offset : 0);
  }

  // The region of a call path, and its name "main/foo/MPI_Send".
  uint32_t CallpathRegion(uint32_t callpath) const { return call_tree.region(callpath); }
  std::string CallpathName(uint32_t callpath) const;

  size_t MemoryBytes() const;
};

// What summaries need of a location without its events (which, in an MPI analysis job, another
// rank may hold): the times of its first and last event and how many were read from the file.
struct LocationSpan {
  bool empty = true;
  uint64_t first = 0;
  uint64_t last = 0;
  uint64_t recorded_events = 0;
};
std::vector<LocationSpan> LocationSpans(const Trace& trace);

// Threads of one process that call MPI (MPI_THREAD_MULTIPLE) are locations of their own, while
// a communicator's ranks name one location per process (the first of its COMM_LOCATIONS group).
// A communicator that, in every process, one location alone used for messages and collectives
// (the common pattern: each thread works on a communicator of its own) has its ranks moved to
// those locations, so that its records match. A communicator that several threads of a process
// used stays as it was; its records on the other threads stay unmatched, which the matcher
// reports, and this reports the communicator (trace.comm_shared_by_threads).
inline constexpr DiagnosticKind kCommSharedByThreads{
    "trace.comm_shared_by_threads", Severity::kWarning,
    "several threads of a process used one communicator: its messages and collectives are "
    "matched as the process's (receives in the order they were posted, sends and collective "
    "calls in the order they were made, whichever thread made them)"};
void AssignCommunicatorsToThreads(Trace& trace);
// The same in two halves: which (communicator, location) pairs occur in the events of
// `locations` (once each), and the decision from the pairs of all locations.
std::vector<std::pair<uint32_t, uint32_t>> CommunicatorUsers(const Trace& trace,
                                                             std::span<const uint32_t> locations);
void AssignCommunicatorsToThreads(Trace& trace, std::vector<std::pair<uint32_t, uint32_t>> used);

// The MPI classification of every call path's region (indexed by call-path id).
std::vector<MpiFunction> CallpathMpiFunctions(const Trace& trace);

// Merges location-local call trees (one per location, in location order) into trace.call_tree and
// rewrites the Enter/Leave refs of every location. Deterministic: ids depend only on the trace.
// An OpenMP worker thread's call paths, which begin at the parallel region it runs, go below the
// place where its master (the first CPU thread of its process) entered that region.
// If given, region_map[l] = (from, to) replaces region `from` by `to` in location l's call
// paths while merging (used to give each location's program region its program's name).
void AssembleCallTree(Trace& trace, const std::vector<CallTree>& local_trees, unsigned threads,
                      const std::vector<std::pair<uint32_t, uint32_t>>& region_map = {});

// "location L, event E": how diagnostics name one event.
std::string EventPlace(uint32_t location, uint32_t event);

}  // namespace cw::trace
