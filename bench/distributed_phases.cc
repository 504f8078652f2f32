// The distributed phases of an MPI analysis job, timed: `mpirun -np K distributed-phases TRACE`.
// Each rank reads the locations it owns, matches and finds the wait states of its share; rank 0
// prints per phase the slowest rank's wall time, the bytes the ranks exchanged (against the size
// of the trace's files), and every rank's peak memory. bench/run_scaling_benchmark.sh runs it for
// K = 1, 2, 4 and docs/performance.md records the figures.
#include <sys/resource.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include "analysis/waitstates/waitstate_analysis.h"
#include "comm/mpi_communicator.h"
#include "comm/wire.h"
#include "distributed/read.h"
#include "match/matcher.h"

namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

uint64_t TraceBytes(const std::string& anchor) {
  uint64_t bytes = 0;
  fs::path dir = fs::path(anchor).parent_path();
  for (const fs::directory_entry& e : fs::recursive_directory_iterator(dir)) {
    if (e.is_regular_file()) bytes += e.file_size();
  }
  return bytes;
}

uint64_t PeakRssKib() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return static_cast<uint64_t>(usage.ru_maxrss);
}

int Run(const std::string& path, unsigned threads, cw::comm::Communicator& comm) {
  using cw::comm::ReduceOp;
  cw::Diagnostics diagnostics;
  cw::Result<cw::trace::Definitions> defs = cw::otf2::ReadDefinitions(path, diagnostics);
  if (!defs) {
    std::fprintf(stderr, "%s\n", defs.error().message().c_str());
    return 2;
  }
  const cw::trace::Partition partition = cw::trace::PartitionLocations(*defs, comm.size());
  struct Phase {
    const char* name;
    double seconds;
    uint64_t bytes;
  };
  std::vector<Phase> phases;
  auto lap = [&](const char* name, Clock::time_point& since, uint64_t& bytes_since) {
    double mine = std::chrono::duration<double>(Clock::now() - since).count();
    double slowest =
        static_cast<double>(comm.AllReduce(static_cast<uint64_t>(mine * 1e6), ReduceOp::kMax)) /
        1e6;
    uint64_t bytes = comm.AllReduce(comm.traffic().bytes_sent - bytes_since, ReduceOp::kSum);
    phases.push_back(Phase{name, slowest, bytes});
    since = Clock::now();
    bytes_since = comm.traffic().bytes_sent;
  };
  Clock::time_point since = Clock::now();
  uint64_t bytes_since = comm.traffic().bytes_sent;

  cw::otf2::ReadOptions options;
  options.threads = threads;
  cw::Result<cw::trace::Trace> trace =
      cw::distributed::ReadOwnedLocations(path, options, partition, comm);
  if (!trace) {
    std::fprintf(stderr, "%s\n", trace.error().message().c_str());
    return 2;
  }
  lap("read", since, bytes_since);
  const cw::match::SyncGraph graph =
      cw::match::MatchOwnedLocations(*trace, partition, comm, threads);
  lap("match", since, bytes_since);
  cw::analysis::WaitStateOptions wait_options;
  wait_options.threads = threads;
  wait_options.comm = &comm;
  wait_options.partition = &partition;
  const cw::analysis::WaitStateResult result =
      cw::analysis::AnalyzeWaitStates(*trace, graph, wait_options);
  lap("wait states", since, bytes_since);

  std::vector<uint64_t> peaks;
  cw::comm::ByteWriter out;
  out.Put(PeakRssKib());
  for (const cw::comm::Bytes& b : comm.Gather(out.Take(), 0)) {
    cw::comm::ByteReader in(b);
    peaks.push_back(in.Get<uint64_t>());
  }
  if (comm.rank() != 0) return 0;
  const uint64_t trace_bytes = TraceBytes(trace->path);
  uint64_t events = 0;
  for (const cw::trace::Location& loc : trace->defs.locations) events += loc.event_count;
  std::printf("trace %s: %llu events in %zu locations, %.1f MiB of files; %u ranks x %u threads\n",
              path.c_str(), static_cast<unsigned long long>(events), trace->defs.locations.size(),
              static_cast<double>(trace_bytes) / 1048576.0, comm.size(), threads);
  for (const Phase& p : phases) {
    std::printf("  %-12s %8.3f s  exchanged %10llu bytes (%.3f%% of the trace)\n", p.name,
                p.seconds, static_cast<unsigned long long>(p.bytes),
                100.0 * static_cast<double>(p.bytes) / static_cast<double>(trace_bytes));
  }
  std::printf("  peak memory per rank (MiB):");
  for (uint64_t kib : peaks) std::printf(" %.0f", static_cast<double>(kib) / 1024.0);
  std::printf("\n");
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: distributed-phases TRACE [THREADS]\n");
    return 1;
  }
  auto session = cw::comm::MpiSession::Start();
  if (!session) {
    std::fprintf(stderr, "%s\n", session.error().message().c_str());
    return 2;
  }
  const unsigned threads = argc > 2 ? static_cast<unsigned>(std::stoul(argv[2])) : 1;
  return Run(argv[1], threads, (*session)->world());
}
