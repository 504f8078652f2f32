// report.html of a traced MPI program (a Late Sender on 2 ranks) draws in a real browser.
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

}  // namespace
}  // namespace cw::test
