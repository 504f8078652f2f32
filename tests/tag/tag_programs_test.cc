// Sikora et al. 2016's scenarios as real MPI programs (tests/programs/tag), each recorded online
// (`causeway trace --tag`) and traced and built offline (`causeway trace`, `causeway tag`):
// every count the program makes is checked exactly on the online graph, derived beside it, and
// the two graphs must agree (nodes, edges, counts, bytes; times within a real run's jitter).
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <string>
#include <tuple>

#include <nlohmann/json.hpp>

#include <gtest/gtest.h>

#include "tests/common/paths.h"
#include "tests/common/traced_program.h"
#include "tests/tag/tag_json.h"

namespace cw::test {
namespace {

using nlohmann::json;

json Load(const std::string& path) {
  std::ifstream in(path);
  EXPECT_TRUE(in.good()) << path;
  return in.good() ? json::parse(in) : json::object();
}

// The online graph of `program` on `ranks` ranks.
json Online(const std::string& program, int ranks, const std::string& args = "") {
  const std::string dir = TraceProgram(program, ranks, args, "--tag");
  return Load(dir + "/tag.json");
}

// The graph `causeway tag` builds from a trace of `program`.
json Offline(const std::string& program, int ranks, const std::string& args = "") {
  const std::string dir = TraceProgram(program, ranks, args);
  std::string out;
  EXPECT_EQ(RunCommand(CausewayBinary() + " tag -q " + dir + " -o " + dir + "/tag-report", &out), 0)
      << out;
  return Load(dir + "/tag-report/tag.json");
}

// The online graph `tag` of `program` agrees with the graph of a trace of it (tag_json.h says
// how, and when both are recorded again).
void ExpectSameAsOffline(const json& tag, const std::string& program, int ranks,
                         const std::string& args = "") {
  ExpectSameGraphs(tag, Offline(program, ranks, args), [&] {
    return std::pair{Online(program, ranks, args), Offline(program, ranks, args)};
  });
}

TEST(TagProgramsTest, SingleProcessTwoBarrierCallSites) {
  const json tag = Online("tag_single", 1);
  const TagProcess p(tag, 0);
  // start, MPI_Init, the two barriers (two call sites of main: two nodes online), MPI_Finalize,
  // end; no loop, so five flow edges, each taken once, and nothing else.
  ASSERT_EQ(p.nodes().size(), 6u);
  const std::vector<json> barriers = p.NodesAt("main/MPI_Barrier");
  ASSERT_EQ(barriers.size(), 2u);
  EXPECT_NE(barriers[0]["callsite"], barriers[1]["callsite"]);
  EXPECT_EQ(barriers[0]["count"], 1);
  EXPECT_EQ(barriers[1]["count"], 1);
  EXPECT_EQ(p.edges().size(), 5u);
  for (const json& e : p.edges()) {
    EXPECT_EQ(e["kind"], "flow");
    EXPECT_EQ(e["count"], 1);
    EXPECT_FALSE(e["back"].get<bool>());
  }
  EXPECT_EQ(p.Flow(barriers[0]["id"], barriers[1]["id"])["count"], 1);
  EXPECT_TRUE(p.json_["loops"].empty());
  // A trace has no call sites: offline, the two barriers are one node (count 2), which the
  // comparison merges online too.
  ExpectSameAsOffline(tag, "tag_single", 1);
}

TEST(TagProgramsTest, OneSendReachedThroughTwoFunctionsIsTwoNodes) {
  const json tag = Online("tag_callpaths", 2);
  const TagProcess sender(tag, 0), receiver(tag, 1);
  const json f = sender.Node("main/f/foo/MPI_Send");
  const json g = sender.Node("main/g/foo/MPI_Send");
  EXPECT_EQ(f["count"], 2);
  EXPECT_EQ(g["count"], 1);
  // f's two sends follow each other (a self-edge), then g's.
  EXPECT_EQ(sender.Flow(f["id"], f["id"])["count"], 1);
  EXPECT_EQ(sender.Flow(f["id"], g["id"])["count"], 1);
  const json f_out = sender.MessageOut(f["id"], 1);
  EXPECT_EQ(f_out["count"], 2);
  EXPECT_EQ(f_out["bytes"], 24);  // 8 + 16
  // 8 bytes in [8, 16), 16 in [16, 32); g's 1024 in [1024, 2048).
  EXPECT_EQ(f_out["size_histogram"],
            json::parse(R"([{"min_bytes": 8, "count": 1}, {"min_bytes": 16, "count": 1}])"));
  EXPECT_EQ(sender.MessageOut(g["id"], 1)["size_histogram"],
            json::parse(R"([{"min_bytes": 1024, "count": 1}])"));
  // The receive node: one incoming edge per sending node, named by the piggyback.
  const json recv = receiver.Node("main/MPI_Recv");
  EXPECT_EQ(recv["count"], 3);
  EXPECT_EQ(receiver.MessageIn(recv["id"], 0, f["id"])["count"], 2);
  EXPECT_EQ(receiver.MessageIn(recv["id"], 0, g["id"])["count"], 1);
  ExpectSameAsOffline(tag, "tag_callpaths", 2);
}

TEST(TagProgramsTest, PingPongInAMarkedLoop) {
  constexpr int kN = 20;
  const json tag = Online("tag_pingpong", 2, std::to_string(kN) + " 1");
  for (int rank : {0, 1}) {
    SCOPED_TRACE(rank);
    const TagProcess p(tag, rank);
    const json send = p.Node("main/MPI_Send"), recv = p.Node("main/MPI_Recv");
    const json first = rank == 0 ? send : recv, second = rank == 0 ? recv : send;
    EXPECT_EQ(send["count"], kN);
    EXPECT_EQ(recv["count"], kN);
    // Within an iteration the first call leads to the second N times; the back edge from the
    // second to the next iteration's first is taken N - 1 times.
    EXPECT_EQ(p.Flow(first["id"], second["id"])["count"], kN);
    const json back = p.Flow(second["id"], first["id"]);
    EXPECT_EQ(back["count"], kN - 1);
    EXPECT_TRUE(back["back"].get<bool>());
    // The loop's markers: entered and left once, N iterations marked.
    const json entry = p.NodeOfKind("loop_entry");
    EXPECT_EQ(entry["callpath"], "main/pingpong");
    EXPECT_EQ(entry["count"], 1);
    EXPECT_EQ(entry["iterations"], kN);
    EXPECT_EQ(p.Flow(entry["id"], first["id"])["count"], 1);
    EXPECT_EQ(p.Flow(second["id"], p.NodeOfKind("loop_exit")["id"])["count"], 1);
    // One causal path, taken by every iteration: the two calls, each with the other rank.
    const int other = 1 - rank;
    ASSERT_EQ(p.json_["paths"].size(), 1u);
    const json& path = p.json_["paths"][0];
    EXPECT_EQ(path["loop"], entry["id"]);
    EXPECT_EQ(path["count"], kN);
    EXPECT_EQ(path["steps"], (json::array({{{"node", first["id"]}, {"peer", other}},
                                           {{"node", second["id"]}, {"peer", other}}})));
  }
  // Exactly two inter-process edges, one per direction, N messages each.
  ASSERT_EQ(tag["ptag_edges"].size(), 2u);
  for (const json& e : tag["ptag_edges"]) {
    EXPECT_EQ(e["count"], kN);
    EXPECT_EQ(e["bytes"], 64 * kN);
  }
  // One sends first, the other receives first: two classes, whatever the ranks.
  EXPECT_EQ(tag["clusters"].size(), 2u);
  ExpectSameAsOffline(tag, "tag_pingpong", 2, std::to_string(kN) + " 1");
}

TEST(TagProgramsTest, HaloExchangeWithNonBlockingSends) {
  // 100 iterations of 3 ms: long enough that MPI_Init's own jitter between ranks 1 and 2 (up
  // to about 10 ms on this machine's two cores) stays inside the 2% tolerance.
  constexpr int kN = 100;
  const json tag = Online("tag_halo", 4, std::to_string(kN));
  for (int rank = 0; rank < 4; ++rank) {
    SCOPED_TRACE(rank);
    const TagProcess p(tag, rank);
    const int neighbours = rank == 0 || rank == 3 ? 1 : 2;
    const json isend = p.Node("main/post_send/MPI_Isend");
    const json recv = p.Node("main/receive/MPI_Recv");
    const json waitall = p.Node("main/MPI_Waitall");
    EXPECT_EQ(isend["count"], neighbours * kN);
    EXPECT_EQ(waitall["count"], kN);
    // MPI_Waitall completes every send: a completion edge to the MPI_Isend node.
    EXPECT_EQ(p.Completion(waitall["id"], isend["id"])["count"], neighbours * kN);
    // The back edge MPI_Waitall -> MPI_Isend closes each iteration but the last.
    const json back = p.Flow(waitall["id"], isend["id"]);
    EXPECT_EQ(back["count"], kN - 1);
    EXPECT_TRUE(back["back"].get<bool>());
    if (neighbours == 2) {  // two sends and two receives in a row: self-edges
      EXPECT_EQ(p.Flow(isend["id"], isend["id"])["count"], kN);
      EXPECT_EQ(p.Flow(recv["id"], recv["id"])["count"], kN);
    }
    EXPECT_EQ(p.NodeOfKind("loop_entry")["iterations"], kN);
    // Every iteration takes one path: the sends to the neighbours (left first), the receives
    // from them, MPI_Waitall without a partner.
    json steps = json::array();
    for (int peer : {rank - 1, rank + 1}) {
      if (peer >= 0 && peer < 4) steps.push_back({{"node", isend["id"]}, {"peer", peer}});
    }
    for (int peer : {rank - 1, rank + 1}) {
      if (peer >= 0 && peer < 4) steps.push_back({{"node", recv["id"]}, {"peer", peer}});
    }
    steps.push_back({{"node", waitall["id"]}, {"peer", nullptr}});
    ASSERT_EQ(p.json_["paths"].size(), 1u);
    EXPECT_EQ(p.json_["paths"][0]["steps"], steps);
    EXPECT_EQ(p.json_["paths"][0]["count"], kN);
  }
  // Six inter-process edges: 0->1, 1->0, 1->2, 2->1, 2->3, 3->2.
  std::set<std::pair<int, int>> pairs;
  for (const json& e : tag["ptag_edges"]) {
    pairs.emplace(e["from_rank"].get<int>(), e["to_rank"].get<int>());
    EXPECT_EQ(e["count"], kN);
    EXPECT_EQ(e["bytes"], 800 * kN);
  }
  EXPECT_EQ(pairs, (std::set<std::pair<int, int>>{{0, 1}, {1, 0}, {1, 2}, {2, 1}, {2, 3}, {3, 2}}));
  EXPECT_EQ(Classes(tag), (std::vector<std::vector<int>>{{0}, {1, 2}, {3}}));
  ExpectSameAsOffline(tag, "tag_halo", 4, std::to_string(kN));
}

TEST(TagProgramsTest, MasterWorkerWithWildcardReceives) {
  // 60 rounds of 4 ms: long enough that the workers' MPI_Init jitter (their launch skew, up to
  // about 10 ms here) stays inside the 2% tolerance.
  constexpr int kRounds = 60;
  const json tag = Online("tag_master_worker", 4, std::to_string(kRounds));
  const TagProcess master(tag, 0);
  const json recv = master.Node("main/MPI_Recv");
  EXPECT_EQ(recv["count"], 3 * kRounds);
  // 3 receives in a row from one call site in each round, then the round's barrier: a self-edge
  // taken 2R times.
  EXPECT_EQ(master.Flow(recv["id"], recv["id"])["count"], 2 * kRounds);
  // One incoming edge per worker (the wildcard's actual sources), R messages each.
  for (int w = 1; w < 4; ++w) {
    const json send = TagProcess(tag, w).Node("main/MPI_Send");
    EXPECT_EQ(master.MessageIn(recv["id"], w, send["id"])["count"], kRounds);
  }
  // The workers send to the same absolute rank: one class, the master another.
  EXPECT_EQ(Classes(tag), (std::vector<std::vector<int>>{{0}, {1, 2, 3}}));
  // The master's marked rounds: the paths differ by the order the workers' results came in
  // (Sikora et al. 2016's loop 19), each a permutation of the three workers and the barrier,
  // R rounds in all.
  const json barrier = master.Node("main/MPI_Barrier");
  uint64_t rounds = 0;
  for (const json& path : master.json_["paths"]) {
    rounds += path["count"].get<uint64_t>();
    std::set<int> workers;
    ASSERT_EQ(path["steps"].size(), 4u);
    for (size_t s = 0; s < 3; ++s) {
      EXPECT_EQ(path["steps"][s]["node"], recv["id"]);
      workers.insert(path["steps"][s]["peer"].get<int>());
    }
    EXPECT_EQ(path["steps"][3]["node"], barrier["id"]);
    EXPECT_EQ(workers, (std::set<int>{1, 2, 3}));
  }
  EXPECT_EQ(rounds, static_cast<uint64_t>(kRounds));
  ExpectSameAsOffline(tag, "tag_master_worker", 4, std::to_string(kRounds));
}

TEST(TagProgramsTest, IrecvAndWaitallGetTheirSendersAtCompletion) {
  const json tag = Online("tag_irecv_waitall", 2);
  const TagProcess sender(tag, 0), receiver(tag, 1);
  const json a = receiver.Node("main/post_a/MPI_Irecv"), b = receiver.Node("main/post_b/MPI_Irecv");
  const json waitall = receiver.Node("main/MPI_Waitall");
  // The incoming edges are on the nodes that posted the receives, each from its own sender's
  // node, with the bytes that came; their time is the MPI_Waitall that completed them.
  const json in_a = receiver.MessageIn(a["id"], 0, sender.Node("main/send_a/MPI_Send")["id"]);
  const json in_b = receiver.MessageIn(b["id"], 0, sender.Node("main/send_b/MPI_Send")["id"]);
  EXPECT_EQ(in_a["bytes"], 100);
  EXPECT_EQ(in_b["bytes"], 200);
  EXPECT_DOUBLE_EQ(in_a["time"].get<double>(), waitall["time"].get<double>());
  EXPECT_EQ(receiver.Completion(waitall["id"], a["id"])["count"], 1);
  EXPECT_EQ(receiver.Completion(waitall["id"], b["id"])["count"], 1);
  // Rank 0 computed 5 ms before sending: the receives waited for a late sender.
  EXPECT_GT(in_a["delta_t"]["mean"].get<double>(), 0.0);
  ExpectSameAsOffline(tag, "tag_irecv_waitall", 2);
}

TEST(TagProgramsTest, CollectivesLinkRootsAndListMembers) {
  const json tag = Online("tag_collectives", 3);
  auto incoming = [&](int rank, const std::string& callpath) {
    const TagProcess p(tag, rank);
    return p.IncomingOf(p.Node(callpath)["id"]);
  };
  // MPI_Bcast from root 1: ranks 0 and 2 link to the root's node (8 bytes received).
  for (int rank : {0, 2}) {
    const std::vector<json> link = incoming(rank, "main/MPI_Bcast");
    ASSERT_EQ(link.size(), 1u);
    EXPECT_EQ(link[0]["via"], "root_link");
    EXPECT_EQ(link[0]["peer"], 1);
    EXPECT_EQ(link[0]["from"], TagProcess(tag, 1).Node("main/MPI_Bcast")["id"]);
    EXPECT_EQ(link[0]["bytes"], 8);
  }
  EXPECT_TRUE(incoming(1, "main/MPI_Bcast").empty());
  // MPI_Reduce to root 2 lists ranks 0 and 1; rank 0 lists the others for the rootless ones.
  auto peers = [](const std::vector<json>& edges) {
    std::set<int> s;
    for (const json& e : edges) {
      EXPECT_EQ(e["via"], "root_list");
      s.insert(e["peer"].get<int>());
    }
    return s;
  };
  EXPECT_EQ(peers(incoming(2, "main/MPI_Reduce")), (std::set<int>{0, 1}));
  EXPECT_EQ(peers(incoming(0, "main/MPI_Allreduce")), (std::set<int>{1, 2}));
  EXPECT_EQ(peers(incoming(0, "main/MPI_Barrier")), (std::set<int>{1, 2}));
  EXPECT_TRUE(incoming(1, "main/MPI_Allreduce").empty());
  EXPECT_EQ(tag["ptag_edges"].size(), 8u);  // 2 links + 2 + 2 + 2 list entries
  ExpectSameAsOffline(tag, "tag_collectives", 3);
}

// A program without instrumentation (tests/programs/callpaths/nested_compute.c): online, the
// stack walk of libcauseway-tag.so names the call paths; offline, the trace's walked call paths
// (causeway trace --callpaths, with samples) do. Both give the exchange at
// main/step/exchange/MPI_Sendrecv, and the graphs agree.
TEST(TagProgramsTest, WalkedCallPathsAgreeOnlineAndOffline) {
  const json tag = Online("nested_compute", 2, "2");
  for (int rank : {0, 1}) {
    const TagProcess p(tag, rank);
    EXPECT_EQ(p.NodesAt("main/step/exchange/MPI_Sendrecv").size(), 1u) << rank;
  }
  ExpectSameAsOffline(tag, "nested_compute", 2, "2");
}

}  // namespace
}  // namespace cw::test
