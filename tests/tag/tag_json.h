// Reading tag.json in tests: a process's nodes and edges by call path, and the comparison of
// an online graph with the offline one of the same program.
//
//   const TagProcess p(tag, 0);
//   EXPECT_EQ(p.Flow(p.Node("main/MPI_Send")["id"], p.Node("main/MPI_Recv")["id"])["count"], 5);
#pragma once

#include <functional>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

namespace cw::test {

class TagProcess {
 public:
  // The process of `rank` in tag.json (fails the test if absent).
  TagProcess(const nlohmann::json& tag, int rank);

  const nlohmann::json& nodes() const { return json_["nodes"]; }
  const nlohmann::json& edges() const { return json_["edges"]; }
  // The one node with this call path (fails if none or several).
  nlohmann::json Node(const std::string& callpath) const;
  std::vector<nlohmann::json> NodesAt(const std::string& callpath) const;
  nlohmann::json NodeOfKind(const std::string& kind) const;  // the one node of this kind
  // The one edge of this kind between two nodes (fails if none; an edge of count 0 then).
  nlohmann::json Flow(const nlohmann::json& from, const nlohmann::json& to) const;
  nlohmann::json Completion(const nlohmann::json& from, const nlohmann::json& to) const;
  nlohmann::json MessageOut(const nlohmann::json& node, int peer) const;
  nlohmann::json MessageIn(const nlohmann::json& node, int peer,
                           const nlohmann::json& sender) const;
  std::vector<nlohmann::json> IncomingOf(const nlohmann::json& node) const;

  nlohmann::json json_;

 private:
  nlohmann::json Edge(const std::string& kind, const nlohmann::json& from,
                      const nlohmann::json& to) const;
};

// The classes' members (ranks), each sorted, in order of their lowest rank.
std::vector<std::vector<int>> Classes(const nlohmann::json& tag);

// A graph recorded online and one built from a trace of the same program agree: for every rank
// the same nodes by kind and call path (online nodes of one call path at several call sites
// merged: a trace has no call sites) with the same counts and loop iterations, the same flow
// and completion edges, the same message edges (node, peer, form, sender's node) with the same
// counts and bytes, the same inter-process edges, the same causal paths of the marked loops
// (by their steps' nodes) taken as often; and times of the same size: each node's and
// flow edge's mean within 30% plus 5 ms or 2 ms (two runs of a program differ by their
// jitter; tag_json.cc says why these bounds). MPI_Init
// and MPI_Finalize, and the computation before and after them, are left out of the times: each
// tool measures its own work there.
//
// A call made once per rank has one sample of its waiting, which a descheduled rank can
// stretch by milliseconds on a loaded machine: where times are far apart, `again` (if given)
// records both graphs anew, at most twice, and the times must agree in one of those pairs;
// everything else must agree in every pair. A wrong unit, a lost occurrence or the tool's own
// time counted in is far apart in every run.
using RunBothAgain = std::function<std::pair<nlohmann::json, nlohmann::json>()>;
void ExpectSameGraphs(const nlohmann::json& online, const nlohmann::json& offline,
                      const RunBothAgain& again = {});

}  // namespace cw::test
