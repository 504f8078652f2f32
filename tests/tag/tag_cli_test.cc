// `causeway tag` on the command line: the files it writes, opened by the tools that read them
// (Graphviz's dot for the DOT files, networkx for GraphML), and its answers to bad input.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <set>
#include <string>

#include <nlohmann/json.hpp>

#include "tests/common/paths.h"
#include "tests/tag/tag_fixture.h"

namespace cw::test {
namespace {

namespace fs = std::filesystem;

using nlohmann::json;

std::string ReadFile(const std::string& path) {
  std::ifstream in(path);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

// `causeway tag` of the 4-rank halo exchange, 3 iterations, into a fresh directory.
std::string TagOfHalo() {
  const std::string trace = HaloExchange(3).WriteOrDie(cw::testing::MakeTempDir("tag-cli-trace"));
  const std::string dir = cw::testing::MakeTempDir("tag-cli");
  std::string out;
  EXPECT_EQ(RunCommand(CausewayBinary() + " tag " + trace + " -o " + dir, &out), 0) << out;
  // The summary names the classes in words.
  EXPECT_NE(out.find("ranks 1, 2 behave alike"), std::string::npos) << out;
  EXPECT_NE(out.find("3 iterations"), std::string::npos) << out;
  return dir;
}

TEST(TagCliTest, WritesTheContractOfTagJson) {
  const std::string dir = TagOfHalo();
  const json j = json::parse(ReadFile(dir + "/tag.json"));
  EXPECT_EQ(j.at("format"), "causeway-tag");
  ASSERT_EQ(j.at("processes").size(), 4u);
  const json& p1 = j["processes"][1];
  EXPECT_EQ(p1.at("rank"), 1);
  std::set<std::string> kinds;
  for (const json& n : p1.at("nodes")) {
    for (const char* key : {"id", "kind", "name", "callpath", "count", "time"}) {
      EXPECT_TRUE(n.contains(key)) << key;
    }
    kinds.insert(n["kind"].get<std::string>());
  }
  EXPECT_EQ(kinds, (std::set<std::string>{"start", "end", "mpi"}));
  std::set<std::string> edge_kinds;
  for (const json& e : p1.at("edges")) {
    for (const char* key : {"from", "to", "kind", "count"}) EXPECT_TRUE(e.contains(key)) << key;
    edge_kinds.insert(e["kind"].get<std::string>());
    if (e["kind"] == "message_in" || e["kind"] == "message_out") {
      EXPECT_TRUE(e.contains("peer"));
      EXPECT_EQ(e.at("bytes"), 3 * 800);
    }
  }
  EXPECT_EQ(edge_kinds, (std::set<std::string>{"flow", "completion", "message_out", "message_in"}));
  ASSERT_EQ(j.at("clusters").size(), 3u);
  EXPECT_EQ(j["clusters"][1].at("members"), json::array({1, 2}));
  EXPECT_EQ(j["clusters"][1].at("representative"), 1);
  ASSERT_EQ(j.at("ptag_edges").size(), 6u);
  for (const json& e : j["ptag_edges"]) {
    for (const char* key : {"from_rank", "to_rank", "count"}) EXPECT_TRUE(e.contains(key));
  }
  EXPECT_EQ(j.at("recorded"), "trace");
  EXPECT_TRUE(j.at("window").is_null());
  // Sections: before the loop, the loop, after it; the loop's classes as the whole processes'.
  ASSERT_EQ(j.at("sections").size(), 3u);
  EXPECT_EQ(j["sections"][1].at("kind"), "loop");
  EXPECT_EQ(j["sections"][1].at("classes").size(), 3u);
  EXPECT_EQ(p1.at("paths"), json::array());  // no marked loop
  // Classes {0}, {1, 2}, {3}: class 0 sends to class 1 (0 -> 1: 3 messages of 800 bytes),
  // class 1 to all three (1 -> 0, 1 -> 2 and 2 -> 1, 2 -> 3), class 2 to class 1.
  EXPECT_EQ(j.at("class_communication_view"), json::parse(R"([
      {"from_class": 0, "to_class": 1, "count": 3, "bytes": 2400},
      {"from_class": 1, "to_class": 0, "count": 3, "bytes": 2400},
      {"from_class": 1, "to_class": 1, "count": 6, "bytes": 4800},
      {"from_class": 1, "to_class": 2, "count": 3, "bytes": 2400},
      {"from_class": 2, "to_class": 1, "count": 3, "bytes": 2400}])"));
  // The page beside it.
  EXPECT_NE(ReadFile(dir + "/tag.html").find("const TAG = "), std::string::npos);
}

TEST(TagCliTest, GraphvizDrawsBothGraphs) {
  const std::string dir = TagOfHalo();
  for (const char* graph : {"ptag", "clusters"}) {
    std::string out;
    const std::string svg = dir + "/" + graph + ".svg";
    ASSERT_EQ(RunCommand("dot -Tsvg " + dir + "/" + graph + ".dot -o " + svg, &out), 0) << out;
    EXPECT_EQ(out, "") << graph;  // no warnings either
    EXPECT_NE(ReadFile(svg).find("MPI_Waitall"), std::string::npos) << graph;
  }
}

TEST(TagCliTest, NetworkxReadsTheGraphml) {
  const std::string dir = TagOfHalo();
  const json j = json::parse(ReadFile(dir + "/tag.json"));
  // The PTAG: every process's nodes; its flow and completion edges and the inter-process edges.
  size_t nodes = 0, edges = j["ptag_edges"].size();
  for (const json& p : j["processes"]) {
    nodes += p["nodes"].size();
    for (const json& e : p["edges"]) edges += e["kind"] == "flow" || e["kind"] == "completion";
  }
  std::string out;
  ASSERT_EQ(RunCommand("/usr/bin/python3 -c \"import networkx as nx; "
                       "g = nx.read_graphml('" +
                           dir +
                           "/ptag.graphml'); "
                           "print(g.number_of_nodes(), g.number_of_edges(), "
                           "sorted(set(d['kind'] for _, _, d in g.edges(data=True))))\"",
                       &out),
            0)
      << out;
  EXPECT_EQ(out, std::to_string(nodes) + " " + std::to_string(edges) +
                     " ['completion', 'flow', 'message']\n");
  // The clustered graph: one representative per class, labelled with its members.
  ASSERT_EQ(RunCommand("/usr/bin/python3 -c \"import networkx as nx; "
                       "g = nx.read_graphml('" +
                           dir +
                           "/clusters.graphml'); "
                           "print(sorted(set(d['members'] for _, d in g.nodes(data=True))))\"",
                       &out),
            0)
      << out;
  EXPECT_EQ(out, "['0', '1, 2', '3']\n");
}

TEST(TagCliTest, BadInputGetsAClearError) {
  std::string out;
  EXPECT_NE(RunCommand(CausewayBinary() + " tag /nonexistent/trace -o " +
                           cw::testing::MakeTempDir("tag-cli-bad"),
                       &out),
            0);
  EXPECT_NE(out.find("/nonexistent/trace"), std::string::npos) << out;
  EXPECT_NE(RunCommand(CausewayBinary() + " tag x --tolerance -1", &out), 0);
  // --window belongs to runs recorded online.
  const std::string trace = HaloExchange(1).WriteOrDie(cw::testing::MakeTempDir("tag-cli-trace"));
  EXPECT_NE(RunCommand(CausewayBinary() + " tag " + trace + " --window 0:end -q", &out), 0);
  EXPECT_NE(out.find("--window applies to runs recorded"), std::string::npos) << out;
}

TEST(TagCliTest, TraceRefusesTagOptionsWithoutTag) {
  // Each would be ignored by a run that records a trace: refused before anything runs.
  for (const char* option : {"--tag-interval 1s", "--tag-region 'solve*'", "--recursion-depth 5"}) {
    std::string out;
    EXPECT_EQ(RunCommand(CausewayBinary() + " trace -o " +
                             cw::testing::MakeTempDir("tag-cli-notag") + " " + option + " -- true",
                         &out),
              1)  // kExitUsage: a bad command line
        << option << ": " << out;
    EXPECT_NE(out.find("need --tag"), std::string::npos) << option << ": " << out;
  }
}

TEST(TagCliTest, ADamagedOnlineRunGetsAClearError) {
  // A run directory whose rank segment is not one (cut short, or another file under its name).
  const std::string dir = cw::testing::MakeTempDir("tag-cli-damaged");
  fs::create_directories(dir + "/tag");
  std::ofstream(dir + "/tag/rank-0.seg") << std::string(5000, 'x');
  std::string out;
  EXPECT_EQ(RunCommand(CausewayBinary() + " tag -q " + dir + " -o " + dir + "/report", &out), 2)
      << out;
  EXPECT_NE(out.find("rank-0.seg: not a usable task activity graph"), std::string::npos) << out;
  std::ofstream(dir + "/tag/rank-0.seg") << "short";
  EXPECT_EQ(RunCommand(CausewayBinary() + " tag -q " + dir + " -o " + dir + "/report", &out), 2)
      << out;
  EXPECT_NE(out.find("shorter than its header"), std::string::npos) << out;
}

}  // namespace
}  // namespace cw::test
