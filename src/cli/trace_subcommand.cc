// `causeway trace -o DIR -- COMMAND...`: runs an MPI or OpenSHMEM program under
// libcauseway-mpi.so and writes its OTF2 trace.
//
// The library is preloaded into every rank through LD_PRELOAD (mpirun passes its environment
// to the ranks it starts), records into DIR/raw/, and leaves the OTF2 export to this command,
// which runs it after the program ended, however it ended: ranks that crashed, aborted or were
// killed still contribute everything they flushed.
//
// With --tag, libcauseway-tag.so is preloaded instead: no trace, each rank's task activity
// graph in DIR/tag/rank-<r>.seg (measure/tag_runtime), snapshots of them every --tag-interval
// (taken by this process while the command runs), and the graphs' report in DIR at the end.
#include <unistd.h>

#include <fnmatch.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <functional>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "base/parallel.h"
#include "base/units.h"
#include "cli/command_runner.h"
#include "cli/openmp_runtime.h"
#include "cli/subcommand.h"
#include "cli/tag_report.h"
#include "cli/trace_outcome.h"
#include "measure/export/early_export.h"
#include "measure/export/raw_export.h"
#include "measure/raw/mpi_groups.h"
#include "measure/raw/raw_format.h"
#include "measure/raw/tracer_defaults.h"
#include "tag/online/online_graphs.h"
#include "tag/online/snapshots.h"

