// Builds the task activity graphs of a hand-built trace for the tag tests, and finds nodes and
// edges in them by call path.
//
//   TagRun run = BuildScenarioTags(scenario);
//   const tag::Node& n = run.NodeOf(0, "main/f/MPI_Barrier");
//   const tag::Edge& e = run.Flow(0, "main/MPI_Recv", "main/MPI_Send");
#pragma once

#include <string>
#include <vector>

#include "match/sync_graph.h"
#include "tag/build/trace_graphs.h"
#include "tag/graph/clustering.h"
#include "tag/graph/parallel_graph.h"
#include "testing/scenario.h"
#include "trace/trace.h"

namespace cw::test {

struct TagRun {
  trace::Trace trace;
  match::SyncGraph sync;
  tag::TraceGraphs graphs;
  std::vector<tag::PtagEdge> ptag;
  std::vector<tag::Cluster> clusters;

  const tag::ProcessGraph& Rank(uint32_t rank) const;  // fails the test if absent
  // The node of `rank` with this call path ("start" and "end" for the markers); fails if absent.
  uint32_t Node(uint32_t rank, const std::string& callpath) const;
  const tag::Node& NodeOf(uint32_t rank, const std::string& callpath) const {
    return Rank(rank).nodes[Node(rank, callpath)];
  }
  // The flow or completion edge between two call paths, nullptr if none.
  const tag::Edge* Local(uint32_t rank, tag::EdgeKind kind, const std::string& from,
                         const std::string& to) const;
  // The message edges of the node with this call path, in edge order.
  std::vector<const tag::Edge*> Messages(uint32_t rank, tag::EdgeKind kind,
                                         const std::string& callpath) const;
  // The call path of the sender's node a message_in edge names.
  std::string SenderPath(const tag::Edge& in) const;
  // The members of each class, as ranks.
  std::vector<std::vector<uint32_t>> ClassRanks() const;
};

TagRun BuildScenarioTags(const cw::testing::Scenario& scenario,
                         const tag::GraphBuildOptions& options = {}, double tolerance = 0.02);
TagRun BuildFileTags(const std::string& anchor, const tag::GraphBuildOptions& options = {},
                     double tolerance = 0.02);

// A 1-D halo exchange of 4 ranks, `n` iterations from t0 = 2 + 10 i: MPI_Isend to the right
// neighbour t0..t0+1 and to the left t0+1..t0+2, MPI_Recv from the left t0+3..t0+4 and from
// the right t0+5..t0+6, MPI_Waitall t0+7..t0+8 completing the sends; ranks without a
// neighbour skip its calls.
cw::testing::Scenario HaloExchange(int n);

// Sikora et al. 2016 §3.4's flow conservation: every node ran as often as flow edges entered it
// (plus one for start) and as often as they left it (plus one for end). Returns what is violated,
// empty if nothing.
std::string FlowConservationProblems(const tag::ProcessGraph& graph);

}  // namespace cw::test
