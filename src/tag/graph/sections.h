// Sikora et al. 2016 §5.2's sections: a process graph cut into its loops and the loop-free
// sequences between them ("equivalent to turning the graph into a tree by removing loop back
// edges"), so that processes can be compared phase by phase: two processes may behave alike in
// their main loop and differ in their start-up, or the other way round.
//
// A loop is a strongly connected set of activities (tag/model/loops.h), keyed by its head's
// label: the same loop in every process that runs it. The activities outside loops are
// grouped by how many loops precede them on the flow graph: the sequence before the first
// loop, the one after it, and so on. Nested loops are part of the loop around them.
//
//   std::vector<Section> s = FindSections(graph);
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "tag/model/activity_graph.h"

namespace cw::tag {

enum class SectionKind : uint8_t { kSequence, kLoop };
const char* SectionKindName(SectionKind kind);

struct Section {
  SectionKind kind = SectionKind::kSequence;
  std::string key;    // what makes sections of two processes correspond
  std::string label;  // for people: "loop halo at main/post_send/MPI_Isend", "before any loop"
  std::vector<uint32_t> nodes;  // ascending
  uint32_t head = kNoNode;      // a loop's first activity; a sequence's first
  uint64_t iterations = 0;      // loops: the head's count
  double ticks = 0;             // its nodes' time and the flow edges' inside it
};

// In order: sequences and loops as the flow first reaches them.
std::vector<Section> FindSections(const ProcessGraph& graph);

// How unevenly the processes that have a section spend their time in it (Sikora et al. 2016 §6:
// load imbalance found by matching loops between processes): by section key, in seconds.
struct SectionSpread {
  double min_seconds = 0;
  double mean_seconds = 0;
  double max_seconds = 0;
  uint32_t slowest_rank = kNoRank;
  uint32_t processes = 0;
};
std::map<std::string, SectionSpread> SpreadOfSections(
    const std::vector<ProcessGraph>& graphs, const std::vector<std::vector<Section>>& sections);

}  // namespace cw::tag
