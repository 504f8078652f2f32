// Graphviz DOT and GraphML of the PTAG and of the clustered graph. Both formats are drawn from
// one intermediate view: groups of a process graph each (a process, or a class's
// representative), plus the message edges between groups.
#include <cstdio>
#include <map>
#include <string>
#include <tuple>
#include <vector>

#include "base/utf8.h"
#include "tag/output/tag_writers.h"

namespace cw::tag {
namespace {

struct Group {
  std::string id;     // prefix of its node ids: "p3" (location 3) or "c1" (class 1)
  std::string label;  // "rank 3", "ranks 1–6"
  std::string members;
  const ProcessGraph* graph = nullptr;
};

struct CrossEdge {
  std::string from;  // node ids
  std::string to;
  std::string via;
  uint64_t count = 0;
  uint64_t bytes = 0;
  double seconds = 0;
};

struct View {
  std::vector<Group> groups;
  std::vector<CrossEdge> edges;
};

std::string NodeId(const std::string& group, uint32_t node) {
  return group + "n" + std::to_string(node);
}

View PtagView(const TagDocument& doc) {
  View view;
  std::map<uint32_t, std::string> group_of_location;
  for (const ProcessGraph& g : doc.processes) {
    std::string id = "p" + std::to_string(g.location);
    group_of_location[g.location] = id;
    view.groups.push_back({id, "rank " + std::to_string(g.rank), std::to_string(g.rank), &g});
  }
  for (const PtagEdge& e : doc.ptag) {
    auto from = group_of_location.find(e.from_location);
    auto to = group_of_location.find(e.to_location);
    if (from == group_of_location.end() || to == group_of_location.end()) continue;
    double tps = doc.processes.front().ticks_per_second;
    view.edges.push_back({NodeId(from->second, e.from_node), NodeId(to->second, e.to_node),
                          MessageViaName(e.via), e.count, e.bytes, e.ticks / tps});
  }
  return view;
}

// Each class drawn as its representative; the inter-process edges of all members land on the
// representative's nodes of the same kind and call path, summed.
View ClustersView(const TagDocument& doc) {
  View view;
  std::map<uint32_t, size_t> class_of_location;
  std::vector<std::map<std::pair<NodeKind, std::string>, uint32_t>> rep_nodes;  // by label
  for (size_t c = 0; c < doc.clusters.size(); ++c) {
    const Cluster& cluster = doc.clusters[c];
    const ProcessGraph& rep = doc.processes[cluster.representative];
    std::string ranks = RankList(MemberRanks(doc, cluster));
    view.groups.push_back({"c" + std::to_string(c + 1),
                           (cluster.members.size() == 1 ? "rank " : "ranks ") + ranks, ranks,
                           &rep});
    for (uint32_t m : cluster.members) class_of_location[doc.processes[m].location] = c;
    auto& index = rep_nodes.emplace_back();
    for (uint32_t v = 0; v < rep.nodes.size(); ++v) {
      index[{rep.nodes[v].kind, NodeLabel(rep.nodes[v])}] = v;
    }
  }
  std::map<uint32_t, const ProcessGraph*> graph_of_location;
  for (const ProcessGraph& g : doc.processes) graph_of_location[g.location] = &g;
  // The node of class `c`'s representative that stands for node `node` of `location`.
  auto rep_node = [&](size_t c, uint32_t location, uint32_t node) -> uint32_t {
    const ProcessGraph* g = graph_of_location.at(location);
    if (node >= g->nodes.size()) return kNoNode;
    auto it = rep_nodes[c].find({g->nodes[node].kind, NodeLabel(g->nodes[node])});
    return it == rep_nodes[c].end() ? kNoNode : it->second;
  };
  std::map<std::tuple<std::string, std::string, std::string>, CrossEdge> summed;
  for (const PtagEdge& e : doc.ptag) {
    auto from = class_of_location.find(e.from_location);
    auto to = class_of_location.find(e.to_location);
    if (from == class_of_location.end() || to == class_of_location.end()) continue;
    uint32_t from_node = rep_node(from->second, e.from_location, e.from_node);
    uint32_t to_node = rep_node(to->second, e.to_location, e.to_node);
    if (from_node == kNoNode || to_node == kNoNode) continue;
    std::string from_id = NodeId(view.groups[from->second].id, from_node);
    std::string to_id = NodeId(view.groups[to->second].id, to_node);
    CrossEdge& s = summed[{from_id, to_id, MessageViaName(e.via)}];
    s.from = from_id;
    s.to = to_id;
    s.via = MessageViaName(e.via);
    s.count += e.count;
    s.bytes += e.bytes;
    s.seconds += e.ticks / doc.processes.front().ticks_per_second;
  }
  for (auto& [key, edge] : summed) view.edges.push_back(edge);
  return view;
}

std::string DotText(const std::string& text) {
  std::string out;
  for (char c : ValidUtf8(text)) {
    if (c == '"' || c == '\\') out += '\\';
    if (c == '\n') {
      out += "\\n";
      continue;
    }
    out += c;
  }
  return out;
}

std::string XmlText(const std::string& text) {
  std::string out;
  for (char c : ValidUtf8(text)) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      default:
        // Control characters other than tab and newline are not allowed in XML 1.0.
        if (static_cast<unsigned char>(c) < 0x20 && c != '\t' && c != '\n') {
          out += ' ';
        } else {
          out += c;
        }
    }
  }
  return out;
}

