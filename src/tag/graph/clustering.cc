#include "tag/graph/clustering.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <string>
#include <tuple>
#include <unordered_map>

namespace cw::tag {
namespace {

using GraphsByLocation = std::unordered_map<uint32_t, const ProcessGraph*>;

GraphsByLocation IndexByLocation(const std::vector<ProcessGraph>& graphs) {
  GraphsByLocation index;
  for (const ProcessGraph& g : graphs) index[g.location] = &g;
  return index;
}

class Comparison {
 public:
  Comparison(const GraphsByLocation& graphs, const ProcessGraph& a, const ProcessGraph& b)
      : graphs_(graphs), a_(a), b_(b) {}

  Difference Run(double tolerance, double* distance_out) {
    if (a_.nodes.size() != b_.nodes.size() || a_.edges.size() != b_.edges.size()) {
      return Difference::kStructure;
    }
    // Online graphs tell call sites apart (two calls of one function in one function); their
    // names are function-relative, the same in every process.
    std::map<std::tuple<NodeKind, std::string, std::string>, uint32_t> b_nodes;
    for (uint32_t v = 0; v < b_.nodes.size(); ++v) {
      b_nodes[{b_.nodes[v].kind, b_.nodes[v].callpath, b_.nodes[v].callsite}] = v;
    }
    node_map_.assign(a_.nodes.size(), kNoNode);
    bool counts_differ = false;
    double squares = 0;
    for (uint32_t v = 0; v < a_.nodes.size(); ++v) {
      auto it = b_nodes.find({a_.nodes[v].kind, a_.nodes[v].callpath, a_.nodes[v].callsite});
      if (it == b_nodes.end()) return Difference::kStructure;
      node_map_[v] = it->second;
      const Node& other = b_.nodes[it->second];
      counts_differ |= other.time.count != a_.nodes[v].time.count;
      if (!SetupOrTeardown(a_.nodes[v])) squares += Square(other.time.total - a_.nodes[v].time.total);
    }
    // Local edges are identified by their mapped ends; message edges by their key, then paired
    // by partner.
    std::map<std::tuple<EdgeKind, uint32_t, uint32_t>, uint32_t> b_local;
    std::multimap<std::string, uint32_t> b_messages;
    for (uint32_t e = 0; e < b_.edges.size(); ++e) {
      const Edge& edge = b_.edges[e];
      if (IsMessage(edge)) {
        b_messages.emplace(
            MessageKey(edge, edge.kind == EdgeKind::kMessageIn ? edge.to : edge.from), e);
      } else {
        b_local[{edge.kind, edge.from, edge.to}] = e;
      }
    }
    std::vector<bool> used(b_.edges.size(), false);
    for (const Edge& edge : a_.edges) {
      const Edge* match = nullptr;
      if (IsMessage(edge)) {
        uint32_t local = edge.kind == EdgeKind::kMessageIn ? edge.to : edge.from;
        auto [lo, hi] = b_messages.equal_range(MessageKey(edge, node_map_[local]));
        for (auto it = lo; it != hi && match == nullptr; ++it) {
          const Edge& candidate = b_.edges[it->second];
          if (!used[it->second] && SamePartner(edge, a_.rank, candidate, b_.rank)) {
            used[it->second] = true;
            match = &candidate;
          }
        }
      } else {
        auto it = b_local.find({edge.kind, node_map_[edge.from], node_map_[edge.to]});
        if (it != b_local.end()) match = &b_.edges[it->second];
      }
      if (match == nullptr) return Difference::kStructure;
      counts_differ |= match->time.count != edge.time.count;
      // The distance is over the process's time, which its nodes and flow edges partition:
      // a message edge's time is its call's, a completion edge's overlaps the flow between.
      if (edge.kind == EdgeKind::kFlow) squares += Square(match->time.total - edge.time.total);
    }
    if (counts_differ) return Difference::kCounts;
    double distance = std::sqrt(squares);
    if (distance_out != nullptr) *distance_out = distance;
    return distance <= tolerance * std::max(a_.TotalTicks(), b_.TotalTicks())
               ? Difference::kEquivalent
               : Difference::kTimes;
  }

 private:
  static double Square(double x) { return x * x; }
  // MPI_Init's time is mostly the launcher's skew (a process started later waits less for the
  // others to come up) and MPI_Finalize's the library's teardown: neither is the program's
  // behaviour, and in a short run either would outweigh it.
  static bool SetupOrTeardown(const Node& n) {
    return n.kind == NodeKind::kMpi &&
           (n.name == "MPI_Init" || n.name == "MPI_Init_thread" || n.name == "MPI_Finalize");
  }
  static bool IsMessage(const Edge& e) {
    return e.kind == EdgeKind::kMessageIn || e.kind == EdgeKind::kMessageOut;
  }
  static bool SamePartner(const Edge& a, uint32_t rank_a, const Edge& b, uint32_t rank_b) {
    if (a.peer == b.peer) return true;
    return static_cast<int64_t>(a.peer) - rank_a == static_cast<int64_t>(b.peer) - rank_b;
  }

  // Kind, form, the local node (in b's numbering) and the sender's call path.
  std::string MessageKey(const Edge& e, uint32_t local_in_b) const {
    std::string key = std::to_string(static_cast<int>(e.kind)) + "|" +
                      std::to_string(static_cast<int>(e.via)) + "|" +
                      std::to_string(local_in_b) + "|";
    if (e.kind == EdgeKind::kMessageIn && e.from != kNoNode) {
      auto sender = graphs_.find(e.peer_location);
      if (sender != graphs_.end() && e.from < sender->second->nodes.size()) {
        key += NodeLabel(sender->second->nodes[e.from]);
      }
    }
    return key;
  }

  const GraphsByLocation& graphs_;
  const ProcessGraph& a_;
  const ProcessGraph& b_;
  std::vector<uint32_t> node_map_;
};

}  // namespace

Difference Compare(const std::vector<ProcessGraph>& graphs, uint32_t a, uint32_t b,
                   double tolerance, double* distance) {
  return Comparison(IndexByLocation(graphs), graphs[a], graphs[b]).Run(tolerance, distance);
}

std::vector<Cluster> ClusterProcesses(const std::vector<ProcessGraph>& graphs,
                                      const ClusterOptions& options) {
  std::vector<Cluster> clusters;
  const GraphsByLocation index = IndexByLocation(graphs);
  for (uint32_t p = 0; p < graphs.size(); ++p) {
    Cluster* home = nullptr;
    for (Cluster& c : clusters) {
      if (Comparison(index, graphs[c.representative], graphs[p]).Run(options.tolerance, nullptr) ==
          Difference::kEquivalent) {
        home = &c;
        break;
      }
    }
    if (home == nullptr) {
      home = &clusters.emplace_back();
      home->representative = p;
    }
    home->members.push_back(p);
  }
  for (Cluster& c : clusters) {
    c.min_ticks = c.max_ticks = graphs[c.members.front()].TotalTicks();
    double sum = 0;
    for (uint32_t m : c.members) {
      double t = graphs[m].TotalTicks();
      c.min_ticks = std::min(c.min_ticks, t);
      c.max_ticks = std::max(c.max_ticks, t);
      sum += t;
    }
    c.mean_ticks = sum / static_cast<double>(c.members.size());
  }
  return clusters;
}

}  // namespace cw::tag
