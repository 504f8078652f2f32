// The export that begins when rank 0 marks the raw trace complete, while the traced command is
// still ending: it writes the same trace as an export after the command, and its result is
// refused when the raw files changed after it began (the command ran another program) or when
// no rank marked the trace complete.
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <optional>
#include <string>
#include <thread>

#include <gtest/gtest.h>

#include "measure/export/early_export.h"
#include "measure/export/raw_export.h"
#include "measure/raw/raw_format.h"
#include "tests/common/analysis_fixture.h"
#include "tests/common/raw_run.h"

namespace cw::test {
namespace {

namespace fs = std::filesystem;
using measure::EarlyExport;
using measure::RawKind;

// Rank 0's side, as MPI_Finalize calls it under `causeway trace`.
void MarkComplete(const std::string& dir) {
  setenv("CAUSEWAY_EXPORT", "launcher", 1);
  measure::ExportOrMarkComplete(dir);
  unsetenv("CAUSEWAY_EXPORT");
}

// Waits (at most a minute) until the early export has written the archive's anchor, which it
// writes when it closes the archive, its last step.
bool AnchorWritten(const std::string& dir) {
  for (int i = 0; i < 6000; ++i) {
    if (fs::exists(dir + "/traces.otf2")) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return false;
}

TEST(EarlyExportTest, MarkedRunIsExportedBeforeTheCommandEnds) {
  RawRun run("early-marked");
  WriteLateSender(run);
  EarlyExport early(run.dir());
  MarkComplete(run.dir());
  EXPECT_TRUE(fs::exists(measure::RawCompletePath(run.dir())));
  EXPECT_FALSE(fs::exists(run.dir() + "/traces.otf2"));  // rank 0 only marked it
  ASSERT_TRUE(AnchorWritten(run.dir()));
  std::optional<EarlyExport::Outcome> done = early.Finish();
  ASSERT_TRUE(done.has_value());
  // The export began before Finish, the command's end (it had written the anchor by then), and
  // may have ended after it.
  EXPECT_GT(done->before_end_seconds, 0.0);
  EXPECT_LE(done->before_end_seconds, done->seconds);
  EXPECT_EQ(done->summary.ranks, 2u);
  EXPECT_EQ(done->summary.events, 10u);
  Analysis a = AnalyzeFile(done->summary.anchor, 1);
  // 2000 - 1500 ns (WriteLateSender).
  EXPECT_NEAR(a.Value("mpi_latesender", "main/MPI_Recv", 1), 500e-9, 1e-15);
}

// The mark came just before the command ended: the export begins then, at the end.
TEST(EarlyExportTest, MarkSeenAtTheEndIsExportedThen) {
  RawRun run("early-at-end");
  WriteLateSender(run);
  EarlyExport early(run.dir());
  MarkComplete(run.dir());
  std::optional<EarlyExport::Outcome> done = early.Finish();
  ASSERT_TRUE(done.has_value());
  EXPECT_EQ(done->summary.events, 10u);
  EXPECT_LE(done->before_end_seconds, done->seconds);
}

// Another program wrote rank 1's events after the mark: the early trace is refused.
TEST(EarlyExportTest, FilesChangedAfterTheMarkRefuseTheEarlyTrace) {
  RawRun run("early-changed");
  WriteLateSender(run);
  EarlyExport early(run.dir());
  MarkComplete(run.dir());
  ASSERT_TRUE(AnchorWritten(run.dir()));
  run.Events(1, {Event(1000, RawKind::kEnter, kMain), Event(3000, RawKind::kLeave, kMain)});
  EXPECT_FALSE(early.Finish().has_value());
}

// So is a file added after the mark (a thread's events).
TEST(EarlyExportTest, FileAddedAfterTheMarkRefusesTheEarlyTrace) {
  RawRun run("early-added");
  WriteLateSender(run);
  EarlyExport early(run.dir());
  MarkComplete(run.dir());
  ASSERT_TRUE(AnchorWritten(run.dir()));
  run.ThreadEvents(0, 1,
                   {Event(1200, RawKind::kEnter, kMain), Event(1300, RawKind::kLeave, kMain)});
  EXPECT_FALSE(early.Finish().has_value());
}

// No rank got to MPI_Finalize's barrier: nothing is exported early.
TEST(EarlyExportTest, UnmarkedRunIsNotExportedEarly) {
  RawRun run("early-unmarked");
  WriteLateSender(run);
  EarlyExport early(run.dir());
  std::this_thread::sleep_for(std::chrono::milliseconds(150));  // more than one look
  EXPECT_FALSE(early.Finish().has_value());
  EXPECT_FALSE(fs::exists(run.dir() + "/traces.otf2"));
}

// A program run without `causeway trace` has rank 0 write the archive itself, and no mark.
TEST(EarlyExportTest, WithoutTheLauncherRankZeroExports) {
  RawRun run("early-rank0");
  WriteLateSender(run);
  unsetenv("CAUSEWAY_EXPORT");
  measure::ExportOrMarkComplete(run.dir());
  EXPECT_TRUE(fs::exists(run.dir() + "/traces.otf2"));
  EXPECT_FALSE(fs::exists(measure::RawCompletePath(run.dir())));
}

}  // namespace
}  // namespace cw::test
