#include "cli/trace_outcome.h"

#include <cstdint>
#include <cstdio>

namespace cw::cli {

void PrintTraceWritten(const measure::ExportSummary& s, const std::optional<CommandRun>& run,
                       double export_seconds, double export_before_end) {
  std::fprintf(stderr, "Trace written to %s\n", s.anchor.c_str());
  std::fprintf(stderr, "  %u ranks, %llu events, %.1f MB recorded; ", s.ranks,
               static_cast<unsigned long long>(s.events), static_cast<double>(s.raw_bytes) / 1e6);
  if (run) {
    std::fprintf(stderr, "the command ran %.3f s (exit status %d); ", run->seconds,
                 run->exit_status);
  }
  std::fprintf(stderr, "writing OTF2 took %.3f s", export_seconds);
  if (export_before_end > 0) {
    std::fprintf(stderr, ", %.3f s of it while the command was ending", export_before_end);
  }
  std::fprintf(stderr, "\n");
  const double flush_s = static_cast<double>(s.flush_nanoseconds) * 1e-9;
  std::fprintf(stderr, "  %llu buffer flushes took %.3f s in all ranks together",
               static_cast<unsigned long long>(s.flushes), flush_s);
  if (run && s.ranks > 0 && run->seconds > 0) {
    std::fprintf(stderr, " (%.2f%% of the run per rank)", 100.0 * flush_s / s.ranks / run->seconds);
  }
  std::fprintf(stderr, "\n");
  if (s.walks > 0) {
    std::fprintf(stderr, "  %llu stack walks at calls, %.0f ns each\n",
                 static_cast<unsigned long long>(s.walks),
                 static_cast<double>(s.walk_nanoseconds) / static_cast<double>(s.walks));
  }
  if (s.samples > 0) {
    std::fprintf(stderr, "  %llu stack samples of the computation, %.1f us each",
                 static_cast<unsigned long long>(s.samples),
                 static_cast<double>(s.sample_nanoseconds) * 1e-3 / static_cast<double>(s.samples));
    if (s.lost_samples > 0) {
      std::fprintf(stderr,
                   " (%llu dropped: a computation between two calls took more samples "
                   "than a thread buffers; its time went to the samples kept)",
                   static_cast<unsigned long long>(s.lost_samples));
    }
    if (s.samples_inside_regions > 0) {
      std::fprintf(stderr,
                   " (%llu walks inside user regions and instrumented functions left out: "
                   "the region is the call path there)",
                   static_cast<unsigned long long>(s.samples_inside_regions));
    }
    std::fprintf(stderr, "\n");
  }
  for (const measure::RankEnding& e : s.endings) {
    std::fprintf(stderr, "  rank %d ended early (%s): its events up to then are in the trace\n",
                 e.rank, e.how.c_str());
  }
  // What the export met and did, each a count and what it counts.
  const struct {
    uint64_t count;
    const char* what;
  } counted[] = {
      {s.closed_regions,
       "regions left open by ranks that ended early were closed at their last event"},
      {s.truncated_bytes, "bytes of a record cut short by a crash were dropped"},
      {s.unrecorded_calls,
       "MPI calls from threads other than the one that initialised MPI were not recorded"},
      {s.reused_thread_slots,
       "threads began calling MPI after another thread of their rank had ended, and were "
       "recorded in its location"},
      {s.unbalanced_regions,
       "user-region ends did not match the innermost open region (ignored) or regions were "
       "still open at MPI_Finalize (closed there)"},
      {s.invalid_records, "damaged records (unknown kind or region) were left out"},
      {s.openmp_serial_teams,
       "OpenMP parallel regions had a team of one thread and were not recorded (nothing in "
       "them waits for another thread; their time is their caller's; --openmp-serial record "
       "records them)"},
      {s.openmp_solo_locks,
       "OpenMP lock acquisitions (critical sections, omp_set_lock) were not recorded while "
       "their process had one OpenMP thread (none can wait; --openmp-serial record records "
       "them)"},
  };
  for (const auto& c : counted) {
    if (c.count > 0) {
      std::fprintf(stderr, "  %llu %s\n", static_cast<unsigned long long>(c.count), c.what);
    }
  }
  for (const std::string& problem : s.problems)
    std::fprintf(stderr, "  problem: %s\n", problem.c_str());
  if (s.lost)
    std::fprintf(stderr, "  WARNING: a rank could not write its buffer: events were lost\n");
}

}  // namespace cw::cli
