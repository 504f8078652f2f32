#include "tag/model/loops.h"

#include <algorithm>
#include <utility>

namespace cw::tag {
namespace {

// Flow-edge adjacency: for each node the indices of its outgoing flow edges, in edge order.
std::vector<std::vector<uint32_t>> FlowSuccessors(const ProcessGraph& graph) {
  std::vector<std::vector<uint32_t>> out(graph.nodes.size());
  for (uint32_t e = 0; e < graph.edges.size(); ++e) {
    const Edge& edge = graph.edges[e];
    if (edge.kind == EdgeKind::kFlow && edge.from < out.size() && edge.to < out.size()) {
      out[edge.from].push_back(e);
    }
  }
  return out;
}

}  // namespace

void MarkBackEdges(ProcessGraph& graph) {
  auto successors = FlowSuccessors(graph);
  enum : uint8_t { kNew, kOpen, kDone };
  std::vector<uint8_t> state(graph.nodes.size(), kNew);
  // An explicit stack of (node, next successor): graphs of deep call structures must not
  // exhaust the thread's stack.
  std::vector<std::pair<uint32_t, size_t>> stack;
  for (Edge& e : graph.edges) e.back = false;
  for (uint32_t root = 0; root < graph.nodes.size(); ++root) {
    if (state[root] != kNew) continue;
    state[root] = kOpen;
    stack.emplace_back(root, 0);
    while (!stack.empty()) {
      auto& [node, next] = stack.back();
      if (next == successors[node].size()) {
        state[node] = kDone;
        stack.pop_back();
        continue;
      }
      Edge& edge = graph.edges[successors[node][next++]];
      if (state[edge.to] == kOpen) {
        edge.back = true;
      } else if (state[edge.to] == kNew) {
        state[edge.to] = kOpen;
        stack.emplace_back(edge.to, 0);
      }
    }
  }
}

std::vector<Loop> FindLoops(const ProcessGraph& graph) {
  // Tarjan's strongly connected components, iteratively.
  const uint32_t n = static_cast<uint32_t>(graph.nodes.size());
  auto successors = FlowSuccessors(graph);
  std::vector<uint32_t> index(n, kNoNode), low(n, 0), component(n, kNoNode);
  std::vector<bool> on_stack(n, false);
  std::vector<uint32_t> scc_stack;
  std::vector<std::pair<uint32_t, size_t>> dfs;
  uint32_t next_index = 0, components = 0;
  for (uint32_t root = 0; root < n; ++root) {
    if (index[root] != kNoNode) continue;
    dfs.emplace_back(root, 0);
    index[root] = low[root] = next_index++;
    scc_stack.push_back(root);
    on_stack[root] = true;
    while (!dfs.empty()) {
      auto& [node, next] = dfs.back();
      if (next < successors[node].size()) {
        uint32_t to = graph.edges[successors[node][next++]].to;
        if (index[to] == kNoNode) {
          index[to] = low[to] = next_index++;
          scc_stack.push_back(to);
          on_stack[to] = true;
          dfs.emplace_back(to, 0);
        } else if (on_stack[to]) {
          low[node] = std::min(low[node], index[to]);
        }
        continue;
      }
      uint32_t done = node;
      dfs.pop_back();
      if (!dfs.empty()) low[dfs.back().first] = std::min(low[dfs.back().first], low[done]);
      if (low[done] == index[done]) {
        uint32_t member;
        do {
          member = scc_stack.back();
          scc_stack.pop_back();
          on_stack[member] = false;
          component[member] = components;
        } while (member != done);
        ++components;
      }
    }
  }

  std::vector<Loop> loops(components);
  // Whether a back edge of the component was taken twice or more: a cycle closed once is a
  // phase the program came back to (the same call path called again much later), not a loop.
  std::vector<bool> repeats(components, false);
  for (uint32_t v = 0; v < n; ++v) loops[component[v]].body.push_back(v);
  for (const Edge& e : graph.edges) {
    if (e.kind != EdgeKind::kFlow || e.from >= n || e.to >= n) continue;
    uint32_t c = component[e.from];
    if (c != component[e.to]) continue;  // a self-edge or an edge inside a larger component
    loops[c].ticks += e.time.total;
    if (e.back && e.time.count >= 2) repeats[c] = true;
    if (e.back && (loops[c].head == kNoNode || e.to < loops[c].head)) loops[c].head = e.to;
  }
  std::vector<Loop> result;
  for (uint32_t c = 0; c < components; ++c) {
    if (!repeats[c]) continue;
    Loop& loop = loops[c];
    if (loop.head == kNoNode) loop.head = loop.body.front();
    uint64_t back_into_head = 0;
    for (const Edge& e : graph.edges) {
      if (e.kind == EdgeKind::kFlow && e.to == loop.head && e.from < n && component[e.from] == c) {
        back_into_head += e.time.count;
      }
    }
    for (uint32_t v : loop.body) loop.ticks += graph.nodes[v].time.total;
    loop.iterations = graph.nodes[loop.head].time.count;
    loop.instances = loop.iterations - std::min(loop.iterations, back_into_head);
    result.push_back(std::move(loop));
  }
  std::sort(result.begin(), result.end(),
            [](const Loop& a, const Loop& b) { return a.head < b.head; });
  return result;
}

}  // namespace cw::tag
