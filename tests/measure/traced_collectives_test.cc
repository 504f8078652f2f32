// MPI collectives of real programs (tests/programs) traced with `causeway trace` and analysed:
// the waits the programs were written to produce, in each collective pattern.
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include <gtest/gtest.h>

#include "otf2/trace_reader.h"
#include "tests/common/traced_checks.h"
#include "tests/common/traced_program.h"
#include "trace/collective_senders.h"

namespace cw::test {
namespace {

using nlohmann::json;

TEST(TracedCollectivesTest, CollectiveWaitStates) {
  const std::string dir = TraceProgram("collectives", 3);
  ExpectOtf2PrintReads(dir);
  const json report = Analyze(dir);
  // Phases A-E of tests/programs/collectives.c, 100 ms each: barrier A (ranks 0, 1) and rank 1 in
  // the barrier after E; N x N in B (ranks 0, 1) and E (rank 0); late broadcast C (ranks 1, 2);
  // early reduce D (the root).
  ExpectInstances(report, "mpi_barrier_wait", 3, 0.1);
  ExpectInstances(report, "mpi_wait_nxn", 3, 0.1);
  ExpectInstances(report, "mpi_latebroadcast", 2, 0.1);
  ExpectInstances(report, "mpi_earlyreduce", 1, 0.1);
  // 5 barriers, 2 allreduces (one on the split communicator), a broadcast and a reduction; the
  // neighbourhood collective has no OTF2 operation and is recorded as its region only.
  EXPECT_EQ(report["matching"]["collective_instances"].get<uint64_t>(), 9u);
  for (uint64_t rank : {0u, 1u, 2u}) {
    EXPECT_EQ(ValueAt(report, "visits", "main/MPI_Neighbor_alltoall", rank), 1.0);
  }
  // MPI_COMM_WORLD, the two halves of the split and the Cartesian ring.
  EXPECT_EQ(Info(dir)["definitions"]["communicators"].get<uint64_t>(), 4u);
}

TEST(TracedCollectivesTest, VCollectivesWaitOnlyForTheirSenders) {
  // tests/programs/vcollective_wait.c: in MPI_Alltoallv and then MPI_Alltoallw on a communicator
  // in reverse rank order, world rank 0 enters 200 ms late; only rank 1 receives from it. Then
  // MPI_Allgatherv.
  const std::string dir = TraceProgram("vcollective_wait", 4);
  ExpectOtf2PrintReads(dir);
  // Each rank's two CollectiveEnd records name its senders in world ranks, translated from the
  // reversed communicator's ranks.
  Result<trace::Trace> trace = otf2::ReadTrace(dir + "/traces.otf2", otf2::ReadOptions{});
  ASSERT_TRUE(trace.has_value()) << trace.error().message();
  const std::vector<std::vector<uint64_t>> senders = {{1}, {0, 1}, {3}, {2}};
  for (uint32_t loc = 0; loc < trace->locations.size(); ++loc) {
    const trace::LocationEvents& ev = trace->location(loc);
    const uint32_t rank = trace->defs.location_groups[trace->defs.locations[loc].group].rank;
    int ends = 0;
    for (uint32_t i = 0; i < ev.size(); ++i) {
      if (ev.kind(i) != trace::EventKind::kMpiCollectiveEnd) continue;
      const trace::CollectiveOp op = ev.collective(i).op;
      if (op != trace::CollectiveOp::kAlltoallv && op != trace::CollectiveOp::kAlltoallw) continue;
      const uint32_t group = trace::CollectiveSenders(trace->defs, ev, i);
      ASSERT_NE(group, trace::kNone) << "rank " << rank;
      EXPECT_EQ(trace->defs.groups[group].members, senders.at(rank)) << "rank " << rank;
      ++ends;
    }
    EXPECT_EQ(ends, 2) << "rank " << rank;
  }
  const json report = Analyze(dir);
  for (const char* call : {"MPI_Alltoallv", "MPI_Alltoallw"}) {
    SCOPED_TRACE(call);
    const std::string path = std::string("main/") + call;
    ExpectWait(ValueAt(report, "mpi_wait_senders", path, 1), 0.2);
    for (uint64_t rank : {0u, 2u, 3u}) {
      SCOPED_TRACE(rank);
      ExpectWait(ValueAt(report, "mpi_wait_senders", path, rank), 0.0);
    }
    EXPECT_EQ(ValueAt(report, "mpi_wait_nxn", path, 2), 0.0);
  }
  // MPI_Allgatherv: world rank 0, 400 ms late, contributes nothing; rank 2, 200 ms late, does.
  // Every rank's record names ranks 1 to 3 as its senders; ranks 1 and 3 wait for rank 2 only.
  for (uint32_t loc = 0; loc < trace->locations.size(); ++loc) {
    const trace::LocationEvents& ev = trace->location(loc);
    int ends = 0;
    for (uint32_t i = 0; i < ev.size(); ++i) {
      if (ev.kind(i) != trace::EventKind::kMpiCollectiveEnd ||
          ev.collective(i).op != trace::CollectiveOp::kAllgatherv) {
        continue;
      }
      const uint32_t group = trace::CollectiveSenders(trace->defs, ev, i);
      ASSERT_NE(group, trace::kNone) << "location " << loc;
      EXPECT_EQ(trace->defs.groups[group].members, (std::vector<uint64_t>{1, 2, 3}));
      ++ends;
    }
    EXPECT_EQ(ends, 1) << "location " << loc;
  }
  const std::string allgatherv = "main/MPI_Allgatherv";
  for (uint64_t rank : {1u, 3u})
    ExpectWait(ValueAt(report, "mpi_wait_senders", allgatherv, rank), 0.2);
  for (uint64_t rank : {0u, 2u})
    ExpectWait(ValueAt(report, "mpi_wait_senders", allgatherv, rank), 0.0);
  EXPECT_EQ(MetricTotal(report, "mpi_wait_nxn", "MPI_Allgatherv"), 0.0);
}

TEST(TracedCollectivesTest, NonBlockingVCollectivesWaitWhereTheyComplete) {
  // tests/programs/nonblocking_vcollective_wait.c: MPI_Ialltoallv (completed by MPI_Wait) and
  // MPI_Ialltoallw (MPI_Waitall) with the senders of vcollective_wait.c, world rank 0 starting
  // 200 ms late and the others computing 100 ms before the completing call; then MPI_Iallgatherv
  // (MPI_Waitany) with rank 0 contributing nothing 400 ms late and rank 2 one int 200 ms late.
  const std::string dir = TraceProgram("nonblocking_vcollective_wait", 4);
  ExpectOtf2PrintReads(dir);
  // Each rank's request records name its senders in world ranks where the operation starts.
  Result<trace::Trace> trace = otf2::ReadTrace(dir + "/traces.otf2", otf2::ReadOptions{});
  ASSERT_TRUE(trace.has_value()) << trace.error().message();
  const std::vector<std::vector<uint64_t>> senders = {{1}, {0, 1}, {3}, {2}};
  for (uint32_t loc = 0; loc < trace->locations.size(); ++loc) {
    const trace::LocationEvents& ev = trace->location(loc);
    const uint32_t rank = trace->defs.location_groups[trace->defs.locations[loc].group].rank;
    std::vector<std::vector<uint64_t>> named;
    for (uint32_t i = 0; i < ev.size(); ++i) {
      if (ev.kind(i) != trace::EventKind::kNonBlockingCollectiveRequest) continue;
      const uint32_t group = trace::CollectiveSenders(trace->defs, ev, i);
      ASSERT_NE(group, trace::kNone) << "rank " << rank;
      named.push_back(trace->defs.groups[group].members);
    }
    const std::vector<std::vector<uint64_t>> expected = {
        senders.at(rank), senders.at(rank), {1, 2, 3}};
    EXPECT_EQ(named, expected) << "rank " << rank;
  }
  const json report = Analyze(dir);
  for (const char* call : {"MPI_Wait", "MPI_Waitall"}) {
    SCOPED_TRACE(call);
    const std::string path = std::string("main/") + call;
    // From its completing call's Enter, 100 ms after its start, to rank 0's start at 200 ms.
    ExpectWait(ValueAt(report, "mpi_wait_senders", path, 1), 0.1);
    for (uint64_t rank : {0u, 2u, 3u}) {
      SCOPED_TRACE(rank);
      ExpectWait(ValueAt(report, "mpi_wait_senders", path, rank), 0.0);
    }
  }
  const std::string waitany = "main/MPI_Waitany";
  for (uint64_t rank : {1u, 3u})
    ExpectWait(ValueAt(report, "mpi_wait_senders", waitany, rank), 0.2);
  for (uint64_t rank : {0u, 2u})
    ExpectWait(ValueAt(report, "mpi_wait_senders", waitany, rank), 0.0);
  // Not the starting calls': they return at once.
  EXPECT_EQ(MetricTotal(report, "mpi_wait_senders", "MPI_Ialltoallv"), 0.0);
  EXPECT_EQ(report["matching"]["incomplete_collectives"].get<uint64_t>(), 0u);
}

}  // namespace
}  // namespace cw::test
