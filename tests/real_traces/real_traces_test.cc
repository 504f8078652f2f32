// Every real Score-P trace in ../shared/traces is read and analysed, its event counts agree with
// otf2-print's, and the numbers that can be derived by hand from otf2-print's listing come out.
#include <filesystem>
#include <map>
#include <sstream>

#include <nlohmann/json.hpp>

#include <gtest/gtest.h>

#include "match/matcher.h"
#include "tests/common/analysis_fixture.h"
#include "tests/common/paths.h"
#include "trace/location_builder.h"

namespace cw::test {
namespace {

namespace fs = std::filesystem;

// Event records by kind as otf2-print lists them.
std::map<std::string, uint64_t> Otf2PrintCounts(const std::string& anchor) {
  std::string output;
  EXPECT_EQ(RunCommand("otf2-print '" + anchor + "'", &output), 0);
  std::map<std::string, uint64_t> counts;
  std::istringstream lines(output);
  std::string line;
  bool in_events = false;
  while (std::getline(lines, line)) {
    if (line.rfind("Event ", 0) == 0) {
      in_events = true;
      continue;
    }
    if (!in_events || line.empty() || line[0] == ' ' || line[0] == '-' || line[0] == '=') continue;
    counts[line.substr(0, line.find(' '))]++;
  }
  return counts;
}

TEST(RealTracesTest, TheSharedTracesArePresent) {
  std::vector<std::string> names = RealTraceNames();
  EXPECT_GE(names.size(), 9u) << "shared traces not found under " << SharedDir();
}

TEST(RealTracesTest, InfoCountsEqualOtf2Print) {
  for (const std::string& name : RealTraceNames()) {
    SCOPED_TRACE(name);
    std::string anchor = RealTrace(name) + "/traces.otf2";
    std::string output;
    ASSERT_EQ(RunCommand(CausewayBinary() + " info --json '" + anchor + "'", &output), 0) << output;
    nlohmann::json info = nlohmann::json::parse(output);
    std::map<std::string, uint64_t> ours;
    for (const auto& [kind, count] : info["events_by_kind"].items()) ours[kind] = count;
    std::map<std::string, uint64_t> theirs = Otf2PrintCounts(anchor);
    EXPECT_EQ(ours, theirs);
    uint64_t total = 0;
    for (const auto& [kind, count] : theirs) total += count;
    EXPECT_EQ(info["events"].get<uint64_t>(), total);
  }
}

TEST(RealTracesTest, EveryTraceIsAnalysed) {
  for (const std::string& name : RealTraceNames()) {
    SCOPED_TRACE(name);
    Analysis a = AnalyzeFile(RealTrace(name));
    EXPECT_GT(a.trace.RecordedEventCount(), 0u);
    EXPECT_GT(a.Total("time"), 0.0);
    EXPECT_EQ(a.report.locations.size(), a.trace.location_count());
  }
}

TEST(RealTracesTest, CasitaLateSenderChainAndBarrier) {
  // gen_mpi.c: rank 0 computes 10x longer, then a chain 0 -> 1 -> 2 -> 3 of blocking messages;
  // each receiver waits from entering MPI_Recv until its sender entered MPI_Send (otf2-print):
  //   rank 1: 106116946908054 - 106107922094015 ns = 9.024814039 s
  //   rank 2: 106117924094517 - 106107918769568 ns = 10.005324949 s
  //   rank 3: 106118975541798 - 106107985107808 ns = 10.990433990 s
  // Then a barrier that rank 0 enters last, at 106126796092142:
  //   rank 1: - 106118960929793 = 7.835162349 s; rank 2: - 106119952296334 = 6.843795808 s;
  //   rank 3: - 106120065783752 = 6.730308390 s.
  Analysis a = AnalyzeFile(RealTrace("4_mpi_ls_barr"));
  const std::string recv = "main/late_sender/MPI_Recv", barrier = "main/barrier/MPI_Barrier";
  EXPECT_NEAR(a.Value("mpi_latesender", recv, 1), 9.024814039, 1e-12);
  EXPECT_NEAR(a.Value("mpi_latesender", recv, 2), 10.005324949, 1e-12);
  EXPECT_NEAR(a.Value("mpi_latesender", recv, 3), 10.990433990, 1e-12);
  EXPECT_NEAR(a.Value("mpi_barrier_wait", barrier, 1), 7.835162349, 1e-12);
  EXPECT_NEAR(a.Value("mpi_barrier_wait", barrier, 2), 6.843795808, 1e-12);
  EXPECT_NEAR(a.Value("mpi_barrier_wait", barrier, 3), 6.730308390, 1e-12);
  EXPECT_EQ(a.Value("mpi_barrier_wait", barrier, 0), 0.0);
  EXPECT_EQ(a.report.matching.messages, 3u);
  EXPECT_EQ(a.report.matching.collective_instances, 1u);
  EXPECT_TRUE(a.report.diagnostics.empty());
}

TEST(RealTracesTest, PipitPingPongMessagesAndBytes) {
  // 8 messages each way of 4,177,920 bytes in total per direction (trace README).
  for (const char* name : {"ping-pong-otf2", "ping-pong-otf2-papi"}) {
    SCOPED_TRACE(name);
    Analysis a = AnalyzeFile(RealTrace(name));
    EXPECT_EQ(a.report.matching.messages, 16u);
    EXPECT_EQ(a.report.matching.unmatched_sends + a.report.matching.unmatched_receives, 0u);
    EXPECT_EQ(a.LocationTotal("bytes_sent", 0), 4177920.0);
    EXPECT_EQ(a.LocationTotal("bytes_sent", 1), 4177920.0);
    EXPECT_EQ(a.LocationTotal("bytes_rcvd", 0), 4177920.0);
    EXPECT_EQ(a.LocationTotal("comms_send", 0), 8.0);
    EXPECT_EQ(a.LocationTotal("comms_recv", 1), 8.0);
  }
}

TEST(RealTracesTest, TagsTraceReceivesInFixedOrderFromDifferentSources) {
  // Rank 0 receives 18 messages from ranks 1-9 in fixed source order while the senders send at
  // different times: Late Sender, and wrong order from different sources, only on rank 0.
  Analysis a = AnalyzeFile(RealTrace("10_scorep_mpi_tags"));
  EXPECT_EQ(a.report.matching.messages, 18u);
  EXPECT_GT(a.LocationTotal("mpi_latesender", 0), 0.0);
  EXPECT_GT(a.LocationTotal("mpi_lswo_different", 0), 0.0);
  EXPECT_EQ(a.Total("mpi_lswo_same"), 0.0);
  for (uint32_t loc = 1; loc < 10; ++loc) EXPECT_EQ(a.LocationTotal("mpi_latesender", loc), 0.0);
}

TEST(RealTracesTest, SstMacroSubCommunicatorsMatchCompletely) {
  // Communicator-local ranks on the two-member sub-communicators must map to the right
  // locations: every one of the 1440 messages matches, every collective is complete.
  Analysis a = AnalyzeFile(RealTrace("sst-macro-otf2_test_traces"));
  EXPECT_EQ(a.report.matching.messages, 1440u);
  EXPECT_EQ(a.report.matching.unmatched_sends, 0u);
  EXPECT_EQ(a.report.matching.unmatched_receives, 0u);
  EXPECT_EQ(a.report.matching.incomplete_collectives, 0u);
  EXPECT_GT(a.report.matching.collective_instances, 0u);
}

TEST(RealTracesTest, TraceRUnbalancedRegionsAreRepairedAndReported) {
  // Rank 0 of the TraceR stencil traces has two Enters without Leave and mis-nested TRACER_*
  // regions; Scalasca aborts on it. causeway repairs the nesting and says so.
  for (const char* name : {"tracer-stencil4d-traces-32", "tracer-stencil4d-traces-64"}) {
    SCOPED_TRACE(name);
    Analysis a = AnalyzeFile(RealTrace(name));
    EXPECT_EQ(a.trace.diagnostics.Count(trace::kMisnestedLeave), 1u);
    EXPECT_EQ(a.trace.diagnostics.Count(trace::kUnmatchedLeave), 1u);
    EXPECT_GT(a.trace.diagnostics.Count(trace::kMeasurementGap), 0u);
    uint32_t ranks = a.trace.location_count();
    EXPECT_EQ(a.report.matching.messages, 16u * ranks);  // 8 sends per iteration, 2 iterations
    EXPECT_EQ(a.report.matching.unmatched_sends + a.report.matching.unmatched_receives, 0u);
    EXPECT_GT(a.Total("mpi_latesender"), 0.0);
  }
}

TEST(RealTracesTest, CasitaGpuTracesAreAnalysedWithTheirAcceleratorLocations) {
  // Scalasca refuses these (non-CPU locations). Their CUDA streams carry CUDA time; their MPI
  // ranks still get the MPI analysis.
  Analysis jacobi = AnalyzeFile(RealTrace("2_jacobi_blame_cpu_015"));
  EXPECT_EQ(jacobi.trace.location_count(), 10u);
  EXPECT_EQ(jacobi.report.matching.messages, 2000u);
  EXPECT_GT(jacobi.Total("cuda_time"), 0.0);
  EXPECT_EQ(jacobi.Total("bytes_put"), 0.0);  // CUDA copies are not MPI one-sided transfers
  Analysis clover = AnalyzeFile(RealTrace("2_cloverleaf_oaccregions_cudafull"));
  EXPECT_EQ(clover.report.matching.messages, 302u);
  EXPECT_EQ(clover.report.matching.unmatched_sends + clover.report.matching.unmatched_receives, 0u);
}

}  // namespace
}  // namespace cw::test
