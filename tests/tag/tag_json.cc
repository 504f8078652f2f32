#include "tests/tag/tag_json.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <tuple>

#include <gtest/gtest.h>

namespace cw::test {

using nlohmann::json;

TagProcess::TagProcess(const json& tag, int rank) {
  for (const json& p : tag["processes"]) {
    if (p["rank"] == rank) json_ = p;
  }
  if (json_.is_null()) {
    ADD_FAILURE() << "no process of rank " << rank;
    json_ = {{"nodes", json::array()}, {"edges", json::array()}, {"loops", json::array()}};
  }
}

std::vector<json> TagProcess::NodesAt(const std::string& callpath) const {
  std::vector<json> found;
  for (const json& n : nodes()) {
    if (n["callpath"] == callpath) found.push_back(n);
  }
  return found;
}

json TagProcess::Node(const std::string& callpath) const {
  std::vector<json> found = NodesAt(callpath);
  if (found.size() != 1) {
    ADD_FAILURE() << "rank " << json_["rank"] << ": " << found.size() << " nodes " << callpath;
    return {{"id", -1}, {"count", 0}, {"time", 0.0}, {"callpath", callpath}};
  }
  return found[0];
}

json TagProcess::NodeOfKind(const std::string& kind) const {
  std::vector<json> found;
  for (const json& n : nodes()) {
    if (n["kind"] == kind) found.push_back(n);
  }
  if (found.size() != 1) {
    ADD_FAILURE() << "rank " << json_["rank"] << ": " << found.size() << " nodes of kind " << kind;
    return {{"id", -1}, {"count", 0}, {"iterations", 0}};
  }
  return found[0];
}

json TagProcess::Edge(const std::string& kind, const json& from, const json& to) const {
  for (const json& e : edges()) {
    if (e["kind"] == kind && e["from"] == from && e["to"] == to) return e;
  }
  ADD_FAILURE() << "rank " << json_["rank"] << ": no " << kind << " edge " << from << " -> " << to;
  return {{"count", 0}, {"back", false}};
}

json TagProcess::Flow(const json& from, const json& to) const { return Edge("flow", from, to); }
json TagProcess::Completion(const json& from, const json& to) const {
  return Edge("completion", from, to);
}

json TagProcess::MessageOut(const json& node, int peer) const {
  for (const json& e : edges()) {
    if (e["kind"] == "message_out" && e["from"] == node && e["peer"] == peer) return e;
  }
  ADD_FAILURE() << "rank " << json_["rank"] << ": node " << node << " sends nothing to " << peer;
  return {{"count", 0}, {"bytes", 0}, {"size_histogram", json::array()}};
}

json TagProcess::MessageIn(const json& node, int peer, const json& sender) const {
  for (const json& e : edges()) {
    if (e["kind"] == "message_in" && e["to"] == node && e["peer"] == peer && e["from"] == sender) {
      return e;
    }
  }
  ADD_FAILURE() << "rank " << json_["rank"] << ": node " << node << " receives nothing from "
                << peer << "'s node " << sender;
  return {{"count", 0}, {"bytes", 0}, {"time", 0.0}, {"delta_t", {{"mean", 0.0}}}};
}

std::vector<json> TagProcess::IncomingOf(const json& node) const {
  std::vector<json> found;
  for (const json& e : edges()) {
    if (e["kind"] == "message_in" && e["to"] == node) found.push_back(e);
  }
  return found;
}

std::vector<std::vector<int>> Classes(const json& tag) {
  std::vector<std::vector<int>> classes;
  for (const json& c : tag["clusters"]) {
    std::vector<int> members = c["members"].get<std::vector<int>>();
    std::sort(members.begin(), members.end());
    classes.push_back(members);
  }
  std::sort(classes.begin(), classes.end());
  return classes;
}

namespace {

struct Figures {
  uint64_t count = 0;
  double time = 0;
  uint64_t bytes = 0;
  uint64_t iterations = 0;
  bool timed = true;  // its time is compared
};

using NodeKey = std::pair<std::string, std::string>;  // kind, call path

// A process's graph with its nodes merged by kind and call path.
struct Merged {
  std::map<NodeKey, Figures> nodes;
  // Causal paths by loop and by the sequence of their steps' nodes; the partners are left out
  // where they depend on the run (wildcard receives), and compared in the programs' own tests.
  std::map<std::pair<NodeKey, std::vector<NodeKey>>, Figures> paths;
  std::map<std::tuple<std::string, NodeKey, NodeKey>, Figures> local;  // flow, completion
  std::map<std::tuple<std::string, NodeKey, int, std::string, NodeKey>, Figures> messages;
};

bool Untimed(const NodeKey& k) {
  return k.first == "start" || k.first == "end" || k.second.ends_with("/MPI_Init") ||
         k.second.ends_with("/MPI_Init_thread") || k.second.ends_with("/MPI_Finalize");
}

std::map<int, std::vector<NodeKey>> NodeKeys(const json& tag) {
  std::map<int, std::vector<NodeKey>> keys;
  for (const json& p : tag["processes"]) {
    std::vector<NodeKey>& k = keys[p["rank"].get<int>()];
    for (const json& n : p["nodes"]) k.emplace_back(n["kind"], n["callpath"]);
  }
  return keys;
}

std::map<int, Merged> Merge(const json& tag) {
  const std::map<int, std::vector<NodeKey>> keys = NodeKeys(tag);
  std::map<int, Merged> merged;
  for (const json& p : tag["processes"]) {
    const int rank = p["rank"];
    const std::vector<NodeKey>& k = keys.at(rank);
    Merged& m = merged[rank];
    for (const json& n : p["nodes"]) {
      Figures& f = m.nodes[k[n["id"].get<size_t>()]];
      f.count += n["count"].get<uint64_t>();
      f.time += n["time"].get<double>();
      f.iterations += n.value("iterations", uint64_t{0});
    }
    for (const json& path : p.value("paths", json::array())) {
      std::vector<NodeKey> steps;
      for (const json& step : path["steps"]) steps.push_back(k[step["node"].get<size_t>()]);
      Figures& f = m.paths[{k[path["loop"].get<size_t>()], steps}];
      f.count += path["count"].get<uint64_t>();
      f.time += path["time"].get<double>();
      f.timed = false;
    }
    for (const json& e : p["edges"]) {
      const std::string kind = e["kind"];
      Figures* f = nullptr;
      if (kind == "flow" || kind == "completion") {
        const NodeKey from = k[e["from"].get<size_t>()], to = k[e["to"].get<size_t>()];
        f = &m.local[{kind, from, to}];
        f->timed = kind == "flow" && !Untimed(from) && !Untimed(to);
      } else {
        const bool in = kind == "message_in";
        const NodeKey node = k[e[in ? "to" : "from"].get<size_t>()];
        NodeKey sender{"", "?"};
        if (in && !e["from"].is_null() && keys.count(e["peer"].get<int>()) > 0) {
          sender = keys.at(e["peer"].get<int>()).at(e["from"].get<size_t>());
        }
        f = &m.messages[{kind, node, e["peer"].get<int>(), e["via"], sender}];
        f->timed = false;
        f->bytes += e["bytes"].get<uint64_t>();
      }
      f->count += e["count"].get<uint64_t>();
      f->time += e["time"].get<double>();
    }
  }
  return merged;
}

// Two runs of one program: computation (flow edges) is what the program asks for, up to the
// scheduler's jitter; the time in MPI calls is mostly waiting for other ranks, whose jitter
// adds up. Means within 30% plus 2 ms (computation) or 5 ms (calls): a wrong unit, a lost
// occurrence or the tool's own time counted in would all be far outside.
// A mean outside those bounds is added to `far` (the caller decides whether to measure again).
void CompareMeans(const Figures& a, const Figures& b, const std::string& what, double slack,
                  std::vector<std::string>* far) {
  if (a.count == 0 || b.count == 0) return;
  const double ma = a.time / static_cast<double>(a.count);
  const double mb = b.time / static_cast<double>(b.count);
  if (std::abs(ma - mb) > 0.3 * std::max(ma, mb) + slack) {
    far->push_back(what + ": mean " + std::to_string(ma) + " s online, " + std::to_string(mb) +
                   " s offline, more apart than 30 % + " + std::to_string(slack) + " s");
  }
}

template <typename Map>
void ExpectSameEntries(const Map& online, const Map& offline, int rank, const char* what,
                       std::vector<std::string>* far) {
  for (const auto& [key, figures] : online) {
    auto it = offline.find(key);
    if (it == offline.end()) {
      ADD_FAILURE() << "rank " << rank << ": a " << what << " only online";
      continue;
    }
    EXPECT_EQ(figures.count, it->second.count) << "rank " << rank << " " << what;
    EXPECT_EQ(figures.bytes, it->second.bytes) << "rank " << rank << " " << what;
    EXPECT_EQ(figures.iterations, it->second.iterations) << "rank " << rank << " " << what;
    if (figures.timed) {
      CompareMeans(figures, it->second, "rank " + std::to_string(rank) + " " + what, 2e-3, far);
    }
  }
  for (const auto& [key, figures] : offline) {
    if (online.count(key) == 0)
      ADD_FAILURE() << "rank " << rank << ": a " << what << " only offline";
  }
}

// Checks everything but the times, and returns the times that are far apart.
std::vector<std::string> CompareGraphs(const json& online, const json& offline) {
  std::vector<std::string> far;
  EXPECT_EQ(online["recorded"], "online");
  EXPECT_EQ(offline["recorded"], "trace");
  const std::map<int, Merged> on = Merge(online), off = Merge(offline);
  EXPECT_EQ(on.size(), off.size());
  if (on.size() != off.size()) return far;
  for (const auto& [rank, graph] : on) {
    SCOPED_TRACE("rank " + std::to_string(rank));
    EXPECT_EQ(off.count(rank), 1u);
    if (off.count(rank) != 1) continue;
    const Merged& other = off.at(rank);
    for (const auto& [key, f] : graph.nodes) {
      auto it = other.nodes.find(key);
      if (it == other.nodes.end()) {
        ADD_FAILURE() << "node " << key.second << " only online";
        continue;
      }
      EXPECT_EQ(f.count, it->second.count) << key.second;
      EXPECT_EQ(f.iterations, it->second.iterations) << key.second;
      if (!Untimed(key)) {
        CompareMeans(f, it->second, "rank " + std::to_string(rank) + " " + key.second, 5e-3, &far);
      }
    }
    for (const auto& [key, f] : other.nodes) {
      if (graph.nodes.count(key) == 0) ADD_FAILURE() << "node " << key.second << " only offline";
    }
    ExpectSameEntries(graph.local, other.local, rank, "flow or completion edge", &far);
    ExpectSameEntries(graph.messages, other.messages, rank, "message edge", &far);
    ExpectSameEntries(graph.paths, other.paths, rank, "causal path", &far);
  }
  // The inter-process edges, by their ends' call paths.
  auto ptag = [](const json& tag) {
    const std::map<int, std::vector<NodeKey>> keys = NodeKeys(tag);
    std::map<std::tuple<int, NodeKey, int, NodeKey, std::string>, std::pair<uint64_t, uint64_t>> e;
    for (const json& x : tag["ptag_edges"]) {
      const int from = x["from_rank"], to = x["to_rank"];
      auto& f = e[{from, keys.at(from).at(x["from_node"].get<size_t>()), to,
                   keys.at(to).at(x["to_node"].get<size_t>()), x["via"]}];
      f.first += x["count"].get<uint64_t>();
      f.second += x["bytes"].get<uint64_t>();
    }
    return e;
  };
  EXPECT_EQ(ptag(online), ptag(offline));
  return far;
}

}  // namespace

void ExpectSameGraphs(const json& online, const json& offline, const RunBothAgain& again) {
  std::vector<std::string> far = CompareGraphs(online, offline);
  for (int run = 0; run < 2 && !far.empty() && again; ++run) {
    const auto [online_again, offline_again] = again();
    far = CompareGraphs(online_again, offline_again);
  }
  for (const std::string& f : far) ADD_FAILURE() << f;
}

}  // namespace cw::test