namespace cw::cli {
namespace {

namespace fs = std::filesystem;

// A library of causeway's beside this executable: build/bin -> build/lib, PREFIX/bin ->
// PREFIX/lib.
Result<std::string> FindLibrary(const std::string& name) {
  std::error_code ec;
  fs::path self = fs::read_symlink("/proc/self/exe", ec);
  if (!ec) {
    fs::path candidate = self.parent_path().parent_path() / "lib" / name;
    if (fs::exists(candidate, ec)) return candidate.string();
  }
  return MakeError(ErrorCode::kNotFound,
                   name + " not found beside the causeway executable (expected in " +
                       (self.parent_path().parent_path() / "lib").string() + ")");
}

// The command's environment: `library` preloaded into every process it starts (mpirun passes its
// environment on), before any the user preloads, and the directory it writes to.
void Preload(const std::string& library, const std::string& dir) {
  std::string preload = library;
  if (const char* existing = std::getenv("LD_PRELOAD"); existing != nullptr && *existing)
    preload += std::string(":") + existing;
  setenv("LD_PRELOAD", preload.c_str(), 1);
  setenv("CAUSEWAY_DIR", dir.c_str(), 1);
}

// "10s", "500ms", "2m" or plain seconds; 0 if none.
Result<double> ParseInterval(const std::string& text) {
  if (text.empty()) return 0.0;
  size_t used = 0;
  double value = 0;
  try {
    value = std::stod(text, &used);
  } catch (...) {
    used = 0;
  }
  const std::string unit = text.substr(used);
  const double scale = unit.empty() || unit == "s" ? 1
                       : unit == "ms"              ? 1e-3
                       : unit == "m"               ? 60
                                                   : -1;
  if (used == 0 || scale < 0 || value <= 0) {
    return MakeError(
        ErrorCode::kInvalidArgument,
        "--tag-interval " + text + ": expected a positive duration, e.g. 10s, 500ms, 2m");
  }
  return value * scale;
}

class TraceSubcommand final : public Subcommand {
 public:
  const char* name() const override { return "trace"; }
  const char* description() const override {
    return "Run an MPI or OpenSHMEM program and record its OTF2 trace: causeway trace -o DIR -- "
           "mpirun -np N ./app args (or oshrun ...). Exits with the command's exit status "
           "once the trace is written (128 + N if a signal N ended it); an interrupt (SIGINT, "
           "SIGTERM, SIGHUP) ends the command and writes what was recorded; --finish writes "
           "the trace of a run whose causeway trace was killed";
  }
  int SucceededExitCode() const override { return command_exit_status_; }
  void AddOptions(CLI::App& app) override {
    app.add_option("-o,--output", output_, "trace directory (default: ./causeway-trace)");
    app.add_option("--buffer", buffer_,
                   "event buffer per rank before it is flushed to disk, e.g. 4M (default " +
                       FormatByteCount(measure::kDefaultBufferBytes) + "; or CAUSEWAY_BUFFER)");
    app.add_option("--filter-include", include_,
                   "record only the instrumented functions whose names match one of these "
                   "comma-separated shell patterns (or CAUSEWAY_FILTER_INCLUDE)");
    app.add_option("--filter-exclude", exclude_,
                   "do not record the instrumented functions, MPI functions and OpenSHMEM "
                   "routines whose names match one of these comma-separated shell patterns (or "
                   "CAUSEWAY_FILTER_EXCLUDE); refused if it names an MPI or OpenSHMEM call whose "
                   "records the analysis matches (messages, requests, collectives, one-sided "
                   "operations, communicator and window creation), e.g. MPI_Send or MPI_Test: "
                   "only calls such as MPI_Comm_group or shmem_my_pe may be left out");
    app.add_option("--record", record_,
                   "what to record besides MPI calls: a comma-separated subset of user "
                   "(user regions) and functions (-finstrument-functions); default both, "
                   "'none' for MPI only (or CAUSEWAY_RECORD)");
    app.add_option("--mpi-groups", mpi_groups_,
                   "which of Score-P's MPI groups to record, as SCOREP_MPI_ENABLE_GROUPS names "
                   "them: a comma-separated list of CG, COLL, ENV, ERR, EXT, IO, MISC, P2P, "
                   "PERF, RMA, SPAWN, TOPO, TYPE, DEFAULT and ALL (default DEFAULT: CG, COLL, "
                   "ENV, IO, P2P, RMA, TOPO; or CAUSEWAY_MPI_GROUPS); the calls whose records "
                   "the analysis matches are recorded whatever the groups say");
    app.add_option("--poll-gap", poll_gap_,
                   "polling compaction: a thread's tests and probes that find nothing, one "
                   "after the other with nothing else recorded between them and gaps below "
                   "this, are written as one call that counts all of them (default " +
                       FormatDuration(static_cast<double>(measure::kDefaultPollGapNs) * 1e-9) +
                       "; 0 records every call; or CAUSEWAY_POLL_GAP in nanoseconds)");
    app.add_option("--write-marks", write_marks_,
                   "on (default): before each MPI_Barrier, note in the trace whether the "
                   "process made write system calls since its previous barrier (a file the "
                   "barrier may order: the bottleneck analysis then never calls it redundant; "
                   "one read of /proc/self/io per barrier); off: no notes, and every barrier "
                   "the trace shows no communication before may be called redundant")
        ->check(CLI::IsMember({"on", "off"}));
    app.add_option("--max-size", max_size_,
                   "stop recording once the ranks have written this much, e.g. 20G (each rank "
                   "its share; the trace stays valid and says where each rank stopped; default: "
                   "half the free space of the output's file system, so that the OTF2 archive "
                   "made from the raw files still fits; or CAUSEWAY_MAX_SIZE in bytes)");
    app.add_option("--callpaths", callpaths_,
                   "the call path of each recorded call, from a walk of the stack: none (each "
                   "call under main), calls (the program's functions at every MPI and "
                   "OpenSHMEM call and OpenMP fork) or sampled (also what the program computes "
                   "between calls, "
                   "from a stack sample every --sampling-interval of each thread's CPU time); "
                   "default sampled (or CAUSEWAY_CALLPATHS). Named after the run from the "
                   "files' symbols")
        ->check(CLI::IsMember({"none", "calls", "sampled"}));
    app.add_option("--max-depth", max_depth_,
                   "the innermost frames a walk keeps (default " +
                       std::to_string(measure::kDefaultMaxDepth) + "; or CAUSEWAY_MAX_DEPTH)");
    app.add_option("--fold", fold_,
                   "fold the frames of the modules this shell pattern names (e.g. "
                   "'libopenblas*'; repeatable) into the outermost frame of each run of them: "
                   "the library function the program called stands for what it calls (or "
                   "CAUSEWAY_FOLD, comma-separated)");
    app.add_option("--sampling-interval", sampling_interval_,
                   "CPU time between two samples of a thread's stack with --callpaths sampled "
                   "(default " +
                       FormatDuration(static_cast<double>(measure::kDefaultSamplingNs) * 1e-9) +
                       "; 0: no samples; or CAUSEWAY_SAMPLING_INTERVAL in nanoseconds)");
    app.add_option("--openmp", openmp_,
                   "how OpenMP threads are recorded (through OMPT, each thread a location of "
                   "its rank): auto runs programs built by GCC or gfortran with -fopenmp on "
                   "LLVM's OpenMP runtime, libomp, which records them (clang's programs use it "
                   "already); libomp does so for every command; off records no OpenMP thread "
                   "(default auto)")
        ->check(CLI::IsMember({"auto", "libomp", "off"}));
    app.add_option("--openmp-serial", openmp_serial_,
                   "OpenMP parallel regions whose team has one thread (OMP_NUM_THREADS=1, an "
                   "OpenMP build run as a pure MPI program), constructs outside any parallel "
                   "region and, while a process has one OpenMP thread only, its lock "
                   "acquisitions: skip records none of them (nothing there "
                   "can wait for another thread; their time is their caller's, MPI calls inside "
                   "are recorded; the count is printed), record records them all (default skip)")
        ->check(CLI::IsMember({"skip", "record"}));
    app.add_flag("--keep-raw", keep_raw_, "keep the raw per-rank files after writing OTF2");
    finish_option_ = app.add_flag(
        "--finish", finish_,
        "write the OTF2 trace from the raw files a run left in DIR/raw when `causeway trace` "
        "itself was ended before it wrote them (SIGKILL, a batch system's kill after the time "
        "limit's grace period): no command; the raw files stay if a rank had not finalized");
    app.add_flag("--tag", tag_,
                 "record no trace: build each rank's task activity graph while the program "
                 "runs (DIR/tag/) and write its report to DIR (see causeway tag)");
    app.add_option("--tag-interval", tag_interval_,
                   "with --tag: copy every rank's graph into DIR/tag/snapshots/<k>/ this often, "
                   "e.g. 10s (causeway tag DIR --window A:B shows what happened between two)");
    app.add_option("--tag-region", tag_regions_,
                   "with --tag: user regions that become activities of their own (shell "
                   "wildcards, repeatable), as causeway tag --region does for a trace");
    recursion_option_ =
        app.add_option("--recursion-depth", recursion_depth_,
                       "with --tag: fold call paths on which a function occurs more often than "
                       "this (default 3; 0: never fold)");
    app.add_option("command", command_,
                   "the command to run, usually mpirun ... ./app args or oshrun ... ./app args");
    app.positionals_at_end();
    for (CLI::Option* option : app.get_options()) {
      const std::string& name = option->get_name();
      if (option != finish_option_ && name != "--help" && name != "--output" &&
          name != "--keep-raw") {
        finish_option_->excludes(option);
      }
    }
  }

