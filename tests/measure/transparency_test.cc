// The transparency suite (tests/programs/transparency): programs over the corners of the MPI
// standard, each run with and without `causeway trace`. What the program prints on standard
// output and its exit status must not change (causeway's own lines go to standard error), and
// what the tracer recorded of them is checked exactly where the program's structure fixes it.
#include <map>
#include <string>
#include <tuple>

#include <nlohmann/json.hpp>

#include <gtest/gtest.h>

#include "otf2/trace_reader.h"
#include "testing/scenario.h"
#include "tests/common/paths.h"
#include "tests/common/traced_checks.h"
#include "tests/common/traced_program.h"

namespace cw::test {
namespace {

using nlohmann::json;

struct Run {
  int status = 0;
  std::string out;  // standard output alone
  std::string err;
};

Run RunProgram(const std::string& name, int ranks, const std::string& trace_dir) {
  const std::string dir = testing::MakeTempDir("transparency-" + name);
  const std::string launch = MpirunOn(ranks) + " " + TestProgram(name);
  const std::string command =
      trace_dir.empty() ? launch : CausewayBinary() + " trace -o " + trace_dir + " -- " + launch;
  Run run;
  std::string ignored;
  run.status = RunCommand("{ " + command + " >" + dir + "/out 2>" + dir + "/err; }", &ignored);
  RunCommand("cat " + dir + "/out", &run.out);
  RunCommand("cat " + dir + "/err", &run.err);
  return run;
}

// Runs `name` natively and traced: the same standard output and exit status. Returns the trace.
std::string ExpectTransparent(const std::string& name, int ranks) {
  const Run native = RunProgram(name, ranks, "");
  const std::string trace_dir = testing::MakeTempDir("transparency-trace-" + name);
  const Run traced = RunProgram(name, ranks, trace_dir);
  EXPECT_EQ(native.status, traced.status) << native.err << "\n---\n" << traced.err;
  EXPECT_EQ(native.out, traced.out);
  EXPECT_FALSE(native.out.empty()) << native.err;
  EXPECT_NE(traced.err.find("Trace written to"), std::string::npos) << traced.err;
  return trace_dir;
}

// Bytes sent and received per (world rank, collective operation), summed over the operation's
// calls: what each blocking collective records at its end and each non-blocking one at its
// completion.
using Bytes = std::map<std::tuple<uint32_t, trace::CollectiveOp>, std::pair<uint64_t, uint64_t>>;

Bytes CollectiveBytes(const std::string& trace_dir) {
  Bytes bytes;
  Result<trace::Trace> t = otf2::ReadTrace(trace_dir + "/traces.otf2", otf2::ReadOptions{});
  EXPECT_TRUE(t) << t.error().message();
  if (!t) return bytes;
  for (uint32_t loc = 0; loc < t->location_count(); ++loc) {
    const trace::LocationEvents& ev = t->location(loc);
    for (uint32_t i = 0; i < ev.size(); ++i) {
      if (ev.kind(i) != trace::EventKind::kMpiCollectiveEnd &&
          ev.kind(i) != trace::EventKind::kNonBlockingCollectiveComplete)
        continue;
      auto& [sent, received] = bytes[{t->defs.RankOfLocation(loc), ev.collective(i).op}];
      sent += ev.collective(i).sent;
      received += ev.collective(i).received;
    }
  }
  return bytes;
}

// intercomm_collectives.c on 4 ranks: A = {world 0} and B = {world 1, 2, 3} (local ranks 0..2)
// joined by an intercommunicator (remote size 3 in A, 1 in B), then MPI_IN_PLACE calls on
// MPI_COMM_WORLD, then the gather of every rank's 512-character line. Ints are 4 bytes.
TEST(TransparencyTest, IntercommunicatorAndInPlaceCollectivesCountTheStandardsBytes) {
  const std::string dir = ExpectTransparent("intercomm_collectives", 4);
  const Bytes b = CollectiveBytes(dir);
  using Op = trace::CollectiveOp;
  const auto at = [&](uint32_t rank, Op op) {
    auto it = b.find({rank, op});
    return it == b.end() ? std::pair<uint64_t, uint64_t>{0, 0} : it->second;
  };
  using P = std::pair<uint64_t, uint64_t>;
  // Alltoallw, blocking and not: A sends j + 1 ints to B's local rank j (1 + 2 + 3 = 6 ints, 24
  // bytes) and receives 1 int from each (12); B's local rank r sends 1 int (4) and receives
  // r + 1 (4, 8, 12). Twice each.
  EXPECT_EQ(at(0, Op::kAlltoallw), (P{48, 24}));
  EXPECT_EQ(at(1, Op::kAlltoallw), (P{8, 8}));
  EXPECT_EQ(at(2, Op::kAlltoallw), (P{8, 16}));
  EXPECT_EQ(at(3, Op::kAlltoallw), (P{8, 24}));
  // Bcast of 5 ints from A (MPI_ROOT: 20 bytes to each of 3) and of 2 ints from B's local rank
  // 1 = world 2 (MPI_ROOT: 8 bytes to A; B's others pass MPI_PROC_NULL and move nothing).
  EXPECT_EQ(at(0, Op::kBcast), (P{60, 8}));
  EXPECT_EQ(at(1, Op::kBcast), (P{0, 20}));
  EXPECT_EQ(at(2, Op::kBcast), (P{8, 20}));
  EXPECT_EQ(at(3, Op::kBcast), (P{0, 20}));
  // Gather: 2 ints from each of B to A (A receives 24); MPI_IN_PLACE at world root 0 with 1
  // int each (the root's own block counts: sent 4, received 16); the final 512-byte lines
  // (root receives 2048, everyone sends 512).
  EXPECT_EQ(at(0, Op::kGather), (P{0 + 4 + 512, 24 + 16 + 2048}));
  for (uint32_t r = 1; r < 4; ++r) EXPECT_EQ(at(r, Op::kGather), (P{8 + 4 + 512, 0})) << r;
  // Scatter of 3 ints from A to each of B.
  EXPECT_EQ(at(0, Op::kScatter), (P{36, 0}));
  for (uint32_t r = 1; r < 4; ++r) EXPECT_EQ(at(r, Op::kScatter), (P{0, 12})) << r;
  // Scatterv from world rank 1 with counts 1, 2, 3, 4, the root's own block in place.
  EXPECT_EQ(at(0, Op::kScatterv), (P{0, 4}));
  EXPECT_EQ(at(1, Op::kScatterv), (P{40, 8}));
  EXPECT_EQ(at(2, Op::kScatterv), (P{0, 12}));
  EXPECT_EQ(at(3, Op::kScatterv), (P{0, 16}));
  // Reduce of 4 ints from each of B to A (MPI_ROOT receives 3 x 16).
  EXPECT_EQ(at(0, Op::kReduce), (P{0, 48}));
  for (uint32_t r = 1; r < 4; ++r) EXPECT_EQ(at(r, Op::kReduce), (P{16, 0})) << r;
  // Allreduce of 2 ints; Allgather of 1 int per remote process (A: 3, B: 1), then in place on
  // 4 processes with 2 ints each (32 both ways); Alltoall and Alltoallv in place, 1 int each.
  for (uint32_t r = 0; r < 4; ++r) {
    SCOPED_TRACE(r);
    EXPECT_EQ(at(r, Op::kAllreduce), (P{8, 8}));
    const uint64_t remote = r == 0 ? 3 : 1;
    EXPECT_EQ(at(r, Op::kAllgather), (P{4 * remote + 32, 4 * remote + 32}));
    EXPECT_EQ(at(r, Op::kAlltoall), (P{16, 16}));
    EXPECT_EQ(at(r, Op::kAlltoallv), (P{16, 16}));
  }
  // Every collective is one instance over all its members (both groups of the
  // inter-communicator: 8 blocking and the non-blocking MPI_Ialltoallw, the
  // MPI_IN_PLACE ones: 5, the final gather: 1), the roots named from both sides agree, and
  // nothing is reported wrong.
  const json report = Analyze(dir);
  EXPECT_EQ(report["matching"]["collective_instances"].get<uint64_t>(), 15u);
  EXPECT_EQ(report["matching"]["incomplete_collectives"].get<uint64_t>(), 0u);
  for (const json& d : report["diagnostics"]) EXPECT_NE(d["severity"], "error") << d;
}

// intercomm_p2p.c on 4 ranks: A = {0, 2} and B = {1, 3} (world ranks). Messages on the
// inter-communicator go to the other group's rank: 2 sends from A to B (A's local rank i to B's
// i), 2 answers from B, 4 from the MPI_Sendrecv calls, and 1 on the merged communicator (its
// last rank, world 3, to its first, world 0): 9, all matched. A computes 100 ms before its
// sends, so B's receives wait that long for their partners in A: world ranks 1 and 3 wait for 0
// and 2.
TEST(TransparencyTest, IntercommunicatorMessagesMatchTheirPartnersInTheOtherGroup) {
  const std::string dir = ExpectTransparent("intercomm_p2p", 4);
  const json report = Analyze(dir);
  EXPECT_EQ(report["matching"]["messages"].get<uint64_t>(), 9u);
  EXPECT_EQ(report["matching"]["unmatched_sends"].get<uint64_t>(), 0u);
  EXPECT_EQ(report["matching"]["unmatched_receives"].get<uint64_t>(), 0u);
  EXPECT_EQ(report["matching"]["probes"]["linked"].get<uint64_t>(), 2u);
  for (const json& d : report["diagnostics"]) EXPECT_NE(d["severity"], "error") << d;
  std::map<uint64_t, uint64_t> partner_of_waiter;
  for (const json& i : report["instances"]) {
    if (i["metric"] != "mpi_latesender" || i["value"].get<double>() < 0.05) continue;
    partner_of_waiter[i["location"].get<uint64_t>()] = i["partner"].get<uint64_t>();
    ExpectWait(i["value"].get<double>(), 0.1);
  }
  EXPECT_EQ(partner_of_waiter, (std::map<uint64_t, uint64_t>{{1, 0}, {3, 2}}));
}

// mpi_io.c on 2 ranks: every MPI-IO call is a region of its own (visits per rank as the
// program makes them, MPI_File_delete on rank 0 only), its time is in the File I/O categories
// (individual reads and writes, collective ones), its operations and bytes are OTF2 I/O records
// that give Scalasca's mpi_file_* metrics and the report's bytes per rank and file, and the
// program reads back what it wrote.
TEST(TransparencyTest, MpiIoCallsAreRecordedAsFileIo) {
  const std::string dir = ExpectTransparent("mpi_io", 2);
  const json report = Analyze(dir);
  const std::map<std::string, double> per_rank = {{"MPI_File_open", 1},
                                                  {"MPI_File_set_size", 1},
                                                  {"MPI_File_write_at", 1},
                                                  {"MPI_File_read_at", 1},
                                                  {"MPI_File_write_at_all", 1},
                                                  {"MPI_File_read_at_all", 1},
                                                  {"MPI_File_iwrite_at", 1},
                                                  {"MPI_File_seek", 6},
                                                  {"MPI_File_write", 1},
                                                  {"MPI_File_read", 1},
                                                  {"MPI_File_write_all", 2},
                                                  {"MPI_File_read_all", 1},
                                                  {"MPI_File_iread", 1},
                                                  {"MPI_File_write_at_all_begin", 1},
                                                  {"MPI_File_write_at_all_end", 1},
                                                  {"MPI_File_read_all_begin", 1},
                                                  {"MPI_File_read_all_end", 1},
                                                  {"MPI_File_set_view", 2},
                                                  {"MPI_File_seek_shared", 2},
                                                  {"MPI_File_write_ordered", 1},
                                                  {"MPI_File_read_ordered", 1},
                                                  {"MPI_File_sync", 1},
                                                  {"MPI_File_get_size", 1},
                                                  {"MPI_File_close", 1}};
  for (const auto& [region, visits] : per_rank) {
    EXPECT_EQ(MetricTotal(report, "visits", region), 2 * visits) << region;
  }
  EXPECT_EQ(MetricTotal(report, "visits", "MPI_File_delete"), 1.0);
  EXPECT_GT(MetricTotal(report, "mpi_io_individual"), 0.0);
  EXPECT_GT(MetricTotal(report, "mpi_io_collective"), 0.0);
  for (const json& d : report["diagnostics"]) EXPECT_NE(d["severity"], "error") << d;

  // Operations as Scalasca counts them (its scout.spec, what Cube shows): visits of the file
  // calls by name. Per rank:
  //   individual reads:  read_at, read, iread                                         = 3
  //   individual writes: write_at, iwrite_at, write                                   = 3
  //   individual others (delete, get, seek): seek x6, seek_shared x2, get_size,
  //                      and delete on rank 0 only                                   = 9 (+1)
  //   collective reads:  read_at_all, read_all_begin, read_all_end, read_all,
  //                      read_ordered                                                 = 5
  //   collective writes: write_at_all, write_all x2, write_at_all_begin,
  //                      write_at_all_end, write_ordered                              = 6
  //   collective others: open, set_size, set_view x2, sync, close                     = 6
  // Bytes, from the I/O records: every read and write moves 64 ints, 256 bytes; a split
  // collective is one operation (its bytes come with its _end), non-blocking ones complete in
  // MPI_Wait. Individual: 3 reads, 3 writes; collective: 4 reads, 5 writes.
  const std::map<std::string, double> both_ranks = {
      {"mpi_file_ops", 2 * 32 + 1},      {"mpi_file_iops", 2 * 15 + 1},
      {"mpi_file_irops", 2 * 3},         {"mpi_file_iwops", 2 * 3},
      {"mpi_file_cops", 2 * 17},         {"mpi_file_crops", 2 * 5},
      {"mpi_file_cwops", 2 * 6},         {"mpi_file_bytes", 2 * 15 * 256},
      {"mpi_file_ibytes", 2 * 6 * 256},  {"mpi_file_irbytes", 2 * 3 * 256},
      {"mpi_file_iwbytes", 2 * 3 * 256}, {"mpi_file_cbytes", 2 * 9 * 256},
      {"mpi_file_crbytes", 2 * 4 * 256}, {"mpi_file_cwbytes", 2 * 5 * 256}};
  for (const auto& [metric, value] : both_ranks) {
    EXPECT_EQ(MetricTotal(report, metric), value) << metric;
  }
  // A split collective's bytes count under its _begin call, a non-blocking one's under its
  // start; both calls of a split collective are operations.
  EXPECT_EQ(MetricTotal(report, "mpi_file_cwbytes", "MPI_File_write_at_all_begin"), 2.0 * 256);
  EXPECT_EQ(MetricTotal(report, "mpi_file_cwops", "MPI_File_write_at_all_end"), 2.0);
  EXPECT_EQ(MetricTotal(report, "mpi_file_irbytes", "MPI_File_iread"), 2.0 * 256);
  // Per rank and file: one file, whose name the program chose, 7 reads and 8 writes each.
  ASSERT_EQ(report["file_io"].size(), 2u);
  for (uint64_t rank = 0; rank < 2; ++rank) {
    const json& f = report["file_io"][rank];
    EXPECT_NE(f["file"].get<std::string>().find("/causeway-mpi-io-"), std::string::npos) << f;
    EXPECT_EQ(f["location"].get<uint64_t>(), rank);
    EXPECT_EQ(f["reads"].get<uint64_t>(), 7u);
    EXPECT_EQ(f["writes"].get<uint64_t>(), 8u);
    EXPECT_EQ(f["bytes_read"].get<uint64_t>(), 7u * 256);
    EXPECT_EQ(f["bytes_written"].get<uint64_t>(), 8u * 256);
  }
}

// standard_corners.c on 4 ranks: derived datatypes and MPI_BOTTOM, a generalized request,
// cancel, an active send freed and a completed receive freed, MPI_ERRORS_RETURN (and
// MPI_COMM_WORLD's handler still reads MPI_ERRORS_ARE_FATAL under the tracer), attribute
// callbacks, persistent requests, neighbourhood and non-blocking collectives, dynamic and
// shared-memory windows: the same output. Each rank sends 7 messages to its right neighbour (2
// MPI_Sendrecv, 2 persistent starts, the freed MPI_Isend, the message of the receive freed once
// MPI_Request_get_status found it complete, the window address) and all are matched (the
// freed receive's completion is recorded in MPI_Request_free); the 10 collective
// instances are the 2 barriers, the final gather, the 4 window creations and frees and the
// non-blocking MPI_Iallreduce, MPI_Ibcast and MPI_Ialltoallv (the neighbourhood collectives are
// recorded as their regions only, and not matched). The send each rank
// makes to a rank that does not exist, which MPI refuses under MPI_ERRORS_RETURN, is recorded
// (its record precedes the call) and reported as a message to an unknown peer.
TEST(TransparencyTest, CornersOfTheStandardBehaveAsWithoutTheTracer) {
  const std::string dir = ExpectTransparent("standard_corners", 4);
  const json report = Analyze(dir);
  EXPECT_EQ(report["matching"]["messages"].get<uint64_t>(), 28u);
  EXPECT_EQ(report["matching"]["unmatched_sends"].get<uint64_t>(), 0u);
  EXPECT_EQ(report["matching"]["unmatched_receives"].get<uint64_t>(), 0u);
  EXPECT_EQ(report["matching"]["collective_instances"].get<uint64_t>(), 10u);
  for (const json& d : report["diagnostics"]) {
    if (d["severity"] != "error") continue;
    EXPECT_EQ(d["name"], "match.unknown_peer") << d;
    EXPECT_EQ(d["count"].get<uint64_t>(), 4u) << d;
  }
}

}  // namespace
}  // namespace cw::test
