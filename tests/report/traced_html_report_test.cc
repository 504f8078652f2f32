// report.html of traced programs draws in a real browser: an MPI program (a Late Sender on 2
// ranks) and an OpenSHMEM one (its barriers, locks and waits for a value on 3 PEs).
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
