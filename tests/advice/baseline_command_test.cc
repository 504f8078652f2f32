// `causeway baseline` runs its benchmark under mpirun and writes the shortest instance of each
// construct; runs with other process counts add to the file; analyze uses it.
#include <gtest/gtest.h>

#include <fstream>
#include <set>
#include <sstream>

#include "analysis/advice/baselines.h"
#include "testing/scenario.h"
#include "tests/common/paths.h"
#include "tests/common/traced_program.h"

namespace cw {
namespace {

TEST(BaselineCommandTest, MeasuresEveryConstructAndAddsProcessCounts) {
  const std::string dir = testing::MakeTempDir("baseline-command");
  const std::string file = dir + "/machine.baselines";
  std::string out;
  for (int processes : {2, 3}) {
    ASSERT_EQ(
        test::RunCommand(test::CausewayBinary() + " baseline -o " + file + " --repetitions 3 -- " +
                             test::kMpirun + " -np " + std::to_string(processes),
                         &out),
        0)
        << out;
    EXPECT_NE(out.find("on " + std::to_string(processes) + " processes written to"),
              std::string::npos)
        << out;
  }
  Result<analysis::Baselines> b = analysis::Baselines::Read(file);
  ASSERT_TRUE(b.has_value()) << b.error().message();
  // Every construct of the benchmark, measured on 2 and on 3 processes.
  for (const char* construct :
       {"MPI_Barrier", "MPI_Bcast", "MPI_Allreduce", "MPI_Reduce", "MPI_Allgather", "MPI_Alltoall",
        "MPI_Gather", "MPI_Scatter", "MPI_Send", "MPI_Ssend", "MPI_Recv", "MPI_Wait", "MPI_Put",
        "MPI_Get", "MPI_Win_flush", "MPI_Win_lock", "MPI_Win_unlock"}) {
    SCOPED_TRACE(construct);
    auto it = b->entries().find(construct);
    ASSERT_NE(it, b->entries().end());
    std::set<uint32_t> processes;
    for (const analysis::Baselines::Entry& e : it->second) {
      processes.insert(e.processes);
      EXPECT_GT(e.seconds, 0.0);
      EXPECT_LT(e.seconds, 1.0);
    }
    EXPECT_EQ(processes, (std::set<uint32_t>{2, 3}));
  }
  // A send of 8 bytes moves 8; of 256 KiB, 262144.
  std::set<uint64_t> sizes;
  for (const analysis::Baselines::Entry& e : b->entries().at("MPI_Send")) sizes.insert(e.bytes);
  EXPECT_EQ(sizes, (std::set<uint64_t>{8, 64, 512, 4096, 32768, 262144}));
  // Running again on 2 processes replaces those lines, keeps the others.
  const size_t before = b->entries().at("MPI_Barrier").size();
  ASSERT_EQ(test::RunCommand(test::CausewayBinary() + " baseline -o " + file +
                                 " --repetitions 2 -- " + test::kMpirun + " -np 2",
                             &out),
            0)
      << out;
  EXPECT_EQ(analysis::Baselines::Read(file)->entries().at("MPI_Barrier").size(), before);

  // A baselines file that does not parse is not overwritten.
  std::ofstream(file, std::ios::app) << "MPI_Barrier 2\n";
  EXPECT_NE(test::RunCommand(
                test::CausewayBinary() + " baseline -o " + file + " -- " + test::kMpirun + " -np 2",
                &out),
            0);
  EXPECT_NE(out.find("machine.baselines:"), std::string::npos) << out;
}

}  // namespace
}  // namespace cw
