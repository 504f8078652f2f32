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

// What is compared of a process: its whole graph, or the nodes of one section and the edges
// that stay inside it (flow and completion edges with both ends in it, message edges of its
// nodes).
struct Part {
  const ProcessGraph* graph;
  const std::vector<bool>* nodes = nullptr;  // nullptr: every node

  bool Has(uint32_t v) const { return nodes == nullptr || (v < nodes->size() && (*nodes)[v]); }
  bool Has(const Edge& e) const {
    if (e.kind == EdgeKind::kMessageIn) return Has(e.to);
    if (e.kind == EdgeKind::kMessageOut) return Has(e.from);
    return Has(e.from) && Has(e.to);
  }
  // The part's time: its nodes' and its flow edges' (the whole graph's: TotalTicks()).
  double Ticks() const {
    if (nodes == nullptr) return graph->TotalTicks();
    double ticks = 0;
    for (uint32_t v = 0; v < graph->nodes.size(); ++v) {
      if (Has(v)) ticks += graph->nodes[v].time.total;
    }
    for (const Edge& e : graph->edges) {
      if (e.kind == EdgeKind::kFlow && Has(e)) ticks += e.time.total;
    }
    return ticks;
  }
};

class Comparison {
 public:
  Comparison(const GraphsByLocation& graphs, Part a, Part b) : graphs_(graphs), a_(a), b_(b) {}

  Difference Run(const ClusterOptions& options, TimeDistance* distance_out) {
    const ProcessGraph& ga = *a_.graph;
    const ProcessGraph& gb = *b_.graph;
    // Online graphs tell call sites apart (two calls of one function in one function); their
    // names are function-relative, the same in every process.
    std::map<std::tuple<NodeKind, std::string, std::string>, uint32_t> b_nodes;
    for (uint32_t v = 0; v < gb.nodes.size(); ++v) {
      if (b_.Has(v)) b_nodes[{gb.nodes[v].kind, gb.nodes[v].callpath, gb.nodes[v].callsite}] = v;
    }
    node_map_.assign(ga.nodes.size(), kNoNode);
    bool counts_differ = false;
    double squares = 0;
    double noise_variance = 0;  // of the distance's square, by chance
    size_t a_nodes = 0;
    for (uint32_t v = 0; v < ga.nodes.size(); ++v) {
      if (!a_.Has(v)) continue;
      ++a_nodes;
      auto it = b_nodes.find({ga.nodes[v].kind, ga.nodes[v].callpath, ga.nodes[v].callsite});
      if (it == b_nodes.end()) return Difference::kStructure;
      node_map_[v] = it->second;
      const Node& other = gb.nodes[it->second];
      counts_differ |= other.time.count != ga.nodes[v].time.count;
      if (!SetupOrTeardown(ga.nodes[v])) {
        squares += Square(other.time.total - ga.nodes[v].time.total);
        noise_variance += ChanceVariance(ga.nodes[v].time, other.time);
      }
    }
    if (a_nodes != b_nodes.size()) return Difference::kStructure;
    // Local edges are identified by their mapped ends; message edges by their key, then paired
    // by partner.
    std::map<std::tuple<EdgeKind, uint32_t, uint32_t>, uint32_t> b_local;
    std::multimap<std::string, uint32_t> b_messages;
    size_t b_edges = 0;
    for (uint32_t e = 0; e < gb.edges.size(); ++e) {
      const Edge& edge = gb.edges[e];
      if (!b_.Has(edge)) continue;
      ++b_edges;
      if (IsMessage(edge)) {
        b_messages.emplace(
            MessageKey(edge, edge.kind == EdgeKind::kMessageIn ? edge.to : edge.from), e);
      } else {
        b_local[{edge.kind, edge.from, edge.to}] = e;
      }
    }
    std::vector<bool> used(gb.edges.size(), false);
    size_t a_edges = 0;
    for (const Edge& edge : ga.edges) {
      if (!a_.Has(edge)) continue;
      ++a_edges;
      const Edge* match = nullptr;
      if (IsMessage(edge)) {
        uint32_t local = edge.kind == EdgeKind::kMessageIn ? edge.to : edge.from;
        auto [lo, hi] = b_messages.equal_range(MessageKey(edge, node_map_[local]));
        for (auto it = lo; it != hi && match == nullptr; ++it) {
          const Edge& candidate = gb.edges[it->second];
          if (!used[it->second] && SamePartner(edge, ga.rank, candidate, gb.rank)) {
            used[it->second] = true;
            match = &candidate;
          }
        }
      } else {
        auto it = b_local.find({edge.kind, node_map_[edge.from], node_map_[edge.to]});
        if (it != b_local.end()) match = &gb.edges[it->second];
      }
      if (match == nullptr) return Difference::kStructure;
      counts_differ |= match->time.count != edge.time.count;
      // The distance is over the process's time, which its nodes and flow edges partition:
      // a message edge's time is its call's, a completion edge's overlaps the flow between.
      if (edge.kind == EdgeKind::kFlow) {
        squares += Square(match->time.total - edge.time.total);
        noise_variance += ChanceVariance(edge.time, match->time);
      }
    }
    if (a_edges != b_edges) return Difference::kStructure;
    if (counts_differ) return Difference::kCounts;
    TimeDistance distance;
    distance.ticks = std::sqrt(squares);
    distance.share_allowance = options.tolerance * std::max(a_.Ticks(), b_.Ticks());
    distance.noise_allowance = options.noise_sigmas * std::sqrt(noise_variance);
    if (distance_out != nullptr) *distance_out = distance;
    return distance.ticks <= distance.allowed() ? Difference::kEquivalent : Difference::kTimes;
  }