  Status Run() override {
    if (!tag_ &&
        (!tag_interval_.empty() || !tag_regions_.empty() || recursion_option_->count() > 0)) {
      return MakeError(ErrorCode::kInvalidArgument,
                       "--tag-interval, --tag-region and --recursion-depth need --tag");
    }
    if (finish_) return Finish();
    if (command_.empty()) {
      return MakeError(ErrorCode::kInvalidArgument,
                       "no command to run: causeway trace -o DIR -- mpirun -np N ./app args");
    }
    if (tag_) return RunTag();
    CW_ASSIGN_OR_RETURN(std::string library, FindLibrary("libcauseway-mpi.so"));
    std::error_code ec;
    fs::path dir = fs::absolute(output_, ec);
    fs::create_directories(dir, ec);
    if (ec) return MakeError(ErrorCode::kIo, "cannot create " + dir.string() + ": " + ec.message());
    // A previous run's files would be mixed into this one.
    fs::remove_all(dir / "raw", ec);
    RemoveArchive(dir);

    CW_ASSIGN_OR_RETURN(const std::string openmp_runtime, OpenMpRuntime(openmp_, command_));
    Preload(openmp_runtime.empty() ? library : library + ":" + openmp_runtime, dir.string());
    setenv("CAUSEWAY_OPENMP", openmp_.c_str(), 1);
    setenv("CAUSEWAY_OPENMP_SERIAL", openmp_serial_.c_str(), 1);
    setenv("CAUSEWAY_EXPORT", "launcher", 1);
    if (!buffer_.empty()) setenv("CAUSEWAY_BUFFER", buffer_.c_str(), 1);
    if (!record_.empty()) setenv("CAUSEWAY_RECORD", record_.c_str(), 1);
    if (!include_.empty()) setenv("CAUSEWAY_FILTER_INCLUDE", include_.c_str(), 1);
    if (!exclude_.empty()) {
      CW_RETURN_IF_ERROR(CheckCallFilter(exclude_));
      setenv("CAUSEWAY_FILTER_EXCLUDE", exclude_.c_str(), 1);
    }
    CW_ASSIGN_OR_RETURN(const uint64_t max_size, MaxSize(dir));
    setenv("CAUSEWAY_MAX_SIZE", std::to_string(max_size).c_str(), 1);
    if (!mpi_groups_.empty()) {
      std::string unknown;
      measure::MpiGroups groups(mpi_groups_.c_str(), &unknown);
      if (!unknown.empty()) {
        return MakeError(ErrorCode::kInvalidArgument,
                         "--mpi-groups: no MPI group is called " + unknown +
                             " (CG, COLL, ENV, ERR, EXT, IO, MISC, P2P, PERF, RMA, SPAWN, TOPO, "
                             "TYPE, DEFAULT, ALL)");
      }
      setenv("CAUSEWAY_MPI_GROUPS", mpi_groups_.c_str(), 1);
    }
    if (!poll_gap_.empty()) {
      Result<double> gap = poll_gap_ == "0" ? Result<double>(0.0) : ParseDuration(poll_gap_);
      if (!gap || *gap < 0) {
        return MakeError(ErrorCode::kInvalidArgument,
                         "--poll-gap: not a duration (e.g. 1us, 0): " + poll_gap_);
      }
      setenv("CAUSEWAY_POLL_GAP", std::to_string(std::llround(*gap * 1e9)).c_str(), 1);
    }

    if (write_marks_ == "off") setenv("CAUSEWAY_WRITE_MARKS", "0", 1);
    CW_RETURN_IF_ERROR(SetCallPathOptions());

    WarnAboutOshmemPatcher();
    // The export begins when rank 0 marks the raw files complete, while the command ends.
    measure::EarlyExport early(dir.string());
    const auto start = std::chrono::steady_clock::now();
    CW_ASSIGN_OR_RETURN(CommandEnd end, RunTracedCommand(command_, 0, nullptr));
    const int exit_status = end.exit_status;
    command_exit_status_ = exit_status;
    SayInterrupted(end);
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    unsetenv("LD_PRELOAD");
    std::optional<measure::EarlyExport::Outcome> exported = early.Finish();

    if (!exported && !measure::HasRawTrace(dir.string())) {
      fs::remove(dir / "raw", ec);  // the early export's watch created it; empty
      return MakeError(ErrorCode::kNotFound,
                       "the command recorded nothing (did it start MPI or OpenSHMEM programs? "
                       "exit status " +
                           std::to_string(exit_status) + ")");
    }
    if (!exported) {
      // No mark (a rank ended early), or the raw files changed after the export had begun.
      CW_ASSIGN_OR_RETURN(exported, ExportAfterTheRun(dir));
    }
    const measure::ExportSummary& summary = exported->summary;
    PrintTraceWritten(summary, CommandRun{seconds, exit_status}, exported->seconds,
                      exported->before_end_seconds);
    if (!keep_raw_ && !summary.lost) fs::remove_all(dir / "raw", ec);
    return OkStatus();
  }

