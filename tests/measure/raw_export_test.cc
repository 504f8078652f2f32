// The exporter on raw files written by hand: what an intact run becomes, and what damaged,
// truncated or missing files become (a clear problem and the rest exported, never a crash or a
// huge allocation).
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "measure/export/raw_export.h"
#include "measure/raw/raw_format.h"
#include "testing/scenario.h"
#include "tests/common/analysis_fixture.h"

namespace cw::test {
namespace {

namespace fs = std::filesystem;
using measure::ExportRawTrace;
using measure::ExportSummary;
using measure::MpiFunction;
using measure::RawEvent;
using measure::RawKind;

constexpr uint32_t kMain = measure::kProgramRegion;
constexpr uint32_t Region(MpiFunction f) { return static_cast<uint32_t>(f); }

RawEvent Event(uint64_t t, RawKind kind, uint32_t a = 0, uint32_t b = 0, uint32_t c = 0,
               uint64_t x = 0, uint64_t y = 0) {
  return RawEvent{t, kind, 0, 0, a, b, c, x, y};
}

// A raw run directory: DIR/raw/rank-<r>.defs and .events.
class RawRun {
 public:
  explicit RawRun(const std::string& name) : dir_(testing::MakeTempDir(name)) {
    fs::create_directories(dir_ + "/raw");
  }
  void Defs(int rank, const std::string& text) {
    std::ofstream(measure::RawDefsPath(dir_, rank)) << text;
  }
  void Events(int rank, const std::vector<RawEvent>& events, size_t extra_bytes = 0) {
    std::ofstream out(measure::RawEventsPath(dir_, rank), std::ios::binary);
    out.write(reinterpret_cast<const char*>(events.data()),
              static_cast<std::streamsize>(events.size() * sizeof(RawEvent)));
    for (size_t i = 0; i < extra_bytes; ++i) out.put('\x7f');
  }
  const std::string& dir() const { return dir_; }

 private:
  std::string dir_;
};

std::string RankDefs(int rank, int size) {
  return "rank " + std::to_string(rank) + " " + std::to_string(size) +
         " node1\ntimer monotonic\ncomm 0 0 world\n";
}

// Rank 1 enters MPI_Recv at 1500 ns; rank 0 enters MPI_Send at 2000 ns: a Late Sender of 500 ns.
void WriteLateSender(RawRun& run) {
  run.Defs(0, RankDefs(0, 2) + "end 5 0 0 0 ok\n");
  run.Defs(1, RankDefs(1, 2) + "end 5 0 0 0 ok\n");
  run.Events(0, {Event(1000, RawKind::kEnter, kMain),
                 Event(2000, RawKind::kEnter, Region(MpiFunction::kMPI_Send)),
                 Event(2100, RawKind::kSend, 0, 1, 5, 8),
                 Event(2200, RawKind::kLeave, Region(MpiFunction::kMPI_Send)),
                 Event(3000, RawKind::kLeave, kMain)});
  run.Events(1, {Event(1000, RawKind::kEnter, kMain),
                 Event(1500, RawKind::kEnter, Region(MpiFunction::kMPI_Recv)),
                 Event(2500, RawKind::kRecv, 0, 0, 5, 8),
                 Event(2600, RawKind::kLeave, Region(MpiFunction::kMPI_Recv)),
                 Event(3000, RawKind::kLeave, kMain)});
}

TEST(RawExportTest, IntactRunBecomesTheTraceItRecorded) {
  RawRun run("raw-intact");
  WriteLateSender(run);
  Result<ExportSummary> s = ExportRawTrace(run.dir());
  ASSERT_TRUE(s.has_value()) << s.error().message();
  EXPECT_EQ(s->ranks, 2u);
  EXPECT_EQ(s->events, 10u);
  EXPECT_EQ(s->raw_bytes, 10 * sizeof(RawEvent));
  EXPECT_TRUE(s->problems.empty());
  EXPECT_TRUE(s->endings.empty());
  Analysis a = AnalyzeFile(s->anchor, 1);
  EXPECT_EQ(a.report.matching.messages, 1u);
  // 2000 - 1500 ns, charged to main/MPI_Recv on rank 1.
  EXPECT_NEAR(a.Value("mpi_latesender", "main/MPI_Recv", 1), 500e-9, 1e-15);
}

TEST(RawExportTest, DamagedFilesGiveProblemsAndTheRest) {
  RawRun run("raw-damaged");
  // Rank 0: a communicator line claiming 10^12 members, a region with an absurd id, a record of
  // unknown kind, an Enter of a region never defined, 13 bytes of a record cut short, and no
  // Leave of main (the rank died).
  run.Defs(0, RankDefs(0, 3) + "comm 1 4 1000000000000 0 1\nregion 4000000000 huge\nsignal 11\n");
  RawEvent unknown = Event(1500, RawKind::kEnter);
  unknown.kind = static_cast<RawKind>(200);
  run.Events(0,
             {Event(1000, RawKind::kEnter, kMain), unknown, Event(1600, RawKind::kEnter, kMain + 7),
              Event(1700, RawKind::kSend, 0, 1, 5, 8)},
             13);
  // Rank 1: intact. Rank 2: no definitions at all.
  run.Defs(1, RankDefs(1, 3) + "end 3 0 0 0 ok\n");
  run.Events(1, {Event(1000, RawKind::kEnter, kMain), Event(1800, RawKind::kRecv, 0, 0, 5, 8),
                 Event(3000, RawKind::kLeave, kMain)});
  run.Events(2, {Event(1000, RawKind::kEnter, kMain)});
  Result<ExportSummary> s = ExportRawTrace(run.dir());
  ASSERT_TRUE(s.has_value()) << s.error().message();
  EXPECT_EQ(s->invalid_records, 2u);  // the unknown kind and the undefined region
  EXPECT_EQ(s->truncated_bytes, 13u);
  EXPECT_EQ(s->closed_regions, 1u);  // rank 0's main, closed at its last event
  ASSERT_EQ(s->endings.size(), 1u);
  EXPECT_EQ(s->endings[0].how, "signal 11");
  // Rank 0's two damaged lines and rank 2's missing definitions.
  ASSERT_EQ(s->problems.size(), 3u);
  EXPECT_NE(s->problems[0].find("damaged line"), std::string::npos);
  EXPECT_NE(s->problems[2].find("rank-2.defs is missing"), std::string::npos);
  // Ranks 0 (main, its send, main's closing Leave) and 1 (3 events).
  EXPECT_EQ(s->events, 6u);
  Analysis a = AnalyzeFile(s->anchor, 1);
  EXPECT_EQ(a.report.matching.messages, 1u);
}

TEST(RawExportTest, MissingOrDamagedRunIsAnError) {
  RawRun empty("raw-empty");
  Result<ExportSummary> none = ExportRawTrace(empty.dir());
  ASSERT_FALSE(none.has_value());
  EXPECT_EQ(none.error().code(), ErrorCode::kNotFound);
  RawRun damaged("raw-no-size");
  damaged.Defs(0, "rank zero\n");
  Result<ExportSummary> bad = ExportRawTrace(damaged.dir());
  ASSERT_FALSE(bad.has_value());
  EXPECT_EQ(bad.error().code(), ErrorCode::kCorrupt);
}

}  // namespace
}  // namespace cw::test