std::string Number(double value) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.9g", value);
  return buffer;
}

std::string Dot(const View& view, const std::string& name) {
  std::string out = "digraph \"" + name + "\" {\n  rankdir=TB;\n  node [shape=box, fontsize=10];\n";
  for (const Group& group : view.groups) {
    const ProcessGraph& g = *group.graph;
    const double total = g.TotalTicks();
    out +=
        "  subgraph \"cluster_" + group.id + "\" {\n    label=\"" + DotText(group.label) + "\";\n";
    for (uint32_t v = 0; v < g.nodes.size(); ++v) {
      const Node& n = g.nodes[v];
      double share = total > 0 ? n.time.total / total : 0;
      out += "    \"" + NodeId(group.id, v) + "\" [label=\"" +
             DotText(n.name + "\n" + NodeLabel(n) + "\n" + std::to_string(n.time.count) + "x, " +
                     Number(g.Seconds(n.time.total)) + " s") +
             "\", penwidth=" + Number(1 + 4 * share) + "];\n";
    }
    for (const Edge& e : g.edges) {
      if (e.kind != EdgeKind::kFlow && e.kind != EdgeKind::kCompletion) continue;
      double share = total > 0 && e.kind == EdgeKind::kFlow ? e.time.total / total : 0;
      out += "    \"" + NodeId(group.id, e.from) + "\" -> \"" + NodeId(group.id, e.to) +
             "\" [label=\"" + std::to_string(e.time.count) + "\"" +
             (e.kind == EdgeKind::kCompletion ? ", style=dashed" : "") +
             (e.back ? ", constraint=false" : "") + ", penwidth=" + Number(1 + 4 * share) + "];\n";
    }
    out += "  }\n";
  }
  for (const CrossEdge& e : view.edges) {
    out += "  \"" + e.from + "\" -> \"" + e.to + "\" [color=blue, label=\"" +
           std::to_string(e.count) + "\", constraint=false];\n";
  }
  return out + "}\n";
}

std::string Data(const std::string& key, const std::string& value) {
  return "<data key=\"" + key + "\">" + XmlText(value) + "</data>";
}

std::string Graphml(const View& view, const std::string& name) {
  std::string out =
      "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
      "<graphml xmlns=\"http://graphml.graphdrawing.org/xmlns\">\n";
  const char* keys[][3] = {
      {"kind", "all", "string"},      {"name", "node", "string"},    {"callpath", "node", "string"},
      {"callsite", "node", "string"}, {"count", "all", "long"},      {"time", "all", "double"},
      {"share", "all", "double"},     {"members", "node", "string"}, {"bytes", "edge", "long"},
      {"peer", "edge", "long"},       {"back", "edge", "boolean"},   {"via", "edge", "string"}};
  for (const auto& key : keys) {
    out += "  <key id=\"" + std::string(key[0]) + "\" for=\"" + key[1] + "\" attr.name=\"" +
           key[0] + "\" attr.type=\"" + key[2] + "\"/>\n";
  }
  out += "  <graph id=\"" + XmlText(name) + "\" edgedefault=\"directed\">\n";
  for (const Group& group : view.groups) {
    const ProcessGraph& g = *group.graph;
    const double total = g.TotalTicks();
    for (uint32_t v = 0; v < g.nodes.size(); ++v) {
      const Node& n = g.nodes[v];
      out += "    <node id=\"" + NodeId(group.id, v) + "\">" + Data("kind", NodeKindName(n.kind)) +
             Data("name", n.name) + Data("callpath", n.callpath) +
             (n.callsite.empty() ? "" : Data("callsite", n.callsite)) +
             Data("count", std::to_string(n.time.count)) +
             Data("time", Number(g.Seconds(n.time.total))) +
             Data("share", Number(total > 0 ? n.time.total / total : 0)) +
             Data("members", group.members) + "</node>\n";
    }
    for (const Edge& e : g.edges) {
      if (e.kind != EdgeKind::kFlow && e.kind != EdgeKind::kCompletion) continue;
      out +=
          "    <edge source=\"" + NodeId(group.id, e.from) + "\" target=\"" +
          NodeId(group.id, e.to) + "\">" + Data("kind", EdgeKindName(e.kind)) +
          Data("count", std::to_string(e.time.count)) +
          Data("time", Number(g.Seconds(e.time.total))) +
          Data("share", Number(total > 0 && e.kind == EdgeKind::kFlow ? e.time.total / total : 0)) +
          Data("back", e.back ? "true" : "false") + "</edge>\n";
    }
  }
  for (const CrossEdge& e : view.edges) {
    out += "    <edge source=\"" + e.from + "\" target=\"" + e.to + "\">" +
           Data("kind", "message") + Data("via", e.via) + Data("count", std::to_string(e.count)) +
           Data("bytes", std::to_string(e.bytes)) + Data("time", Number(e.seconds)) + "</edge>\n";
  }
  return out + "  </graph>\n</graphml>\n";
}

}  // namespace

std::string PtagDot(const TagDocument& doc) { return Dot(PtagView(doc), "ptag"); }
std::string ClustersDot(const TagDocument& doc) { return Dot(ClustersView(doc), "clusters"); }
std::string PtagGraphml(const TagDocument& doc) { return Graphml(PtagView(doc), "ptag"); }
std::string ClustersGraphml(const TagDocument& doc) {
  return Graphml(ClustersView(doc), "clusters");
}

}  // namespace cw::tag
