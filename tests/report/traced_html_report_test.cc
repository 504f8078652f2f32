// report.html of traced programs draws in a real browser: an MPI program (a Late Sender on 2
// ranks), one that reads and writes a file with MPI-IO, one with walked call paths, and an
// OpenSHMEM one (its barriers, locks and waits for a value on 3 PEs).
#include <gtest/gtest.h>

#include "tests/common/browser_check.h"
#include "tests/common/traced_program.h"

namespace cw::test {
namespace {

TEST(TracedHtmlReportTest, LateSenderProgramDraws) {
  const std::string dir = TraceProgram("late_sender", 2);
  Analysis a = AnalyzeFile(dir + "/traces.otf2");
  ASSERT_GT(a.Total("mpi_latesender"), 0.0);
  ExpectReportDrawn(a, "late_sender-program", /*expect_waits=*/true);
}

// The MPI-IO program's overview states its file I/O: per rank 7 reads and 8 writes of 256
// bytes each (transparency_test.cc derives them), on one file: 3584 B = 3.5 KiB read and 4096 B
// = 4.0 KiB written by the two ranks.
TEST(TracedHtmlReportTest, MpiIoProgramShowsItsFileIo) {
  const std::string dir = TraceProgram("mpi_io", 2);
  Analysis a = AnalyzeFile(dir + "/traces.otf2");
  const LoadedPage page = ExpectReportDrawn(a, "mpi_io-program", /*expect_waits=*/false);
  EXPECT_NE(page.dom.find("<dt>File I/O</dt><dd>14 reads, 16 writes on 1 file: 3.5 KiB read, "
                          "4.0 KiB written</dd>"),
            std::string::npos);
}

// A program traced with walked call paths (tests/programs/callpaths/nested_compute.c, -g): the
// browser's call tree shows the program's functions, each with the line that calls it.
TEST(TracedHtmlReportTest, WalkedCallPathsShowTheirCallSites) {
  const std::string dir = TraceProgram("nested_compute", 2, "2");
  Analysis a = AnalyzeFile(dir + "/traces.otf2");
  const LoadedPage page = ExpectReportDrawn(a, "nested_compute-program", /*expect_waits=*/true);
  EXPECT_NE(page.dom.find("exchange (nested_compute.c:37)"), std::string::npos);
  EXPECT_NE(page.dom.find("MPI_Sendrecv (nested_compute.c:31)"), std::string::npos);
}

#ifdef CW_HAVE_SHMEM_PROGRAMS
TEST(TracedHtmlReportTest, OpenShmemProgramDraws) {
  const std::string dir = TraceShmemProgram("shmem_patterns", 3);
  Analysis a = AnalyzeFile(dir + "/traces.otf2");
  ASSERT_GT(a.Total("shmem_wait_on_value"), 0.0);
  ExpectReportDrawn(a, "shmem_patterns-program", /*expect_waits=*/true);
}
#endif

}  // namespace
}  // namespace cw::test
