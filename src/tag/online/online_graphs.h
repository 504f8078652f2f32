// The task activity graphs a run recorded online (`causeway trace --tag -o DIR`), as the same
// ProcessGraphs `causeway tag` builds from a trace: each rank's segment (DIR/tag/rank-<r>.seg)
// with its return addresses named (elf/address_names.h), cut to the frames from `main` on, user
// regions in place, recursion folded by function name as tag/build folds a trace's call
// paths, and the nodes that then share kind, call path and call site merged (several return
// address vectors name one path: a function called from two places, a recursion folded). A
// message_in edge names the sender's node in the sender's segment; it is mapped to the sender's
// merged graph.
//
//   std::vector<OnlineRank> ranks = ...;   // ReadOnlineRun(dir) or snapshots
//   OnlineGraphs g = BuildOnlineGraphs(ranks, {.recursion_depth = 3, .threads = 2});
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "base/status.h"
#include "tag/model/activity_graph.h"
#include "tag/online/segment_image.h"

namespace cw::tag {

struct OnlineRank {
  SegmentImage image;
  std::string maps;  // the process's /proc/self/maps as it saved it
};

struct OnlineOptions {
  uint32_t recursion_depth = 3;  // times a function may occur on a node's call path
  unsigned threads = 1;
};

struct OnlineGraphs {
  std::vector<ProcessGraph> processes;  // by rank
  uint64_t folded_callpaths = 0;        // nodes whose call path the recursion limit shortened
  // What a reader must know about the recording: ranks that did not end normally, activities
  // or edges that did not fit their arrays, frames without a symbol, stacks deeper than kept.
  std::vector<std::string> notes;
  // Per process (as `processes`): the bytes of its graph as the segment holds it, compacted
  // (what a snapshot of it weighs).
  std::vector<uint64_t> segment_bytes;
  // Per process: the seconds its MPI calls spent in the tool's own work (stack walks,
  // piggybacks, the graph's updates), which the program's run grew by.
  std::vector<double> tool_seconds;
};

OnlineGraphs BuildOnlineGraphs(const std::vector<OnlineRank>& ranks, const OnlineOptions& options);

// A directory `causeway trace --tag` wrote: its ranks' final segments (DIR/tag/rank-*.seg) and
// memory maps, or (`window` "A:B") what happened between snapshots A and B: numbers of
// DIR/tag/snapshots/<k>/, 0 for the start and "end" for the final segments.
bool IsOnlineRun(const std::string& dir);
Result<std::vector<OnlineRank>> ReadOnlineRun(const std::string& dir, const std::string& window);

}  // namespace cw::tag
