// Synchronisation, communication and byte counts, as Scalasca defines them: a zero-byte message
// is a synchronisation, any other a communication; received bytes are the sender's.
#include <gtest/gtest.h>

#include "tests/common/analysis_fixture.h"

namespace cw::test {
namespace {

TEST(CountsTest, PointToPointMessages) {
  // Rank 0 sends 0 bytes and 100 bytes to rank 1, and one 7-byte message nobody receives.
  testing::Scenario s(2);
  s.rank(0)
      .Enter(0, "main")
      .Send(1, 2, 1, 0, 0)
      .Send(3, 4, 1, 1, 100)
      .Send(5, 6, 1, 9, 7)
      .Leave(20, "main");
  s.rank(1).Enter(0, "main").Recv(1, 2, 0, 0, 0).Recv(3, 4, 0, 1, 100).Leave(20, "main");
  Analysis a = AnalyzeScenario(s);
  EXPECT_EQ(a.Value("syncs_send", "main/MPI_Send", 0), 1.0);
  EXPECT_EQ(a.Value("comms_send", "main/MPI_Send", 0), 2.0);  // unmatched sends count too
  EXPECT_EQ(a.Value("bytes_sent", "main/MPI_Send", 0), 107.0);
  EXPECT_EQ(a.Value("syncs_recv", "main/MPI_Recv", 1), 1.0);
  EXPECT_EQ(a.Value("comms_recv", "main/MPI_Recv", 1), 1.0);
  EXPECT_EQ(a.Value("bytes_rcvd", "main/MPI_Recv", 1), 100.0);
  EXPECT_EQ(a.Total("syncs_p2p"), 2.0);
  EXPECT_EQ(a.Total("syncs"), 2.0);
  EXPECT_EQ(a.Total("comms_p2p"), 3.0);
  EXPECT_EQ(a.Total("comms"), 3.0);
  EXPECT_EQ(a.Total("bytes_p2p"), 207.0);
  EXPECT_EQ(a.Total("bytes"), 207.0);
  EXPECT_EQ(a.report.matching.unmatched_sends, 1u);
}

TEST(CountsTest, ReceivedBytesAreTheSendersCount) {
  // The receive records 64 bytes (its buffer size) for a 40-byte message.
  testing::Scenario s(2);
  s.rank(0).Enter(0, "main").Send(1, 2, 1, 0, 40).Leave(20, "main");
  s.rank(1).Enter(0, "main").Recv(1, 2, 0, 0, 64).Leave(20, "main");
  Analysis a = AnalyzeScenario(s);
  EXPECT_EQ(a.Total("bytes_rcvd"), 40.0);
}

TEST(CountsTest, CollectiveRoles) {
  // A broadcast from rank 0 (sends 16, receives 0), received by rank 1 (0 / 16); an allreduce
  // (8 / 8 each); a barrier (0 / 0).
  testing::Scenario s(2);
  for (int r = 0; r < 2; ++r) {
    s.rank(r)
        .Enter(0, "main")
        .Collective(1, 2, "MPI_Bcast", OTF2_COLLECTIVE_OP_BCAST, r == 0 ? 16 : 0, r == 0 ? 0 : 16,
                    0)
        .Collective(3, 4, "MPI_Allreduce", OTF2_COLLECTIVE_OP_ALLREDUCE, 8, 8)
        .Collective(5, 6, "MPI_Barrier", OTF2_COLLECTIVE_OP_BARRIER, 0, 0)
        .Leave(9, "main");
  }
  Analysis a = AnalyzeScenario(s);
  EXPECT_EQ(a.Value("comms_csrc", "main/MPI_Bcast", 0), 1.0);
  EXPECT_EQ(a.Value("comms_cdst", "main/MPI_Bcast", 1), 1.0);
  EXPECT_EQ(a.Total("comms_cxch"), 2.0);
  EXPECT_EQ(a.Total("syncs_coll"), 2.0);
  EXPECT_EQ(a.Total("comms_coll"), 4.0);
  EXPECT_EQ(a.Total("bytes_cout"), 32.0);
  EXPECT_EQ(a.Total("bytes_cin"), 32.0);
  EXPECT_EQ(a.Total("bytes_coll"), 64.0);
}

}  // namespace
}  // namespace cw::test
