// The baselines file of bottleneck detection (analysis/advice/baselines.h): lookup between
// the measured process counts and sizes, measurement from a trace, merging and malformed lines.
#include <gtest/gtest.h>

#include "analysis/advice/baselines.h"
#include "tests/common/analysis_fixture.h"

namespace cw::analysis {
namespace {

using test::Analysis;
using testing::Scenario;

constexpr double kBaselineEps = 1e-9;

Baselines ParseBaselinesOrDie(const std::string& text) {
  Result<Baselines> b = Baselines::Parse(text, "test");
  EXPECT_TRUE(b.has_value()) << (b ? "" : b.error().message());
  return b ? std::move(*b) : Baselines{};
}

TEST(BaselinesTest, LookUpBetweenProcessCountsAndSizes) {
  const Baselines b = ParseBaselinesOrDie("X 2 0 1\nX 2 100 2  # two sizes\nX 4 0 3\nX 4 100 5\n");
  // At 50 bytes: 1.5 on 2 processes, 4 on 4; on 3 processes halfway, 2.75.
  EXPECT_NEAR(*b.Seconds("X", 3, 50), 2.75, kBaselineEps);
  EXPECT_NEAR(*b.Seconds("X", 2, 100), 2, kBaselineEps);
  EXPECT_NEAR(*b.Seconds("X", 8, 200), 5, kBaselineEps);  // clamped to the largest measured
  EXPECT_NEAR(*b.Seconds("X", 1, 0), 1, kBaselineEps);
  EXPECT_FALSE(b.Seconds("Y", 2, 0).has_value());
}

TEST(BaselinesTest, MeasuredFromATraceWrittenAndReadBack) {
  // Rank 0 sends 8 bytes twice (1..3 and 5..6) and calls MPI_Barrier (7..10); rank 1 receives
  // (0..3 and 4..6) and calls MPI_Barrier (9..10). Shortest instances: MPI_Send of 8 bytes 1 s,
  // MPI_Recv of 8 bytes 2 s, MPI_Barrier 1 s; main and work (local) are not constructs.
  Scenario s(2);
  s.rank(0)
      .Enter(0, "main")
      .Send(1, 3, 1, 0, 8)
      .Call(3, 5, "work")
      .Send(5, 6, 1, 0, 8)
      .Collective(7, 10, "MPI_Barrier", OTF2_COLLECTIVE_OP_BARRIER, 0, 0)
      .Leave(11, "main");
  s.rank(1)
      .Enter(0, "main")
      .Recv(0, 3, 0, 0, 8)
      .Recv(4, 6, 0, 0, 8)
      .Collective(9, 10, "MPI_Barrier", OTF2_COLLECTIVE_OP_BARRIER, 0, 0)
      .Leave(11, "main");
  Analysis a = test::AnalyzeScenario(s);
  const Baselines measured = Baselines::Measure(a.trace, a.result.region_types);
  EXPECT_EQ(measured.ToText(),
            "# causeway baselines: the shortest instance of each construct on this machine\n"
            "# construct processes bytes seconds\n"
            "MPI_Barrier 2 0 1\nMPI_Recv 2 8 2\nMPI_Send 2 8 1\n");
  // Added to a file of 4 processes, and replacing its lines of 2.
  Baselines file = ParseBaselinesOrDie("MPI_Send 4 8 3\nMPI_Send 2 8 9\nMPI_Gather 2 8 9\n");
  file.Replace(measured);
  EXPECT_EQ(ParseBaselinesOrDie(file.ToText()).ToText(), file.ToText());
  EXPECT_NEAR(*file.Seconds("MPI_Send", 2, 8), 1, kBaselineEps);
  EXPECT_NEAR(*file.Seconds("MPI_Send", 4, 8), 3, kBaselineEps);
  EXPECT_FALSE(file.Seconds("MPI_Gather", 2, 8).has_value());
}

TEST(BaselinesTest, AMalformedLineIsNamed) {
  for (const char* text : {"X 2 0\n", "X two 0 1\n", "X 0 0 1\n", "X 2 0 -1\n", "X 2 0 1 9\n",
                           "X 2.5 0 1\n", "X 2 0 nan\n"}) {
    Result<Baselines> b = Baselines::Parse(std::string("# header\n") + text, "my.baselines");
    ASSERT_FALSE(b.has_value()) << text;
    EXPECT_NE(b.error().message().find("my.baselines:2"), std::string::npos) << b.error().message();
  }
  EXPECT_FALSE(Baselines::Read("/nonexistent/baselines").has_value());
}

}  // namespace
}  // namespace cw::analysis
