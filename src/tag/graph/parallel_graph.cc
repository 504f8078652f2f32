#include "tag/graph/parallel_graph.h"

#include <algorithm>
#include <map>
#include <tuple>

namespace cw::tag {

std::vector<PtagEdge> InterProcessEdges(const std::vector<ProcessGraph>& graphs) {
  std::vector<PtagEdge> result;
  for (const ProcessGraph& g : graphs) {
    for (const Edge& e : g.edges) {
      if (e.kind != EdgeKind::kMessageIn || e.from == kNoNode) continue;
      PtagEdge p;
      p.from_rank = e.peer;
      p.from_location = e.peer_location;
      p.from_node = e.from;
      p.to_rank = g.rank;
      p.to_location = g.location;
      p.to_node = e.to;
      p.via = e.via;
      p.count = e.time.count;
      p.bytes = e.bytes;
      p.ticks = e.time.total;
      result.push_back(p);
    }
  }
  std::stable_sort(result.begin(), result.end(), [](const PtagEdge& a, const PtagEdge& b) {
    return std::tie(a.to_location, a.to_node, a.from_location, a.from_node) <
           std::tie(b.to_location, b.to_node, b.from_location, b.from_node);
  });
  return result;
}

std::vector<PhaseEdge> CommunicationPhaseView(const std::vector<PtagEdge>& edges) {
  std::map<std::pair<uint32_t, uint32_t>, PhaseEdge> by_pair;
  for (const PtagEdge& e : edges) {
    PhaseEdge& p = by_pair[{e.from_rank, e.to_rank}];
    p.from_rank = e.from_rank;
    p.to_rank = e.to_rank;
    p.count += e.count;
    p.bytes += e.bytes;
  }
  std::vector<PhaseEdge> result;
  for (const auto& [pair, edge] : by_pair) result.push_back(edge);
  return result;
}

}  // namespace cw::tag
