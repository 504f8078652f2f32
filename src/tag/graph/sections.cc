#include "tag/graph/sections.h"

#include <algorithm>
#include <map>

#include "tag/model/loops.h"

namespace cw::tag {

const char* SectionKindName(SectionKind kind) {
  return kind == SectionKind::kLoop ? "loop" : "sequence";
}

std::vector<Section> FindSections(const ProcessGraph& g) {
  const uint32_t n = static_cast<uint32_t>(g.nodes.size());
  const std::vector<Loop> loops = FindLoops(g);
  // Components: each loop is one, each activity outside loops one of its own.
  std::vector<uint32_t> component(n, kNoNode);
  for (uint32_t l = 0; l < loops.size(); ++l) {
    for (uint32_t v : loops[l].body) component[v] = l;
  }
  uint32_t components = static_cast<uint32_t>(loops.size());
  for (uint32_t v = 0; v < n; ++v) {
    if (component[v] == kNoNode) component[v] = components++;
  }
  auto is_loop = [&](uint32_t c) { return c < loops.size(); };
  // The condensation is acyclic: the loops preceding each component, by Kahn's order.
  std::vector<std::vector<uint32_t>> successors(components);
  std::vector<uint32_t> indegree(components, 0);
  for (const Edge& e : g.edges) {
    if (e.kind != EdgeKind::kFlow || e.from >= n || e.to >= n) continue;
    const uint32_t a = component[e.from], b = component[e.to];
    if (a == b) continue;
    successors[a].push_back(b);
    ++indegree[b];
  }
  std::vector<uint32_t> level(components, 0), order, ready;
  for (uint32_t c = 0; c < components; ++c) {
    if (indegree[c] == 0) ready.push_back(c);
  }
  // Ready components by their lowest node, so that the order is the flow's (start first).
  auto lowest = [&](uint32_t c) {
    return is_loop(c) ? loops[c].body.front()
                      : static_cast<uint32_t>(std::find(component.begin(), component.end(), c) -
                                              component.begin());
  };
  while (!ready.empty()) {
    auto next = std::min_element(ready.begin(), ready.end(),
                                 [&](uint32_t a, uint32_t b) { return lowest(a) < lowest(b); });
    const uint32_t c = *next;
    ready.erase(next);
    order.push_back(c);
    for (uint32_t s : successors[c]) {
      level[s] = std::max(level[s], level[c] + (is_loop(c) ? 1u : 0u));
      if (--indegree[s] == 0) ready.push_back(s);
    }
  }

  std::vector<Section> sections;
  std::map<uint32_t, size_t> sequence_at;  // level -> section
  for (uint32_t c : order) {
    if (is_loop(c)) {
      const Loop& l = loops[c];
      Section& s = sections.emplace_back();
      s.kind = SectionKind::kLoop;
      s.nodes = l.body;
      s.head = l.head;
      s.iterations = l.iterations;
      // A loop the program marked is named by its marker (the loop_entry node leading in),
      // which also counted its iterations (the head may run several times in one).
      std::string name;
      for (const Edge& e : g.edges) {
        if (e.kind == EdgeKind::kFlow && e.to < n && component[e.to] == c && e.from < n &&
            g.nodes[e.from].kind == NodeKind::kLoopEntry) {
          name = g.nodes[e.from].name;
          if (g.nodes[e.from].iterations > 0) s.iterations = g.nodes[e.from].iterations;
        }
      }
      s.key = "loop " + NodeLabel(g.nodes[l.head]);
      s.label = (name.empty() ? "loop" : "loop " + name) + " at " + NodeLabel(g.nodes[l.head]);
      continue;
    }
    const uint32_t v = lowest(c);
    auto [it, inserted] = sequence_at.try_emplace(level[c], sections.size());
    if (inserted) {
      Section& s = sections.emplace_back();
      s.kind = SectionKind::kSequence;
      s.head = v;
      s.key = "sequence " + std::to_string(level[c]);
      s.label = level[c] == 0
                    ? "before any loop"
                    : "after " + std::to_string(level[c]) + (level[c] == 1 ? " loop" : " loops");
    }
    sections[it->second].nodes.push_back(v);
  }
  for (Section& s : sections) {
    std::sort(s.nodes.begin(), s.nodes.end());
    std::vector<bool> in(n, false);
    for (uint32_t v : s.nodes) {
      in[v] = true;
      s.ticks += g.nodes[v].time.total;
    }
    for (const Edge& e : g.edges) {
      if (e.kind == EdgeKind::kFlow && e.from < n && e.to < n && in[e.from] && in[e.to]) {
        s.ticks += e.time.total;
      }
    }
  }
  return sections;
}

std::map<std::string, SectionSpread> SpreadOfSections(
    const std::vector<ProcessGraph>& graphs, const std::vector<std::vector<Section>>& sections) {
  std::map<std::string, SectionSpread> spreads;
  for (size_t p = 0; p < sections.size() && p < graphs.size(); ++p) {
    for (const Section& s : sections[p]) {
      const double seconds = graphs[p].Seconds(s.ticks);
      SectionSpread& sp = spreads[s.key];
      if (sp.processes == 0 || seconds < sp.min_seconds) sp.min_seconds = seconds;
      if (sp.processes == 0 || seconds > sp.max_seconds) {
        sp.max_seconds = seconds;
        sp.slowest_rank = graphs[p].rank;
      }
      sp.mean_seconds += seconds;
      ++sp.processes;
    }
  }
  for (auto& [key, sp] : spreads) sp.mean_seconds /= static_cast<double>(sp.processes);
  return spreads;
}

}  // namespace cw::tag
