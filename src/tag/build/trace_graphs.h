// Task activity graphs built offline from a trace (`causeway tag TRACE`): one ProcessGraph per
// CPU location, from its Enter/Leave nesting, its MPI records and the matched synchronisation
// graph, with the same nodes and edges the tracer builds online.
//
// Target activities (nodes) are the outermost MPI calls, and regions whose names match one of
// `options.regions` (a user's kernels; an MPI call inside one is part of it); regions of the
// loop role (Score-P's and causeway's loop markers) give loop_entry and loop_exit nodes. Call
// paths are folded where a region recurs more than `recursion_depth` times on them (Sikora et al.
// 2016 names the explosion of recursive call paths as its SMG2000 limitation): the deeper calls
// count as calls at that depth.
//
//   GraphBuildOptions options;
//   Result<TraceGraphs> tags = BuildTraceGraphs(trace, sync_graph, options);
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "match/sync_graph.h"
#include "tag/model/activity_graph.h"
#include "trace/trace.h"

namespace cw::tag {

struct GraphBuildOptions {
  std::vector<std::string> regions;  // shell wildcards of user regions that become nodes
  uint32_t recursion_depth = 3;      // times a region may occur on a node's call path
  unsigned threads = 1;
};

struct TraceGraphs {
  std::vector<ProcessGraph> processes;  // by location id, CPU locations with events only
  uint64_t folded_callpaths = 0;        // trace call paths the recursion limit folded
  uint64_t unresolved_peers = 0;        // sends whose destination rank names no location
};

TraceGraphs BuildTraceGraphs(const trace::Trace& trace, const match::SyncGraph& sync,
                             const GraphBuildOptions& options);

}  // namespace cw::tag
