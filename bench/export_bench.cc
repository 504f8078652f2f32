// The tracer's export of a run's raw files as OTF2 (bench/run_export_benchmark.sh): on one
// thread and on THREADS, alternating, RUNS times each, each run on a fresh copy of the raw
// files (the page cache holds them, as after a traced run).
//
//   export-bench RUN_DIR [RUNS] [THREADS]     RUN_DIR: `causeway trace --keep-raw -o RUN_DIR`
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "base/parallel.h"
#include "measure/export/raw_export.h"

namespace {

namespace fs = std::filesystem;

// Exports a copy of `run`'s raw files on `threads` threads: seconds, or a negative number on
// failure. Sets `events`.
double TimedExport(const fs::path& run, const fs::path& scratch, unsigned threads,
                   uint64_t& events) {
  fs::remove_all(scratch);
  fs::create_directories(scratch);
  fs::copy(run / "raw", scratch / "raw", fs::copy_options::recursive);
  const auto start = std::chrono::steady_clock::now();
  const cw::Result<cw::measure::ExportSummary> summary =
      cw::measure::ExportRawTrace(scratch.string(), threads);
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  fs::remove_all(scratch);
  if (!summary.has_value()) {
    std::fprintf(stderr, "export-bench: %s\n", summary.error().message().c_str());
    return -1;
  }
  events = summary->events;
  return seconds;
}

double Median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[(v.size() - 1) / 2];
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: export-bench RUN_DIR [RUNS] [THREADS]\n");
    return 2;
  }
  const fs::path run = argv[1];
  const int runs = argc > 2 ? std::max(1, std::atoi(argv[2])) : 5;
  const unsigned threads =
      argc > 3 ? static_cast<unsigned>(std::max(1, std::atoi(argv[3]))) : cw::DefaultThreadCount();
  if (threads < 2) {
    std::fprintf(stderr, "export-bench: one CPU only: nothing to compare one thread with\n");
    return 2;
  }
  const fs::path scratch = fs::temp_directory_path() / "causeway-export-bench";
  std::vector<double> one, many;
  uint64_t events = 0;
  for (int i = 0; i < runs; ++i) {
    for (unsigned t : {1u, threads}) {
      const double s = TimedExport(run, scratch, t, events);
      if (s < 0) return 1;
      (t == 1 ? one : many).push_back(s);
    }
  }
  std::printf("export of %llu events; fastest (median) of %d runs\n",
              static_cast<unsigned long long>(events), runs);
  std::printf("  1 thread    %6.3f s (%.3f), %.0f ns per event\n",
              *std::min_element(one.begin(), one.end()), Median(one),
              1e9 * *std::min_element(one.begin(), one.end()) / static_cast<double>(events));
  std::printf(
      "  %u threads   %6.3f s (%.3f), %.2f times as fast (median %.2f)\n", threads,
      *std::min_element(many.begin(), many.end()), Median(many),
      *std::min_element(one.begin(), one.end()) / *std::min_element(many.begin(), many.end()),
      Median(one) / Median(many));
  return 0;
}