 private:
  // Removes an OTF2 archive written to DIR before (a previous run's, or an early export refused).
  static void RemoveArchive(const fs::path& dir) {
    std::error_code ec;
    for (const char* file : {"traces.otf2", "traces.def"}) fs::remove(dir / file, ec);
    fs::remove_all(dir / "traces", ec);
  }

  // Writes DIR/raw as OTF2 once the command has ended (an archive there before is removed), and
  // how long that took.
  static Result<measure::EarlyExport::Outcome> ExportAfterTheRun(const fs::path& dir) {
    RemoveArchive(dir);
    const auto begin = std::chrono::steady_clock::now();
    CW_ASSIGN_OR_RETURN(measure::ExportSummary summary, measure::ExportRawTrace(dir.string()));
    return measure::EarlyExport::Outcome{
        std::move(summary),
        std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count(), 0.0};
  }

  // --finish: the trace of a run whose `causeway trace` was ended before it wrote it. A rank
  // that had not finalized may still be running (its launcher outlived this command's first
  // run): its raw files are kept, so that --finish can be run again once it has ended.
  Status Finish() {
    std::error_code ec;
    const fs::path dir = fs::absolute(output_, ec);
    if (!measure::HasRawTrace(dir.string())) {
      return MakeError(ErrorCode::kNotFound,
                       dir.string() +
                           "/raw holds no raw files of a traced run (causeway trace "
                           "removes them once it has written the trace)");
    }
    CW_ASSIGN_OR_RETURN(const measure::EarlyExport::Outcome exported, ExportAfterTheRun(dir));
    const measure::ExportSummary& summary = exported.summary;
    PrintTraceWritten(summary, std::nullopt, exported.seconds, 0.0);
    if (!summary.endings.empty()) {
      std::fprintf(stderr,
                   "  the raw files stay in %s/raw: if the program still runs, run causeway trace "
                   "--finish again once it has ended\n",
                   dir.c_str());
    } else if (!keep_raw_ && !summary.lost) {
      fs::remove_all(dir / "raw", ec);
    }
    return OkStatus();
  }