 private:
  static double Square(double x) { return x * x; }
  // The variance that the two totals' difference would have by chance, were each visit's time
  // drawn independently from the scatter its process's visits show: n·s² of each (s² the
  // sample variance, m2 / (n - 1)). Nothing below kNoiseMinVisits visits in either.
  static double ChanceVariance(const Stats& a, const Stats& b) {
    if (a.count < kNoiseMinVisits || b.count < kNoiseMinVisits) return 0;
    auto total_variance = [](const Stats& s) {
      const double n = static_cast<double>(s.count);
      return std::max(0.0, s.m2) * n / (n - 1);
    };
    return total_variance(a) + total_variance(b);
  }
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
                      std::to_string(static_cast<int>(e.via)) + "|" + std::to_string(local_in_b) +
                      "|";
    if (e.kind == EdgeKind::kMessageIn && e.from != kNoNode) {
      auto sender = graphs_.find(e.peer_location);
      if (sender != graphs_.end() && e.from < sender->second->nodes.size()) {
        key += NodeLabel(sender->second->nodes[e.from]);
      }
    }
    return key;
  }

  const GraphsByLocation& graphs_;
  Part a_;
  Part b_;
  std::vector<uint32_t> node_map_;
};

// The classes of `parts` (indices into `graphs` with their node subsets): each joins the first
// class whose representative it is equivalent to.
std::vector<Cluster> Classify(
    const std::vector<ProcessGraph>& graphs,
    const std::vector<std::pair<uint32_t, const std::vector<bool>*>>& parts,
    const ClusterOptions& options) {
  std::vector<Cluster> clusters;
  std::vector<const std::vector<bool>*> subset_of(graphs.size(), nullptr);
  const GraphsByLocation index = IndexByLocation(graphs);
  for (const auto& [p, subset] : parts) {
    subset_of[p] = subset;
    Cluster* home = nullptr;
    for (Cluster& c : clusters) {
      const Part rep{&graphs[c.representative], subset_of[c.representative]};
      if (Comparison(index, rep, Part{&graphs[p], subset}).Run(options, nullptr) ==
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
    double sum = 0;
    c.min_ticks = c.max_ticks =
        Part{&graphs[c.members.front()], subset_of[c.members.front()]}.Ticks();
    for (uint32_t m : c.members) {
      const double t = Part{&graphs[m], subset_of[m]}.Ticks();
      c.min_ticks = std::min(c.min_ticks, t);
      c.max_ticks = std::max(c.max_ticks, t);
      sum += t;
    }
    c.mean_ticks = sum / static_cast<double>(c.members.size());
  }
  return clusters;
}

}  // namespace

const char* DifferenceName(Difference difference) {
  switch (difference) {
    case Difference::kEquivalent:
      return "equivalent";
    case Difference::kStructure:
      return "structure";
    case Difference::kCounts:
      return "counts";
    case Difference::kTimes:
      return "times";
  }
  return "structure";
}

Difference Compare(const std::vector<ProcessGraph>& graphs, uint32_t a, uint32_t b,
                   const ClusterOptions& options, TimeDistance* distance) {
  return Comparison(IndexByLocation(graphs), Part{&graphs[a]}, Part{&graphs[b]})
      .Run(options, distance);
}

std::vector<Cluster> ClusterProcesses(const std::vector<ProcessGraph>& graphs,
                                      const ClusterOptions& options) {
  std::vector<std::pair<uint32_t, const std::vector<bool>*>> parts;
  for (uint32_t p = 0; p < graphs.size(); ++p) parts.emplace_back(p, nullptr);
  return Classify(graphs, parts, options);
}

std::vector<SectionClasses> ClusterSections(const std::vector<ProcessGraph>& graphs,
                                            const std::vector<std::vector<Section>>& sections,
                                            const ClusterOptions& options) {
  // The processes that have each section, by its key, in process order.
  std::map<std::string, std::vector<std::pair<uint32_t, const Section*>>> by_key;
  std::vector<std::string> order;
  for (uint32_t p = 0; p < sections.size(); ++p) {
    for (const Section& s : sections[p]) {
      auto& holders = by_key[s.key];
      if (holders.empty()) order.push_back(s.key);
      holders.emplace_back(p, &s);
    }
  }
  std::vector<SectionClasses> result;
  for (const std::string& key : order) {
    const auto& holders = by_key[key];
    std::vector<std::vector<bool>> masks;
    masks.reserve(holders.size());
    std::vector<std::pair<uint32_t, const std::vector<bool>*>> parts;
    for (const auto& [p, section] : holders) {
      std::vector<bool>& mask = masks.emplace_back(graphs[p].nodes.size(), false);
      for (uint32_t v : section->nodes) mask[v] = true;
    }
    for (size_t i = 0; i < holders.size(); ++i) parts.emplace_back(holders[i].first, &masks[i]);
    SectionClasses& sc = result.emplace_back();
    sc.key = key;
    sc.kind = holders.front().second->kind;
    sc.label = holders.front().second->label;
    sc.classes = Classify(graphs, parts, options);
  }
  return result;
}

}  // namespace cw::tag
