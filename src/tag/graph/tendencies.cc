#include "tag/graph/tendencies.h"

#include <algorithm>
#include <map>
#include <utility>

namespace cw::tag {
namespace {

// An activity's spread is reported when the slowest member (class) spends at least 10% more
// than the mean there, and that excess is at least 0.1% of a process's time.
constexpr double kRelativeSpread = 0.1;
constexpr double kRelevantShare = 0.001;

void AddTendencies(const std::vector<ProcessGraph>& graphs, uint32_t process,
                   std::vector<Tendency>& out) {
  const ProcessGraph& g = graphs[process];
  // Per receiving node, the point-to-point edges of each kind of lateness.
  std::map<uint32_t, std::pair<Tendency, Tendency>> by_node;
  for (const Edge& e : g.edges) {
    if (e.kind != EdgeKind::kMessageIn || e.via != MessageVia::kPointToPoint) continue;
    const uint64_t n = e.time.count;
    auto& [late_sender, late_receiver] = by_node[e.to];
    if (2 * e.late_senders >= n && e.late_senders > 0) {
      late_sender.peers.push_back(e.peer);
      late_sender.messages += n;
      late_sender.late += e.late_senders;
      late_sender.ticks += e.late_sender_ticks;
    } else if (2 * e.late_receivers >= n && e.late_receivers > 0) {
      late_receiver.peers.push_back(e.peer);
      late_receiver.messages += n;
      late_receiver.late += e.late_receivers;
      late_receiver.ticks += e.late_receiver_ticks;
    }
  }
  for (auto& [node, pair] : by_node) {
    for (Tendency* t : {&pair.first, &pair.second}) {
      if (t->peers.empty()) continue;
      t->kind = t == &pair.first ? TendencyKind::kLateSender : TendencyKind::kLateReceiver;
      t->process = process;
      t->node = node;
      std::sort(t->peers.begin(), t->peers.end());
      t->peers.erase(std::unique(t->peers.begin(), t->peers.end()), t->peers.end());
      t->many_senders = t->kind == TendencyKind::kLateSender && t->peers.size() >= 2;
      out.push_back(std::move(*t));
    }
  }
}

// The time of each activity of a process by key: a node's call path, or "A -> B" for the
// computation between nodes A and B.
std::vector<std::pair<std::string, double>> ActivityTimes(const ProcessGraph& g) {
  std::vector<std::pair<std::string, double>> times;
  for (const Node& n : g.nodes) {
    if (n.kind != NodeKind::kStart && n.kind != NodeKind::kEnd) {
      times.emplace_back(NodeLabel(n), n.time.total);
    }
  }
  for (const Edge& e : g.edges) {
    if (e.kind == EdgeKind::kFlow) {
      times.emplace_back(NodeLabel(g.nodes[e.from]) + " -> " + NodeLabel(g.nodes[e.to]),
                         e.time.total);
    }
  }
  return times;
}

}  // namespace

const char* TendencyKindName(TendencyKind kind) {
  return kind == TendencyKind::kLateSender ? "late_sender" : "late_receiver";
}

GraphFindings FindTendencies(const std::vector<ProcessGraph>& graphs,
                             const std::vector<Cluster>& clusters) {
  GraphFindings f;
  for (uint32_t p = 0; p < graphs.size(); ++p) AddTendencies(graphs, p, f.tendencies);
  std::stable_sort(f.tendencies.begin(), f.tendencies.end(),
                   [](const Tendency& a, const Tendency& b) { return a.ticks > b.ticks; });

  // Each activity (node, or the computation of a flow edge) by key, per class: its time on
  // every member (members of a class have the same nodes and edges).
  std::map<std::string, std::vector<ClassSpread>> per_activity;
  for (uint32_t c = 0; c < clusters.size(); ++c) {
    const Cluster& cluster = clusters[c];
    std::map<std::string, ClassSpread> spreads;
    for (uint32_t m : cluster.members) {
      for (const auto& [key, ticks] : ActivityTimes(graphs[m])) {
        auto [it, first] = spreads.try_emplace(key);
        ClassSpread& s = it->second;
        if (first) {
          s.cluster = c;
          s.callpath = key;
          s.min_ticks = s.max_ticks = ticks;
          s.slowest_rank = graphs[m].rank;
        } else {
          if (ticks > s.max_ticks) s.slowest_rank = graphs[m].rank;
          s.min_ticks = std::min(s.min_ticks, ticks);
          s.max_ticks = std::max(s.max_ticks, ticks);
        }
        s.mean_ticks += ticks / static_cast<double>(cluster.members.size());
      }
    }
    for (auto& [key, s] : spreads) {
      const double excess = s.max_ticks - s.mean_ticks;
      if (cluster.members.size() >= 2 && excess >= kRelativeSpread * s.mean_ticks &&
          excess >= kRelevantShare * cluster.mean_ticks && excess > 0) {
        f.class_spreads.push_back(s);
      }
      per_activity[key].push_back(s);
    }
  }
  std::stable_sort(f.class_spreads.begin(), f.class_spreads.end(),
                   [](const ClassSpread& a, const ClassSpread& b) {
                     return a.max_ticks - a.mean_ticks > b.max_ticks - b.mean_ticks;
                   });
  auto range = [](const std::vector<ClassSpread>& v) {
    auto [lo, hi] = std::minmax_element(
        v.begin(), v.end(),
        [](const ClassSpread& a, const ClassSpread& b) { return a.mean_ticks < b.mean_ticks; });
    return std::make_pair(hi->mean_ticks - lo->mean_ticks, hi->mean_ticks);
  };
  double largest_total = 0;
  for (const Cluster& c : clusters) largest_total = std::max(largest_total, c.mean_ticks);
  for (auto& [activity, spreads] : per_activity) {
    if (spreads.size() < 2) continue;
    auto [difference, largest] = range(spreads);
    if (difference > 0 && difference >= kRelativeSpread * largest &&
        difference >= kRelevantShare * largest_total) {
      f.between_classes.push_back(std::move(spreads));
    }
  }
  std::stable_sort(f.between_classes.begin(), f.between_classes.end(),
                   [&](const auto& a, const auto& b) { return range(a).first > range(b).first; });
  return f;
}

}  // namespace cw::tag
