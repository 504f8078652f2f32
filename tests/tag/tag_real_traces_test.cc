// Task activity graphs of every real Score-P trace: the invariants that hold for any program
// (flow conservation, a process's time accounted for exactly, every matched message on one
// incoming edge, every send on one outgoing edge) and the same graphs on any thread count.
#include <gtest/gtest.h>

#include "tag/output/tag_writers.h"
#include "tests/common/paths.h"
#include "tests/tag/tag_fixture.h"

namespace cw::test {
namespace {

std::string JsonOf(TagRun& run) {
  tag::TagDocument doc;
  doc.processes = run.graphs.processes;
  doc.ptag = run.ptag;
  doc.clusters = run.clusters;
  return tag::TagJson(doc);
}

TEST(TagRealTracesTest, InvariantsHoldOnEveryTrace) {
  const std::vector<std::string> names = RealTraceNames();
  ASSERT_FALSE(names.empty());
  for (const std::string& name : names) {
    SCOPED_TRACE(name);
    tag::GraphBuildOptions options;
    options.threads = 1;
    TagRun run = BuildFileTags(RealTrace(name), options);
    ASSERT_FALSE(run.graphs.processes.empty());

    uint64_t sends = 0;
    for (uint32_t loc = 0; loc < run.trace.location_count(); ++loc) {
      if (run.trace.defs.locations[loc].type != trace::LocationType::kCpuThread) continue;
      for (trace::EventKind k : run.trace.location(loc).kinds()) {
        sends += k == trace::EventKind::kMpiSend || k == trace::EventKind::kMpiIsend;
      }
    }
    uint64_t in = 0, out = 0;
    for (const tag::ProcessGraph& g : run.graphs.processes) {
      EXPECT_EQ(FlowConservationProblems(g), "");
      const trace::LocationEvents& ev = run.trace.location(g.location);
      EXPECT_EQ(g.TotalTicks(), static_cast<double>(ev.last_time() - ev.first_time()))
          << "rank " << g.rank;
      for (const tag::Node& n : g.nodes) {
        if (n.kind == tag::NodeKind::kStart || n.kind == tag::NodeKind::kEnd) continue;
        EXPECT_TRUE(n.callpath.ends_with(n.name)) << n.callpath;
      }
      for (const tag::Edge& e : g.edges) {
        if (e.kind == tag::EdgeKind::kMessageIn && e.via == tag::MessageVia::kPointToPoint) {
          in += e.time.count;
        }
        if (e.kind == tag::EdgeKind::kMessageOut) out += e.time.count;
        if (e.kind == tag::EdgeKind::kMessageIn && e.from != tag::kNoNode) {
          EXPECT_LT(e.from, run.Rank(e.peer).nodes.size());
        }
      }
    }
    EXPECT_EQ(in, run.sync.messages.size());
    EXPECT_EQ(out + run.graphs.unresolved_peers, sends);
    EXPECT_FALSE(run.clusters.empty());

    options.threads = 3;
    TagRun threaded = BuildFileTags(RealTrace(name), options);
    EXPECT_EQ(JsonOf(threaded), JsonOf(run));
  }
}

}  // namespace
}  // namespace cw::test
