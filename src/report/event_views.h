// What report.html draws from the events themselves rather than from the report's values: the
// communication matrix and message sizes, and the timelines around the worst wait-state
// instances.
//
// Views are computed from the events of a set of locations (each message counts where it was
// received), so that the ranks of an MPI analysis job each compute their own locations' share
// and the first rank adds the shares up (driver/job_analysis.h); one process computes them from
// every location. Both give the same views.
//
//   EventViews views = EventViewsOf(report, trace, graph, AllLocations(trace));
//   CW_RETURN_IF_ERROR(WriteHtmlReport(report, trace, views, "out/report.html"));
#pragma once

#include <cstdint>
#include <map>
#include <span>
#include <vector>

#include "match/sync_graph.h"
#include "report/report.h"
#include "trace/trace.h"

namespace cw::report {

// Bytes and messages from sender to receiver, by rank where every location has one (else by
// location), with ranks binned into at most 64 rows; and the histogram of message sizes.
struct CommunicationMatrix {
  bool by_rank = true;
  uint32_t bin = 1;                // ranks (or locations) per row
  uint32_t side = 0;               // rows and columns
  std::vector<double> bytes;       // side x side, row = sender
  std::vector<uint64_t> messages;  // likewise
  std::map<int, uint64_t> sizes;   // log2 bucket (-1: empty messages) -> count
};

// A region visit shown on a timeline track, clipped to the timeline's window.
struct TimelineSlice {
  uint8_t depth;
  double from;  // seconds since the trace's global offset
  double to;
  uint32_t callpath;
};

struct TimelineTrack {
  uint32_t location;
  std::vector<TimelineSlice> slices;  // outermost first, at most 400
};

// A message drawn between two tracks.
struct TimelineArrow {
  uint32_t receiver;  // which, with the receive event, orders the arrows as the graph does
  uint32_t recv_event;
  uint32_t from_track;  // index into the timeline's tracks
  uint32_t to_track;
  double sent;  // seconds since the trace's global offset
  double received;
};

// The timeline around one of the worst instances: the waiting location and its partner.
struct InstanceTimeline {
  size_t instance;  // index into Report::instances
  double from;      // the window, seconds since the trace's global offset
  double to;
  std::vector<uint32_t> locations;    // the tracks' locations, the waiting one first
  std::vector<TimelineTrack> tracks;  // those computed so far (a share may lack some)
  std::vector<TimelineArrow> arrows;  // graph order, at most 200
};

struct EventViews {
  CommunicationMatrix communication;
  std::vector<InstanceTimeline> timelines;  // worst instance first, at most 5
};

// The views of `locations`' events (ascending). `graph` must hold every message they received.
EventViews EventViewsOf(const Report& report, const trace::Trace& trace,
                        const match::SyncGraph& graph, std::span<const uint32_t> locations);

// Adds the share `part` (of other locations, for the same report) to `into`.
void MergeEventViews(EventViews& into, const EventViews& part);

// 0, 1, ..., location_count - 1.
std::vector<uint32_t> AllLocations(const trace::Trace& trace);

}  // namespace cw::report
