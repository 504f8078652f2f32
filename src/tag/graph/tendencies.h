// What the graphs say without a trace's detail (Sikora et al. 2016 §6): where receivers wait for
// late senders (and the "many late senders, one receiver" pattern), where receives begin late, and
// how unevenly the members of a behaviour class, or the classes, spend their time on the same
// activity.
//
//   GraphFindings f = FindTendencies(graphs, clusters);
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "tag/graph/clustering.h"
#include "tag/model/activity_graph.h"

namespace cw::tag {

enum class TendencyKind : uint8_t { kLateSender, kLateReceiver };
const char* TendencyKindName(TendencyKind kind);

// A receiving node whose messages mostly (at least half of those from each listed sender) came
// from senders that entered their send after the receive began (late sender), or before it
// began (late receiver: a sender that blocks until the receive, as a synchronous or large
// message does, waited for it).
struct Tendency {
  TendencyKind kind = TendencyKind::kLateSender;
  uint32_t process = 0;  // index into the graphs
  uint32_t node = kNoNode;
  std::vector<uint32_t> peers;  // the senders' ranks, ascending
  uint64_t messages = 0;        // from those senders
  uint64_t late = 0;            // of them, late
  double ticks = 0;             // late sender: the receive's estimated wait; late receiver:
                                // how much earlier the sends began, summed
  bool many_senders = false;    // late sender with two or more late senders
};

// An activity (a node, or the computation between two) of a class whose members spend
// different time in it: the members' totals.
struct ClassSpread {
  uint32_t cluster = 0;
  std::string callpath;  // a node's call path, or "A -> B": the computation between A and B
  double min_ticks = 0;
  double mean_ticks = 0;
  double max_ticks = 0;
  uint32_t slowest_rank = kNoRank;
};

struct GraphFindings {
  std::vector<Tendency> tendencies;  // by ticks, largest first
  // Per class with two or more members, the activities whose slowest member spends at least
  // 10% more than the members' mean, an excess of at least 0.1% of the class's mean time;
  // largest excess first.
  std::vector<ClassSpread> class_spreads;
  // The same activity in several classes: each class's mean time per member, where the
  // classes' means differ by at least 10% of the largest and 0.1% of a process's time;
  // largest difference first.
  std::vector<std::vector<ClassSpread>> between_classes;
};

GraphFindings FindTendencies(const std::vector<ProcessGraph>& graphs,
                             const std::vector<Cluster>& clusters);

}  // namespace cw::tag
