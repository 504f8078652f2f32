// Loops of a process graph, recognised from its flow edges (Sikora et al. 2016 §3.2: an iteration
// shows as a back edge from the last activity of the body to the first; no node marks it).
//
// A back edge is a flow edge to an activity still open on the depth-first walk from the start
// node; a loop is a strongly connected set of activities (nested loops fall into the loop
// around them) one of whose back edges was taken at least twice: a cycle closed only once is a
// part of the program run again later (the same call path called in two phases), and a loop of
// two iterations cannot be told from it. Loop markers from the program, where it has them, are
// nodes inside or beside these loops and change nothing here.
//
//   MarkBackEdges(graph);
//   for (const Loop& l : FindLoops(graph)) ... l.iterations ...
#pragma once

#include <cstdint>
#include <vector>

#include "tag/model/activity_graph.h"

namespace cw::tag {

// Sets Edge::back on every flow edge that closes a cycle, walking the flow edges depth-first
// from the start node in edge order (so the result is the same on every run).
void MarkBackEdges(ProcessGraph& graph);

struct Loop {
  uint32_t head = kNoNode;     // the first activity of an iteration (a back edge's target)
  std::vector<uint32_t> body;  // node ids, ascending
  uint64_t iterations = 0;     // occurrences of the head
  uint64_t instances = 0;      // times the loop was entered from outside
  double ticks = 0;            // its nodes' time and the flow edges' time within it
};

// The loops of a graph whose back edges are marked, in the order of their heads' ids.
std::vector<Loop> FindLoops(const ProcessGraph& graph);

}  // namespace cw::tag
