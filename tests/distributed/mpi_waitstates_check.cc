// The distributed phases built so far (reading the owned locations, matching, wait states) over
// real MPI, run by ctest with `mpirun -np K` for K = 1..4 on every real trace (ranks beyond a
// trace's location count own nothing and still take part). Every rank also analyses the whole
// trace alone and compares every value of its own locations; the job fails on any difference.
#include <cstdio>
#include <string>

#include "analysis/waitstates/waitstate_analysis.h"
#include "comm/mpi_communicator.h"
#include "job_read/owned_locations.h"
#include "match/matcher.h"
#include "tests/common/paths.h"

namespace cw::job_read {
namespace {

// Differences between this rank's values and one process's, for its locations.
uint64_t CheckTrace(const std::string& anchor, comm::Communicator& comm) {
  otf2::ReadOptions options;
  options.allow_partial = true;
  options.threads = 1;
  Result<trace::Trace> whole = otf2::ReadTrace(anchor, options);
  if (!whole) return 1;
  const match::SyncGraph whole_graph = match::MatchTrace(*whole, 1);
  const analysis::WaitStateResult expected =
      analysis::AnalyzeWaitStates(*whole, whole_graph, analysis::WaitStateOptions{});

  const trace::Partition partition = trace::PartitionLocations(whole->defs, comm.size());
  Result<trace::Trace> mine = ReadOwnedLocations(anchor, options, partition, comm);
  if (!mine) {
    std::fprintf(stderr, "%s: %s\n", anchor.c_str(), mine.error().message().c_str());
    return 1;
  }
  const uint64_t bytes_before = comm.traffic().bytes_sent;
  const match::SyncGraph graph = match::MatchOwnedLocations(*mine, partition, comm, 1);
  analysis::WaitStateOptions wait_options;
  wait_options.sync_edges = false;  // the root-cause analyses do not run across ranks yet
  wait_options.comm = &comm;
  wait_options.partition = &partition;
  const analysis::WaitStateResult result = analysis::AnalyzeWaitStates(*mine, graph, wait_options);
  const uint64_t exchanged =
      comm.AllReduce(comm.traffic().bytes_sent - bytes_before, comm::ReduceOp::kSum);

  uint64_t differences = 0;
  for (uint32_t loc : partition.owned[comm.rank()]) {
    for (int m = 0; m < analysis::kMetricCount; ++m) {
      const auto metric = static_cast<analysis::MetricId>(m);
      for (uint32_t cp = 0; cp < whole->call_tree.size(); ++cp) {
        if (result.severities[loc].Get(metric, cp) != expected.severities[loc].Get(metric, cp)) {
          ++differences;
        }
      }
    }
  }
  const uint64_t total = comm.AllReduce(differences, comm::ReduceOp::kSum);
  if (comm.rank() == 0) {
    std::printf("%-70s %u ranks: %s, %llu bytes exchanged matching and analysing\n", anchor.c_str(),
                comm.size(), total == 0 ? "identical" : "DIFFERENT",
                static_cast<unsigned long long>(exchanged));
  }
  return total;
}

}  // namespace
}  // namespace cw::job_read

int main() {
  auto session = cw::comm::MpiSession::Start();
  if (!session) {
    std::fprintf(stderr, "%s\n", session.error().message().c_str());
    return 2;
  }
  uint64_t failures = 0;
  for (const std::string& name : cw::test::RealTraceNames()) {
    failures += cw::job_read::CheckTrace(cw::test::RealTrace(name), (*session)->world());
  }
  return failures == 0 ? 0 : 1;
}
