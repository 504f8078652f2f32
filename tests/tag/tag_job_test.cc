// `mpirun -np K causeway tag TRACE` for K = 1 to 4 writes the graphs one process writes:
// tag.json, summary.txt and tag.html byte for byte. On every real trace and on traces of the
// task activity graph's programs (point-to-point, non-blocking, collectives, wildcards, marked
// loops), each run under a timeout: a hang fails the test.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "testing/scenario.h"
#include "tests/common/paths.h"
#include "tests/common/traced_program.h"

namespace cw::test {
namespace {

std::string Slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

void CheckJobsWriteOneProcessesGraphs(const std::string& trace, const std::string& name) {
  const std::string dir = testing::MakeTempDir("tag-job-" + name);
  const std::string options = " tag -q " + trace + " -o ";
  std::string out;
  ASSERT_EQ(RunCommand("timeout 300 " + CausewayBinary() + options + dir + "/single", &out), 0)
      << out;
  for (int ranks = 1; ranks <= 4; ++ranks) {
    const std::string where = name + " on " + std::to_string(ranks) + " ranks";
    const std::string job = dir + "/np" + std::to_string(ranks);
    ASSERT_EQ(RunCommand(MpirunOn(ranks) + " " + CausewayBinary() + options + job, &out), 0)
        << where << "\n"
        << out;
    for (const char* file : {"tag.json", "summary.txt", "tag.html"}) {
      EXPECT_TRUE(Slurp(job + "/" + file) == Slurp(dir + "/single/" + file))
          << where << ": " << file;
    }
  }
}

TEST(TagJobTest, EveryRealTrace) {
  for (const std::string& name : RealTraceNames()) {
    SCOPED_TRACE(name);
    CheckJobsWriteOneProcessesGraphs(RealTrace(name), name);
  }
}

TEST(TagJobTest, TracedPrograms) {
  for (const auto& [program, ranks] :
       std::vector<std::pair<std::string, int>>{{"tag_halo", 4},
                                                {"tag_collectives", 3},
                                                {"tag_master_worker", 4},
                                                {"tag_irecv_waitall", 2}}) {
    SCOPED_TRACE(program);
    CheckJobsWriteOneProcessesGraphs(TraceProgram(program, ranks), program);
  }
}

}  // namespace
}  // namespace cw::test
