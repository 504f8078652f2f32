// The simulated trace (`causeway whatif --write-trace`): the traced records with the replay's
// times, readable by causeway's own reader and analysis.
#include <string>

#include <gtest/gtest.h>

#include "sim/otf2_source.h"
#include "sim/replay.h"
#include "sim/simulated_trace.h"
#include "tests/common/analysis_fixture.h"
#include "tests/common/paths.h"

namespace cw::sim {
namespace {

// Replays `anchor` under `perturbation` and writes the simulated trace; returns its anchor.
std::string WriteSimulated(const std::string& anchor, const Perturbation& perturbation,
                           const std::string& name, uint64_t* left_out = nullptr) {
  Result<std::unique_ptr<StreamedTrace>> traced = StreamedTrace::Open(anchor);
  EXPECT_TRUE(traced) << traced.error().message();
  if (!traced) return "";
  (*traced)->segment_records = 100;  // segment boundaries in the writer's re-reading as well
  std::string directory = testing::MakeTempDir(name) + "/simulated";
  Result<std::unique_ptr<SimulatedTraceWriter>> writer =
      SimulatedTraceWriter::Create(**traced, directory);
  EXPECT_TRUE(writer) << writer.error().message();
  if (!writer) return "";
  ReplayOptions options;
  options.perturbation = perturbation;
  options.observer = writer->get();
  Result<ReplayResult> r = RunReplay((*traced)->Input(), options);
  EXPECT_TRUE(r) << r.error().message();
  Status closed = (*writer)->Close();
  EXPECT_TRUE(closed) << closed.error().message();
  if (left_out != nullptr) *left_out = (*writer)->records_left_out();
  return (*writer)->anchor();
}

TEST(SimulatedTraceTest, UnchangedReplayWritesATraceThatAnalysesTheSame) {
  for (const std::string& name : test::RealTraceNames()) {
    SCOPED_TRACE(name);
    const std::string traced = test::RealTrace(name) + "/traces.otf2";
    uint64_t left_out = 0;
    const std::string simulated = WriteSimulated(traced, {}, "simulated-" + name, &left_out);
    ASSERT_FALSE(simulated.empty());
    test::Analysis a = test::AnalyzeFile(traced);
    test::Analysis b = test::AnalyzeFile(simulated);
    // Every record kept is written at its own time: the same events, repairs included, except
    // the left-out kinds (metric records in the PAPI trace).
    ASSERT_EQ(a.trace.location_count(), b.trace.location_count());
    EXPECT_EQ(a.trace.EventCount() - left_out, b.trace.EventCount());
    if (left_out == 0) {
      for (uint32_t l = 0; l < a.trace.location_count(); ++l) {
        const trace::LocationEvents& x = a.trace.location(l);
        const trace::LocationEvents& y = b.trace.location(l);
        ASSERT_EQ(x.size(), y.size()) << "location " << l;
        for (uint32_t i = 0; i < x.size(); ++i) {
          ASSERT_EQ(x.time(i), y.time(i)) << "location " << l << ", event " << i;
          ASSERT_EQ(x.kind(i), y.kind(i)) << "location " << l << ", event " << i;
        }
      }
    }
    // And the analysis finds exactly the same wait states.
    EXPECT_EQ(a.ValuesByName(), b.ValuesByName());
    EXPECT_EQ(a.report.instance_counts, b.report.instance_counts);
  }
}

TEST(SimulatedTraceTest, SlowerSenderShowsItsNewLateSender) {
  // Rank 0 computes 0..10 and sends 10..11; rank 1 receives 4..12 (measured Late Sender 10 - 4 =
  // 6, cost of the receive after its sender started 12 - 10 = 2). With region compute twice as
  // slow, rank 0 sends at 20..21 and rank 1 leaves its receive at 20 + 2 = 22: the simulated
  // trace has a Late Sender of 20 - 4 = 16 on rank 1, and rank 0's main ends 10 later (30).
  testing::Scenario s(2);
  s.rank(0).Enter(0, "main").Call(0, 10, "compute").Send(10, 11, 1, 0, 8).Leave(20, "main");
  s.rank(1).Enter(0, "main").Recv(4, 12, 0, 0, 8).Leave(20, "main");
  const std::string traced = s.WriteOrDie(testing::MakeTempDir("simulated-late-sender"));
  Perturbation slower;
  slower.compute.push_back(*ParseComputeScale("compute=2"));
  const std::string simulated = WriteSimulated(traced, slower, "simulated-late-sender-out");
  ASSERT_FALSE(simulated.empty());
  test::Analysis before = test::AnalyzeFile(traced);
  test::Analysis after = test::AnalyzeFile(simulated);
  EXPECT_EQ(before.Value("mpi_latesender", "main/MPI_Recv", 1), 6.0);
  EXPECT_EQ(after.Value("mpi_latesender", "main/MPI_Recv", 1), 16.0);
  EXPECT_EQ(after.trace.location(0).last_time(), 30u);
  EXPECT_EQ(after.trace.location(1).last_time(), 30u);
}

}  // namespace
}  // namespace cw::sim