  // --callpaths, --max-depth, --fold and --sampling-interval, as the environment the library
  // reads.
  Status SetCallPathOptions() {
    if (!callpaths_.empty()) setenv("CAUSEWAY_CALLPATHS", callpaths_.c_str(), 1);
    if (!fold_.empty()) {
      std::string patterns;
      for (const std::string& p : fold_) {
        if (p.find(',') != std::string::npos || p.find('\n') != std::string::npos) {
          return MakeError(ErrorCode::kInvalidArgument,
                           "--fold: one pattern per option, without commas: " + p);
        }
        patterns += (patterns.empty() ? "" : ",") + p;
      }
      setenv("CAUSEWAY_FOLD", patterns.c_str(), 1);
    }
    if (max_depth_ > 0) setenv("CAUSEWAY_MAX_DEPTH", std::to_string(max_depth_).c_str(), 1);
    if (!sampling_interval_.empty()) {
      Result<double> every =
          sampling_interval_ == "0" ? Result<double>(0.0) : ParseDuration(sampling_interval_);
      if (!every || *every < 0) {
        return MakeError(
            ErrorCode::kInvalidArgument,
            "--sampling-interval: not a duration (e.g. 2ms, 0): " + sampling_interval_);
      }
      setenv("CAUSEWAY_SAMPLING_INTERVAL", std::to_string(std::llround(*every * 1e9)).c_str(), 1);
    }
    return OkStatus();
  }

  // --tag: the graphs instead of a trace.
  Status RunTag() {
    CW_ASSIGN_OR_RETURN(std::string library, FindLibrary("libcauseway-tag.so"));
    CW_ASSIGN_OR_RETURN(double interval, ParseInterval(tag_interval_));
    std::error_code ec;
    fs::path dir = fs::absolute(output_ == "causeway-trace" ? "causeway-tag" : output_, ec);
    fs::create_directories(dir, ec);
    if (ec) return MakeError(ErrorCode::kIo, "cannot create " + dir.string() + ": " + ec.message());
    fs::remove_all(dir / "tag", ec);  // a previous run's ranks would be mixed into this one
    Preload(library, dir.string());
    setenv("CAUSEWAY_TAG_RECURSION_DEPTH", std::to_string(recursion_depth_).c_str(), 1);
    std::string regions;
    for (const std::string& r : tag_regions_) regions += (regions.empty() ? "" : ",") + r;
    if (!regions.empty()) setenv("CAUSEWAY_TAG_REGIONS", regions.c_str(), 1);

    const std::string tag_dir = (dir / "tag").string();
    int snapshots = 0;
    const auto start = std::chrono::steady_clock::now();
    CW_ASSIGN_OR_RETURN(CommandEnd end, RunTracedCommand(command_, interval, [&](double seconds) {
                          const tag::SnapshotSummary s =
                              tag::TakeSnapshot(tag_dir, snapshots + 1, seconds);
                          if (s.copied > 0) ++snapshots;
                          if (s.busy > 0) {
                            std::fprintf(stderr,
                                         "causeway trace: snapshot %d: %d ranks changed their "
                                         "graphs through every attempt and are missing\n",
                                         snapshots + (s.copied > 0 ? 0 : 1), s.busy);
                          }
                        }));
    const int exit_status = end.exit_status;
    command_exit_status_ = exit_status;
    SayInterrupted(end);
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    unsetenv("LD_PRELOAD");
    if (!tag::IsOnlineRun(dir.string())) {
      return MakeError(ErrorCode::kNotFound,
                       "the command recorded no graph (did it start MPI programs? exit status " +
                           std::to_string(exit_status) + ")");
    }
    tag::TagDocument doc;
    CW_RETURN_IF_ERROR(
        LoadOnlineRun(dir.string(), "", recursion_depth_, DefaultThreadCount(), doc));
    std::fprintf(stderr,
                 "Task activity graphs of %zu ranks recorded in %s/tag/; the command ran %.3f s "
                 "(exit status %d)%s\n",
                 doc.processes.size(), dir.c_str(), seconds, exit_status,
                 snapshots > 0 ? (", " + std::to_string(snapshots) + " snapshots").c_str() : "");
    return WriteTagReport(doc, dir.string(), true, stderr);
  }

