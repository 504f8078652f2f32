#include "trace/mpi_function.h"

#include <gtest/gtest.h>

namespace cw::trace {
namespace {

TEST(MpiFunctionTest, NonMpiNamesAreNotMpi) {
  EXPECT_FALSE(ClassifyMpiRegion("main").is_mpi());
  EXPECT_FALSE(ClassifyMpiRegion("compute_forces").is_mpi());
  EXPECT_FALSE(ClassifyMpiRegion("").is_mpi());
}

TEST(MpiFunctionTest, PointToPointSemantics) {
  MpiFunction recv = ClassifyMpiRegion("MPI_Recv");
  EXPECT_EQ(recv.category, MpiCategory::kPointToPoint);
  EXPECT_TRUE(recv.has(kMpiRecv) && recv.has(kMpiBlocking));
  MpiFunction ssend = ClassifyMpiRegion("MPI_Ssend");
  EXPECT_TRUE(ssend.has(kMpiSend) && ssend.has(kMpiSynchronous) && ssend.has(kMpiBlocking));
  EXPECT_TRUE(ClassifyMpiRegion("MPI_Bsend").has(kMpiBuffered));
  EXPECT_TRUE(ClassifyMpiRegion("MPI_Rsend").has(kMpiReady));
  MpiFunction sendrecv = ClassifyMpiRegion("MPI_Sendrecv");
  EXPECT_TRUE(sendrecv.has(kMpiSend) && sendrecv.has(kMpiRecv));
}

TEST(MpiFunctionTest, CompletionCalls) {
  // Score-P gives MPI_Waitall the role FUNCTION; the name decides.
  MpiFunction waitall = ClassifyMpiRegion("MPI_Waitall");
  EXPECT_EQ(waitall.category, MpiCategory::kPointToPoint);
  EXPECT_TRUE(waitall.has(kMpiWait) && waitall.has(kMpiMultiWait));
  EXPECT_FALSE(ClassifyMpiRegion("MPI_Waitany").has(kMpiMultiWait));
  EXPECT_TRUE(ClassifyMpiRegion("MPI_Wait").has(kMpiWait));
  EXPECT_TRUE(ClassifyMpiRegion("MPI_Testsome").has(kMpiTest));
  EXPECT_FALSE(ClassifyMpiRegion("MPI_Testsome").has(kMpiWait));
}

TEST(MpiFunctionTest, CollectivesByKind) {
  EXPECT_EQ(ClassifyMpiRegion("MPI_Barrier").collective, MpiCollective::kBarrier);
  EXPECT_EQ(ClassifyMpiRegion("MPI_Bcast").collective, MpiCollective::kOneToAll);
  EXPECT_EQ(ClassifyMpiRegion("MPI_Scatterv").collective, MpiCollective::kOneToAll);
  EXPECT_EQ(ClassifyMpiRegion("MPI_Gatherv").collective, MpiCollective::kAllToOne);
  EXPECT_EQ(ClassifyMpiRegion("MPI_Allreduce").collective, MpiCollective::kAllToAll);
  EXPECT_EQ(ClassifyMpiRegion("MPI_Exscan").collective, MpiCollective::kScan);
  MpiFunction iallreduce = ClassifyMpiRegion("MPI_Iallreduce");
  EXPECT_EQ(iallreduce.collective, MpiCollective::kAllToAll);
  EXPECT_TRUE(iallreduce.has(kMpiNonBlockingColl));
}

TEST(MpiFunctionTest, ManagementAndOtherCategoriesFollowScalasca) {
  EXPECT_EQ(ClassifyMpiRegion("MPI_Init").category, MpiCategory::kInitFinalize);
  EXPECT_TRUE(ClassifyMpiRegion("MPI_Init_thread").has(kMpiInit));
  EXPECT_TRUE(ClassifyMpiRegion("MPI_Finalize").has(kMpiFinalize));
  EXPECT_EQ(ClassifyMpiRegion("MPI_Initialized").category, MpiCategory::kInitFinalize);
  EXPECT_FALSE(ClassifyMpiRegion("MPI_Initialized").has(kMpiInit));
  EXPECT_EQ(ClassifyMpiRegion("MPI_Comm_split").category, MpiCategory::kCommMgmt);
  EXPECT_EQ(ClassifyMpiRegion("MPI_Comm_rank").category, MpiCategory::kCommMgmt);
  EXPECT_EQ(ClassifyMpiRegion("MPI_Cart_create").category, MpiCategory::kCommMgmt);
  EXPECT_EQ(ClassifyMpiRegion("MPI_Group_incl").category, MpiCategory::kOther);
  EXPECT_EQ(ClassifyMpiRegion("MPI_Start").category, MpiCategory::kOther);
  EXPECT_EQ(ClassifyMpiRegion("MPI_Request_free").category, MpiCategory::kOther);
  EXPECT_EQ(ClassifyMpiRegion("MPI_Wtime").category, MpiCategory::kOther);
  EXPECT_EQ(ClassifyMpiRegion("MPI_File_open").category, MpiCategory::kFileMgmt);
  EXPECT_EQ(ClassifyMpiRegion("MPI_File_read_at").category, MpiCategory::kIoIndividual);
  EXPECT_EQ(ClassifyMpiRegion("MPI_File_write_all").category, MpiCategory::kIoCollective);
  EXPECT_EQ(ClassifyMpiRegion("MPI_Win_create").category, MpiCategory::kWinMgmt);
  EXPECT_EQ(ClassifyMpiRegion("MPI_Win_fence").category, MpiCategory::kRmaSyncActive);
  EXPECT_EQ(ClassifyMpiRegion("MPI_Win_lock_all").category, MpiCategory::kRmaSyncPassive);
  EXPECT_EQ(ClassifyMpiRegion("MPI_Put").category, MpiCategory::kRmaComm);
  EXPECT_EQ(ClassifyMpiRegion("MPI_Compare_and_swap").category, MpiCategory::kRmaComm);
}

TEST(MpiFunctionTest, GeneralActiveTargetCallsAreToldApart) {
  // Post, start, complete and wait all write one RmaGroupSync record: only the name says which.
  EXPECT_EQ(ClassifyMpiRegion("MPI_Win_post").rma_group, MpiRmaGroupCall::kPost);
  EXPECT_EQ(ClassifyMpiRegion("MPI_Win_start").rma_group, MpiRmaGroupCall::kStart);
  EXPECT_EQ(ClassifyMpiRegion("MPI_Win_complete").rma_group, MpiRmaGroupCall::kComplete);
  EXPECT_EQ(ClassifyMpiRegion("mpi_win_wait_").rma_group, MpiRmaGroupCall::kWait);
  EXPECT_EQ(ClassifyMpiRegion("MPI_Win_test").rma_group, MpiRmaGroupCall::kTest);
  EXPECT_EQ(ClassifyMpiRegion("MPI_Win_fence").rma_group, MpiRmaGroupCall::kOther);
  EXPECT_EQ(ClassifyMpiRegion("MPI_Wait").rma_group, MpiRmaGroupCall::kOther);
}

TEST(MpiFunctionTest, FortranAndLargeCountSpellings) {
  EXPECT_TRUE(ClassifyMpiRegion("mpi_waitall_").has(kMpiMultiWait));
  EXPECT_TRUE(ClassifyMpiRegion("MPI_SEND").has(kMpiSend));
  EXPECT_TRUE(ClassifyMpiRegion("MPI_Send_c").has(kMpiSend));
}

}  // namespace
}  // namespace cw::trace
