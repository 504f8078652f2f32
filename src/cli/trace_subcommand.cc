// `causeway trace -o DIR -- COMMAND...`: runs an MPI or OpenSHMEM program under
// libcauseway-mpi.so and writes its OTF2 trace.
//
// The library is preloaded into every rank through LD_PRELOAD (mpirun passes its environment
// to the ranks it starts), records into DIR/raw/, and leaves the OTF2 export to this command,
// which runs it after the program ended, however it ended: ranks that crashed, aborted or were
// killed still contribute everything they flushed.
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "cli/subcommand.h"
#include "measure/export/raw_export.h"

namespace cw::cli {
namespace {

namespace fs = std::filesystem;

// libcauseway-mpi.so beside this executable: build/bin -> build/lib, PREFIX/bin -> PREFIX/lib.
Result<std::string> FindLibrary() {
  std::error_code ec;
  fs::path self = fs::read_symlink("/proc/self/exe", ec);
  if (!ec) {
    fs::path candidate = self.parent_path().parent_path() / "lib" / "libcauseway-mpi.so";
    if (fs::exists(candidate, ec)) return candidate.string();
  }
  return MakeError(ErrorCode::kNotFound,
                   "libcauseway-mpi.so not found beside the causeway executable (expected in " +
                       (self.parent_path().parent_path() / "lib").string() + ")");
}

class TraceSubcommand final : public Subcommand {
 public:
  const char* name() const override { return "trace"; }
  const char* description() const override {
    return "Run an MPI or OpenSHMEM program and record its OTF2 trace: causeway trace -o DIR -- "
           "mpirun -np N ./app args (or oshrun ...)";
  }
  void AddOptions(CLI::App& app) override {
    app.add_option("-o,--output", output_, "trace directory (default: ./causeway-trace)");
    app.add_option("--buffer", buffer_,
                   "event buffer per rank before it is flushed to disk, e.g. 4M (default 1M; "
                   "or CAUSEWAY_BUFFER)");
    app.add_option("--filter-include", include_,
                   "record only the instrumented functions whose names match one of these "
                   "comma-separated shell patterns (or CAUSEWAY_FILTER_INCLUDE)");
    app.add_option("--filter-exclude", exclude_,
                   "do not record the instrumented functions whose names match one of these "
                   "comma-separated shell patterns (or CAUSEWAY_FILTER_EXCLUDE)");
    app.add_option("--record", record_,
                   "what to record besides MPI calls: a comma-separated subset of user "
                   "(user regions) and functions (-finstrument-functions); default both, "
                   "'none' for MPI only (or CAUSEWAY_RECORD)");
    app.add_flag("--keep-raw", keep_raw_, "keep the raw per-rank files after writing OTF2");
    app.add_option("command", command_,
                   "the command to run, usually mpirun ... ./app args or oshrun ... ./app args")
        ->required();
    app.positionals_at_end();
  }

  Status Run() override {
    CW_ASSIGN_OR_RETURN(std::string library, FindLibrary());
    std::error_code ec;
    fs::path dir = fs::absolute(output_, ec);
    fs::create_directories(dir, ec);
    if (ec) return MakeError(ErrorCode::kIo, "cannot create " + dir.string() + ": " + ec.message());
    // A previous run's files would be mixed into this one.
    fs::remove_all(dir / "raw", ec);
    for (const char* stale : {"traces.otf2", "traces.def"}) fs::remove(dir / stale, ec);
    fs::remove_all(dir / "traces", ec);

    std::string preload = library;
    if (const char* existing = std::getenv("LD_PRELOAD"); existing != nullptr && *existing)
      preload += std::string(":") + existing;
    setenv("LD_PRELOAD", preload.c_str(), 1);
    setenv("CAUSEWAY_DIR", dir.c_str(), 1);
    setenv("CAUSEWAY_EXPORT", "launcher", 1);
    if (!buffer_.empty()) setenv("CAUSEWAY_BUFFER", buffer_.c_str(), 1);
    if (!record_.empty()) setenv("CAUSEWAY_RECORD", record_.c_str(), 1);
    if (!include_.empty()) setenv("CAUSEWAY_FILTER_INCLUDE", include_.c_str(), 1);
    if (!exclude_.empty()) setenv("CAUSEWAY_FILTER_EXCLUDE", exclude_.c_str(), 1);

    WarnAboutOshmemPatcher();
    const auto start = std::chrono::steady_clock::now();
    CW_ASSIGN_OR_RETURN(int exit_status, RunCommand());
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    unsetenv("LD_PRELOAD");

    if (!measure::HasRawTrace(dir.string())) {
      return MakeError(ErrorCode::kNotFound,
                       "the command recorded nothing (did it start MPI or OpenSHMEM programs? "
                       "exit status " +
                           std::to_string(exit_status) + ")");
    }
    CW_ASSIGN_OR_RETURN(measure::ExportSummary summary, measure::ExportRawTrace(dir.string()));
    Print(summary, seconds, exit_status);
    if (!keep_raw_ && !summary.lost) fs::remove_all(dir / "raw", ec);
    return OkStatus();
  }

