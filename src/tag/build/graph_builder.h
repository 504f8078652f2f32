// Builds the task activity graphs of a trace's locations in two steps: each location's own
// activities, nodes and local edges first, then its incoming message edges, which name the
// sender's node, and its collectives' links (Sikora et al. 2016 §4.5), which name other members'
// nodes. One process builds every location (BuildTraceGraphs); one rank of an MPI job (tag/job)
// builds its own locations and asks the other ranks for what the second step needs of theirs.
//
//   TraceGraphBuilder b(trace, sync, options, owned);
//   b.Walk();
//   ... exchange b.NodeQueries() and b.MemberQueries() for RemoteFacts ...
//   b.AddIncoming(facts);
//   TraceGraphs graphs = b.Take();
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <unordered_map>
#include <utility>
#include <vector>

#include "match/sync_graph.h"
#include "tag/build/trace_graphs.h"
#include "trace/trace.h"

namespace cw::tag {

// A collective member as the links to it need it: where it is, its node, and its facts.
struct MemberFact {
  uint32_t location = kNoRank;
  uint32_t node = kNoNode;
  uint64_t entered = 0;
  uint64_t sent = 0;
  uint64_t received = 0;
};

// What a rank of a job learnt from the others about their locations.
struct RemoteFacts {
  std::unordered_map<uint64_t, uint32_t> nodes;                 // (location << 32 | event)
  std::map<std::pair<uint64_t, uint32_t>, MemberFact> members;  // (instance origin, location)
};

struct NodeQuery {
  uint32_t location;
  uint32_t event;
};
struct MemberQuery {
  uint64_t origin;  // CollectiveInstance::origin
  uint32_t location;
};

class TraceGraphBuilder {
 public:
  // `owned`: the locations to build (ascending), all of them if empty.
  TraceGraphBuilder(const trace::Trace& trace, const match::SyncGraph& sync,
                    const GraphBuildOptions& options, std::vector<uint32_t> owned = {});
  ~TraceGraphBuilder();
  TraceGraphBuilder(const TraceGraphBuilder&) = delete;
  TraceGraphBuilder& operator=(const TraceGraphBuilder&) = delete;

  // Every owned location's activities, nodes, flow and completion edges, outgoing messages and
  // causal paths, on the worker threads.
  void Walk();

  // What the second step needs of locations this builder does not own: the nodes of the sends
  // its locations received, and the members of their collectives that link to or are listed by
  // them.
  std::vector<NodeQuery> NodeQueries() const;
  std::vector<MemberQuery> MemberQueries() const;
  // The answers to other ranks' queries, for owned locations (after Walk).
  uint32_t NodeOfEvent(uint32_t location, uint32_t event) const;
  MemberFact MemberOf(uint64_t origin, uint32_t location) const;

  // The incoming message edges and the collectives' links, with `remote` for what other ranks
  // own.
  void AddIncoming(const RemoteFacts& remote = {});
  TraceGraphs Take();

 private:
  class Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace cw::tag
