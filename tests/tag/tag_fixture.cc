#include "tests/tag/tag_fixture.h"

#include <gtest/gtest.h>

#include "match/matcher.h"
#include "otf2/trace_reader.h"

namespace cw::test {

TagRun BuildFileTags(const std::string& anchor, const tag::GraphBuildOptions& options,
                     double tolerance) {
  TagRun run;
  otf2::ReadOptions read;
  read.threads = 2;
  Result<trace::Trace> t = otf2::ReadTrace(anchor, read);
  if (!t) {
    ADD_FAILURE() << "reading " << anchor << ": " << t.error().message();
    return run;
  }
  run.trace = std::move(*t);
  run.sync = match::MatchTrace(run.trace, 2);
  run.graphs = tag::BuildTraceGraphs(run.trace, run.sync, options);
  run.ptag = tag::InterProcessEdges(run.graphs.processes);
  run.clusters = tag::ClusterProcesses(run.graphs.processes, {.tolerance = tolerance});
  return run;
}

TagRun BuildScenarioTags(const cw::testing::Scenario& scenario,
                         const tag::GraphBuildOptions& options, double tolerance) {
  return BuildFileTags(scenario.WriteOrDie(cw::testing::MakeTempDir("tag")), options, tolerance);
}

const tag::ProcessGraph& TagRun::Rank(uint32_t rank) const {
  for (const tag::ProcessGraph& g : graphs.processes) {
    if (g.rank == rank) return g;
  }
  ADD_FAILURE() << "no graph of rank " << rank;
  static const tag::ProcessGraph kEmpty;
  return kEmpty;
}

uint32_t TagRun::Node(uint32_t rank, const std::string& callpath) const {
  const tag::ProcessGraph& g = Rank(rank);
  for (uint32_t v = 0; v < g.nodes.size(); ++v) {
    if (g.nodes[v].callpath == callpath) return v;
  }
  ADD_FAILURE() << "rank " << rank << " has no node " << callpath;
  return 0;
}

const tag::Edge* TagRun::Local(uint32_t rank, tag::EdgeKind kind, const std::string& from,
                               const std::string& to) const {
  const tag::ProcessGraph& g = Rank(rank);
  const uint32_t a = Node(rank, from), b = Node(rank, to);
  for (const tag::Edge& e : g.edges) {
    if (e.kind == kind && e.from == a && e.to == b) return &e;
  }
  return nullptr;
}

std::vector<const tag::Edge*> TagRun::Messages(uint32_t rank, tag::EdgeKind kind,
                                               const std::string& callpath) const {
  const tag::ProcessGraph& g = Rank(rank);
  const uint32_t v = Node(rank, callpath);
  std::vector<const tag::Edge*> result;
  for (const tag::Edge& e : g.edges) {
    if (e.kind != kind) continue;
    if ((kind == tag::EdgeKind::kMessageIn ? e.to : e.from) == v) result.push_back(&e);
  }
  return result;
}

std::string TagRun::SenderPath(const tag::Edge& in) const {
  if (in.from == tag::kNoNode) return "<unknown>";
  return Rank(in.peer).nodes.at(in.from).callpath;
}

std::vector<std::vector<uint32_t>> TagRun::ClassRanks() const {
  std::vector<std::vector<uint32_t>> classes;
  for (const tag::Cluster& c : clusters) {
    auto& ranks = classes.emplace_back();
    for (uint32_t m : c.members) ranks.push_back(graphs.processes[m].rank);
  }
  return classes;
}

cw::testing::Scenario HaloExchange(int n) {
  const int ranks = 4;
  cw::testing::Scenario s(ranks);
  for (int r = 0; r < ranks; ++r) s.rank(r).Enter(0, "main").Call(0, 1, "MPI_Init");
  for (int i = 0; i < n; ++i) {
    uint64_t t0 = 2 + 10 * static_cast<uint64_t>(i);
    for (int r = 0; r < ranks; ++r) {
      uint64_t right_req = 100 + 2 * static_cast<uint64_t>(i), left_req = right_req + 1;
      if (r < ranks - 1) s.rank(r).Isend(t0, t0 + 1, r + 1, 1, 800, right_req);
      if (r > 0) s.rank(r).Isend(t0 + 1, t0 + 2, r - 1, 2, 800, left_req);
      if (r > 0) s.rank(r).Recv(t0 + 3, t0 + 4, r - 1, 1, 800);
      if (r < ranks - 1) s.rank(r).Recv(t0 + 5, t0 + 6, r + 1, 2, 800);
      s.rank(r).Complete(t0 + 7, t0 + 8, "MPI_Waitall", [&](cw::testing::RankScript& rs) {
        if (r < ranks - 1) rs.IsendCompleteEvent(t0 + 8, right_req);
        if (r > 0) rs.IsendCompleteEvent(t0 + 8, left_req);
      });
    }
  }
  uint64_t end = 2 + 10 * static_cast<uint64_t>(n);
  for (int r = 0; r < ranks; ++r) {
    s.rank(r).Call(end, end + 1, "MPI_Finalize").Leave(end + 3, "main");
  }
  return s;
}

std::string FlowConservationProblems(const tag::ProcessGraph& graph) {
  std::vector<uint64_t> in(graph.nodes.size(), 0), out(graph.nodes.size(), 0);
  for (const tag::Edge& e : graph.edges) {
    if (e.kind != tag::EdgeKind::kFlow) continue;
    out[e.from] += e.time.count;
    in[e.to] += e.time.count;
  }
  std::string problems;
  for (uint32_t v = 0; v < graph.nodes.size(); ++v) {
    const tag::Node& n = graph.nodes[v];
    uint64_t count = n.time.count;
    uint64_t entered = in[v] + (n.kind == tag::NodeKind::kStart ? 1 : 0);
    uint64_t left = out[v] + (n.kind == tag::NodeKind::kEnd ? 1 : 0);
    if (count != entered || count != left) {
      problems += "rank " + std::to_string(graph.rank) + " node " + std::to_string(v) + " (" +
                  n.callpath + "): count " + std::to_string(count) + ", entered " +
                  std::to_string(entered) + ", left " + std::to_string(left) + "\n";
    }
  }
  return problems;
}

}  // namespace cw::test
