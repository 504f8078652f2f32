// The application-wide graph (PTAG, Sikora et al. 2016 §5.1): every process's TAG, joined by the
// inter-process edges that their incoming message edges describe. Outgoing message edges add
// nothing (the receiver's side names both ends).
//
//   std::vector<PtagEdge> edges = InterProcessEdges(graphs);
//   std::vector<PhaseEdge> phases = CommunicationPhaseView(edges);   // one node per process
#pragma once

#include <cstdint>
#include <vector>

#include "tag/model/activity_graph.h"

namespace cw::tag {

struct PtagEdge {
  uint32_t from_rank = kNoRank;
  uint32_t from_location = kNoRank;
  uint32_t from_node = kNoNode;  // in the sender's TAG
  uint32_t to_rank = kNoRank;
  uint32_t to_location = kNoRank;
  uint32_t to_node = kNoNode;  // in the receiver's TAG
  MessageVia via = MessageVia::kPointToPoint;
  uint64_t count = 0;
  uint64_t bytes = 0;
  double ticks = 0;  // time of the receiving calls
};

// One edge per incoming message edge whose sender is known, ordered by receiver then sender.
std::vector<PtagEdge> InterProcessEdges(const std::vector<ProcessGraph>& graphs);

// The communication-phase view (Sikora et al. 2016 §5.3): one node per process, its message edges
// summed per (sender rank, receiver rank).
struct PhaseEdge {
  uint32_t from_rank = kNoRank;
  uint32_t to_rank = kNoRank;
  uint64_t count = 0;
  uint64_t bytes = 0;
};
std::vector<PhaseEdge> CommunicationPhaseView(const std::vector<PtagEdge>& edges);

}  // namespace cw::tag
