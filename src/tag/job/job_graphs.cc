#include "tag/job/job_graphs.h"

#include <algorithm>
#include <utility>
#include <vector>

#include "comm/wire.h"
#include "job_read/owned_locations.h"
#include "match/matcher.h"
#include "tag/build/graph_builder.h"
#include "tag/job/graph_wire.h"
#include "trace/partition.h"

namespace cw::tag {
namespace {

constexpr uint32_t kFirstRank = 0;

// Sends each query to the owner of its location, answers what the other ranks asked of this
// one's locations, and returns the answers to this rank's queries.
RemoteFacts AskOwners(const TraceGraphBuilder& builder, const trace::Partition& partition,
                      comm::Communicator& comm) {
  const uint32_t ranks = comm.size();
  std::vector<comm::ByteWriter> asks(ranks);
  std::vector<std::vector<NodeQuery>> node_queries(ranks);
  std::vector<std::vector<MemberQuery>> member_queries(ranks);
  for (const NodeQuery& q : builder.NodeQueries())
    node_queries[partition.owner[q.location]].push_back(q);
  for (const MemberQuery& q : builder.MemberQueries()) {
    member_queries[partition.owner[q.location]].push_back(q);
  }
  for (uint32_t r = 0; r < ranks; ++r) {
    asks[r].PutVector(node_queries[r]);
    asks[r].PutVector(member_queries[r]);
  }
  const std::vector<comm::Bytes> asked = comm.Exchange(comm::TakeAll(asks));
  std::vector<comm::ByteWriter> answers(ranks);
  for (uint32_t r = 0; r < ranks; ++r) {
    comm::ByteReader in(asked[r]);
    std::vector<uint32_t> nodes;
    for (const NodeQuery& q : in.GetVector<NodeQuery>()) {
      nodes.push_back(builder.NodeOfEvent(q.location, q.event));
    }
    std::vector<MemberFact> members;
    for (const MemberQuery& q : in.GetVector<MemberQuery>()) {
      members.push_back(builder.MemberOf(q.origin, q.location));
    }
    answers[r].PutVector(nodes);
    answers[r].PutVector(members);
  }
  const std::vector<comm::Bytes> answered = comm.Exchange(comm::TakeAll(answers));
  RemoteFacts facts;
  for (uint32_t r = 0; r < ranks; ++r) {
    comm::ByteReader in(answered[r]);
    const std::vector<uint32_t> nodes = in.GetVector<uint32_t>();
    const std::vector<MemberFact> members = in.GetVector<MemberFact>();
    for (size_t i = 0; i < nodes.size() && i < node_queries[r].size(); ++i) {
      const NodeQuery& q = node_queries[r][i];
      facts.nodes[(static_cast<uint64_t>(q.location) << 32) | q.event] = nodes[i];
    }
    for (size_t i = 0; i < members.size() && i < member_queries[r].size(); ++i) {
      const MemberQuery& q = member_queries[r][i];
      facts.members[{q.origin, q.location}] = members[i];
    }
  }
  return facts;
}

}  // namespace

Result<std::optional<JobGraphs>> BuildGraphsAsJobRank(const std::string& path,
                                                      const otf2::ReadOptions& read,
                                                      const GraphBuildOptions& options,
                                                      comm::Communicator& comm) {
  Diagnostics ignored;  // the reader reports the definitions' diagnostics again
  Result<trace::Definitions> defs = otf2::ReadDefinitions(path, ignored);
  CW_RETURN_IF_ERROR(
      job_read::AgreeOnStatus(defs ? OkStatus() : Status(tl::unexpected(defs.error())), comm));
  const trace::Partition partition = trace::PartitionLocations(*defs, comm.size());
  CW_ASSIGN_OR_RETURN(trace::Trace trace,
                      job_read::ReadOwnedLocations(path, read, partition, comm));
  const match::SyncGraph sync = match::MatchOwnedLocations(trace, partition, comm, read.threads);
  TraceGraphBuilder builder(trace, sync, options, partition.owned[comm.rank()]);
  builder.Walk();
  const RemoteFacts facts = AskOwners(builder, partition, comm);
  builder.AddIncoming(facts);
  TraceGraphs mine = builder.Take();

  comm::ByteWriter out;
  out.Put(mine.unresolved_peers);
  out.Put(static_cast<uint64_t>(mine.processes.size()));
  for (const ProcessGraph& g : mine.processes) internal::PutGraph(out, g);
  std::vector<comm::Bytes> all = comm.Gather(out.Take(), kFirstRank);
  if (comm.rank() != kFirstRank) return std::optional<JobGraphs>();
  JobGraphs job;
  job.source = trace.path;
  // Every rank folded the same call tree: the count is the same on each.
  job.graphs.folded_callpaths = mine.folded_callpaths;
  for (const comm::Bytes& bytes : all) {
    comm::ByteReader in(bytes);
    job.graphs.unresolved_peers += in.Get<uint64_t>();
    const uint64_t n = in.Get<uint64_t>();
    for (uint64_t i = 0; i < n; ++i) job.graphs.processes.push_back(internal::GetGraph(in));
  }
  std::sort(job.graphs.processes.begin(), job.graphs.processes.end(),
            [](const ProcessGraph& a, const ProcessGraph& b) { return a.location < b.location; });
  return std::optional<JobGraphs>(std::move(job));
}

}  // namespace cw::tag