  // The MPI functions and OpenSHMEM routines `patterns` (comma-separated shell patterns) name
  // that cannot be left out: the analysis matches their records.
  static Status CheckCallFilter(const std::string& patterns) {
    std::vector<std::string> refused;
    auto check = [&](const char* name, bool filterable) {
      if (filterable) return;
      std::stringstream in(patterns);
      std::string pattern;
      while (std::getline(in, pattern, ',')) {
        if (!pattern.empty() && fnmatch(pattern.c_str(), name, 0) == 0) {
          refused.emplace_back(name);
          return;
        }
      }
    };
    for (const measure::MpiFunctionInfo& f : measure::kMpiFunctions) check(f.name, f.filterable);
    for (const measure::ShmemFunctionInfo& f : measure::kShmemFunctions)
      check(f.name, f.filterable);
    if (refused.empty()) return OkStatus();
    std::string names;
    for (size_t i = 0; i < refused.size() && i < 8; ++i) names += (i ? ", " : "") + refused[i];
    if (refused.size() > 8) names += " and " + std::to_string(refused.size() - 8) + " more";
    return MakeError(ErrorCode::kInvalidArgument,
                     "--filter-exclude " + patterns + " names " + names +
                         ": their records carry messages, requests, collectives, one-sided "
                         "operations or the creation of communicators and windows, which the "
                         "analysis must match; only calls without them (MPI_Comm_group, "
                         "MPI_Group_free, shmem_my_pe, ...) can be left out");
  }

  // --max-size, or half the free space of the file system `dir` is on.
  Result<uint64_t> MaxSize(const fs::path& dir) const {
    if (!max_size_.empty()) {
      Result<uint64_t> bytes = ParseByteCount(max_size_);
      if (!bytes || *bytes == 0) {
        return MakeError(ErrorCode::kInvalidArgument,
                         "--max-size: not a size (e.g. 500M, 20G): " + max_size_);
      }
      return *bytes;
    }
    if (const char* env = std::getenv("CAUSEWAY_MAX_SIZE"); env != nullptr && *env != '\0') {
      return std::strtoull(env, nullptr, 10);
    }
    std::error_code ec;
    const fs::space_info space = fs::space(dir, ec);
    if (ec || space.available == 0) return uint64_t{0};  // unknown: no limit
    return static_cast<uint64_t>(space.available / 2);
  }

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

  // A run a signal interrupted is written as far as it went; the user is told so at once, since
  // writing it may take a while.
  static void SayInterrupted(const CommandEnd& end) {
    if (end.stop_signal == 0) return;
    std::fprintf(stderr,
                 "causeway trace: interrupted (signal %d); the command ended with exit status %d; "
                 "writing what was recorded (interrupt again to abandon it)\n",
                 end.stop_signal, end.exit_status);
  }

  std::string output_ = "causeway-trace";
  std::string buffer_;
  std::string poll_gap_;
  std::string write_marks_ = "on";
  std::string callpaths_;
  uint32_t max_depth_ = 0;
  std::vector<std::string> fold_;
  std::string sampling_interval_;
  std::string mpi_groups_;
  std::string max_size_;
  std::string record_;
  CLI::Option* recursion_option_ = nullptr;
  std::string include_;
  std::string exclude_;
  bool keep_raw_ = false;
  bool finish_ = false;
  CLI::Option* finish_option_ = nullptr;
  std::string openmp_ = "auto";
  std::string openmp_serial_ = "skip";
  int command_exit_status_ = 0;  // the traced command's, passed on once the trace is written
  bool tag_ = false;
  std::string tag_interval_;
  std::vector<std::string> tag_regions_;
  uint32_t recursion_depth_ = 3;
  std::vector<std::string> command_;
};

}  // namespace

std::unique_ptr<Subcommand> MakeTraceSubcommand() { return std::make_unique<TraceSubcommand>(); }

}  // namespace cw::cli