 private:
  // Open MPI 4.1's oshmem crashes inside shmem_finalize while its memory patcher is on (Debian
  // 12's does): the user hears how to avoid it before the run rather than after a crash.
  void WarnAboutOshmemPatcher() const {
    if (std::getenv("OMPI_MCA_memory") != nullptr) return;
    for (const std::string& arg : command_) {
      if (fs::path(arg).filename() == "oshrun") {
        std::fprintf(stderr,
                     "causeway trace: note: Open MPI's oshmem may crash in shmem_finalize unless "
                     "its memory patcher is off: if it does, run with OMPI_MCA_memory=^patcher\n");
        return;
      }
    }
  }

  // Runs the command with this process's environment; its exit status (128 + signal if killed).
  Result<int> RunCommand() {
    std::vector<char*> argv;
    for (std::string& arg : command_) argv.push_back(arg.data());
    argv.push_back(nullptr);
    std::fflush(nullptr);
    pid_t child = fork();
    if (child < 0) return MakeError(ErrorCode::kIo, "cannot start " + command_[0]);
    if (child == 0) {
      execvp(argv[0], argv.data());
      std::fprintf(stderr, "causeway trace: cannot run %s\n", argv[0]);
      _exit(127);
    }
    int status = 0;
    while (waitpid(child, &status, 0) < 0) {
    }
    if (WIFEXITED(status)) return WEXITSTATUS(status);
    if (WIFSIGNALED(status)) return 128 + WTERMSIG(status);
    return 1;
  }

  static void Print(const measure::ExportSummary& s, double seconds, int exit_status) {
    std::printf("Trace written to %s\n", s.anchor.c_str());
    std::printf(
        "  %u ranks, %llu events, %.1f MB recorded; the command ran %.3f s (exit status %d)\n",
        s.ranks, static_cast<unsigned long long>(s.events), static_cast<double>(s.raw_bytes) / 1e6,
        seconds, exit_status);
    const double flush_s = static_cast<double>(s.flush_nanoseconds) * 1e-9;
    std::printf(
        "  %llu buffer flushes took %.3f s in all ranks together (%.2f%% of the run per rank)\n",
        static_cast<unsigned long long>(s.flushes), flush_s,
        s.ranks > 0 && seconds > 0 ? 100.0 * flush_s / s.ranks / seconds : 0.0);
    for (const measure::RankEnding& e : s.endings) {
      std::printf("  rank %d ended early (%s): its events up to then are in the trace\n", e.rank,
                  e.how.c_str());
    }
    if (s.closed_regions > 0) {
      std::printf(
          "  %llu regions left open by ranks that ended early were closed at their last event\n",
          static_cast<unsigned long long>(s.closed_regions));
    }
    if (s.truncated_bytes > 0) {
      std::printf("  %llu bytes of a record cut short by a crash were dropped\n",
                  static_cast<unsigned long long>(s.truncated_bytes));
    }
    if (s.unrecorded_calls > 0) {
      std::printf(
          "  %llu MPI calls from threads other than the one that initialised MPI were not "
          "recorded\n",
          static_cast<unsigned long long>(s.unrecorded_calls));
    }
    if (s.unbalanced_regions > 0) {
      std::printf(
          "  %llu user-region ends did not match the innermost open region (ignored) or "
          "regions were still open at MPI_Finalize (closed there)\n",
          static_cast<unsigned long long>(s.unbalanced_regions));
    }
    if (s.invalid_records > 0) {
      std::printf("  %llu damaged records (unknown kind or region) were left out\n",
                  static_cast<unsigned long long>(s.invalid_records));
    }
    for (const std::string& problem : s.problems) std::printf("  problem: %s\n", problem.c_str());
    if (s.lost) std::printf("  WARNING: a rank could not write its buffer: events were lost\n");
  }

  std::string output_ = "causeway-trace";
  std::string buffer_;
  std::string record_;
  std::string include_;
  std::string exclude_;
  bool keep_raw_ = false;
  std::vector<std::string> command_;
};

}  // namespace

std::unique_ptr<Subcommand> MakeTraceSubcommand() { return std::make_unique<TraceSubcommand>(); }

}  // namespace cw::cli
