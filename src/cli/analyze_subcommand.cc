// `causeway analyze TRACE`: read, match, find the wait states, write the report directory.
#include <atomic>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <optional>

#include "analysis/pipeline/analysis.h"
#include "analysis/pipeline/memory_estimate.h"
#include "base/parallel.h"
#include "base/units.h"
#include "cli/advice_flags.h"
#include "cli/output_directory.h"
#include "cli/progress.h"
#include "cli/subcommand.h"
#include "cli/timeline_output.h"
#include "comm/launch.h"
#include "comm/mpi_communicator.h"
#include "driver/job_analysis.h"
#include "driver/trace_analysis.h"
#include "otf2/trace_reader.h"
#include "report/cube_writer.h"
#include "report/html_report.h"
#include "report/json_writer.h"
#include "report/output_file.h"
#include "report/report.h"
#include "report/text_summary.h"

namespace cw::cli {
namespace {

// Phase times for --timings.
class Stopwatch {
 public:
  explicit Stopwatch(bool enabled) : enabled_(enabled), last_(std::chrono::steady_clock::now()) {}
  void Lap(const char* phase) {
    if (!enabled_) return;
    auto now = std::chrono::steady_clock::now();
    std::fprintf(stderr, "%-12s %8.3f s\n", phase,
                 std::chrono::duration<double>(now - last_).count());
    last_ = now;
  }

 private:
  bool enabled_;
  std::chrono::steady_clock::time_point last_;
};

// A launcher may bind a process to fewer CPUs than it runs threads on (mpirun binds each rank of
// a one- or two-rank job to one core): its worker threads and the ideal-network replay then take
// turns. Says so on standard error, with the options that give it more.
void NoteBinding(const char* who, unsigned threads) {
  const unsigned usable = UsableCpuCount();
  if (usable >= MachineCpuCount() || (threads <= usable && usable > 1)) return;
  std::fprintf(stderr,
               "causeway: %s may run on %u of this machine's %u CPUs (its launcher bound it) but "
               "runs %u thread(s) beside the ideal-network replay; to give it N CPUs: mpirun "
               "--map-by slot:PE=N (or --bind-to none), srun --cpus-per-task=N\n",
               who, usable, MachineCpuCount(), threads);
}

class AnalyzeSubcommand final : public Subcommand {
 public:
  const char* name() const override { return "analyze"; }
  const char* description() const override {
    return "Find the wait states of an OTF2 trace and write a report directory "
           "(summary.txt, report.json, report.cubex, report.html)";
  }

  void AddOptions(CLI::App& app) override {
    app.add_option("trace", trace_, "OTF2 anchor file (traces.otf2) or the directory holding it")
        ->required();
    app.add_option("-o,--output", output_,
                   "report directory (default: ./causeway-<trace directory name>)");
    app.add_option("--threads", threads_,
                   "worker threads (default: " + std::to_string(DefaultThreadCount()) +
                       ", the CPUs this process may run on)")
        ->check(CLI::Range(1u, 1024u));
    app.add_option("--instances", instances_, "most severe instances kept per wait-state pattern")
        ->check(CLI::Range(0, 100000));
    app.add_flag("--partial", partial_,
                 "analyse the events that can be read when event files are missing or "
                 "truncated, and report what was lost");
    app.add_flag("--wait-states-only", wait_states_only_,
                 "skip the root-cause (delay) and critical-path analyses");
    app.add_option("--semantics", semantics_,
                   "definitions of the root-cause metrics: causeway (default) or scalasca "
                   "(Scalasca 2.6's, to check a report against Scalasca's value by value; "
                   "docs/metrics.md lists the differences)")
        ->check(CLI::IsMember({"causeway", "scalasca"}));
    app.add_option(
        "--construct-map", construct_map_,
        "a file of `CONSTRUCT GENERIC-TYPE` lines (shell wildcards allowed) that extends "
        "or overrides causeway's table of which generic operation type each construct "
        "is, e.g. `my_wait_until wait_on_value` (docs/report-format.md)");
    AddAdviceOptions(app, advice_);
    app.add_flag("--time-correct", time_correct_,
                 "repair clock-condition violations with the controlled logical clock before "
                 "analysing");
    app.add_option("--timeline", timeline_,
                   "also write a Chrome/Perfetto timeline (JSON) of the trace to this file");
    app.add_option("--timeline-ranks", timeline_flags_.ranks,
                   "keep these ranks in the timeline (0-15)");
    app.add_option("--timeline-window", timeline_flags_.window,
                   "keep this time window in the timeline, seconds from the trace's start "
                   "(1.5:2.0)");
    app.add_option("--memory-limit", memory_limit_,
                   "refuse a trace whose analysis would need more memory than this (4GiB, "
                   "512MB), estimated from its definitions before reading")
        ->check([](const std::string& text) {
          Result<uint64_t> bytes = ParseByteCount(text);
          return bytes ? std::string() : bytes.error().message();
        });
    app.add_flag("-q,--quiet", quiet_, "do not print the summary");
    app.add_flag("--timings", timings_, "print the time of each phase on standard error");
  }

  Status Run() override {
    CW_ASSIGN_OR_RETURN(
        const report::TimelineOptions timeline,
        ParseTimelineFlags(timeline_flags_, "--timeline-ranks", "--timeline-window"));
    // A construct map that does not parse is refused before anything is read.
    CW_ASSIGN_OR_RETURN(const analysis::ConstructMap constructs, Constructs());
    CW_ASSIGN_OR_RETURN(const std::optional<analysis::Baselines> baselines, ReadBaselines(advice_));
    // Started as several ranks of an MPI job (mpirun -np K, srun -n K): the ranks share the work.
    if (comm::LaunchedJobSize() > 1) {
      CW_ASSIGN_OR_RETURN(std::unique_ptr<comm::MpiSession> session, comm::MpiSession::Start());
      return RunAsJobRank(session->world(), baselines ? &*baselines : nullptr);
    }
    Stopwatch stopwatch(timings_);
    unsigned threads = threads_ == 0 ? DefaultThreadCount() : threads_;
    if (comm::LaunchedJobSize() == 1) NoteBinding("this process", threads);
    Diagnostics definition_diagnostics;
    CW_ASSIGN_OR_RETURN(trace::Definitions defs,
                        otf2::ReadDefinitions(trace_, definition_diagnostics));
    uint64_t declared = 0;
    for (const trace::Location& loc : defs.locations) declared += loc.event_count;
    if (!memory_limit_.empty()) CW_RETURN_IF_ERROR(CheckMemoryLimit(defs, 1));

    std::atomic<uint64_t> read{0};
    ProgressLine progress("reading " + trace_, declared, &read);
    driver::TraceAnalysisOptions options;
    options.read.threads = threads;
    options.read.allow_partial = partial_;
    options.read.progress = &read;
    options.time_correct = time_correct_;
    options.analysis = AnalysisOptionsFromFlags(&constructs, baselines ? &*baselines : nullptr);
    options.predictions = static_cast<size_t>(advice_.predictions);
    options.event_views = true;
    // The driver's steps move the progress line on and lap the stopwatch.
    struct Observer final : driver::StepObserver {
      Observer(ProgressLine& p, Stopwatch& s) : progress(p), stopwatch(s) {}
      void Begin(const char* description) override { progress.SetPhase(description); }
      void End(const char* name) override { stopwatch.Lap(name); }
      ProgressLine& progress;
      Stopwatch& stopwatch;
    } observer(progress, stopwatch);
    CW_ASSIGN_OR_RETURN(driver::AnalysedTrace analysed,
                        driver::AnalyseTrace(trace_, options, &observer));
    if (timings_) {
      for (const auto& [phase, seconds] : analysed.analysis.phase_seconds)
        std::fprintf(stderr, "  %-10s %8.3f s\n", phase.c_str(), seconds);
    }

    progress.SetPhase("writing the report");
    const trace::Trace& trace = analysed.trace;
    CW_RETURN_IF_ERROR(WriteReportDirectory(analysed.report, trace, analysed.views));
    stopwatch.Lap("write");
    progress.Finish();
    if (!timeline_.empty()) {
      CW_RETURN_IF_ERROR(WriteTimeline(
          trace, analysed.graph, analysed.analysis.waitstates.instances, timeline, timeline_));
      stopwatch.Lap("timeline");
    }
    return OkStatus();
  }

 private:
  analysis::Semantics ChosenSemantics() const {
    return analysis::ParseSemantics(semantics_).value_or(analysis::Semantics::kCauseway);
  }

  // The analyses the flags ask for, in one process and as a job alike.
  analysis::AnalysisOptions AnalysisOptionsFromFlags(const analysis::ConstructMap* constructs,
                                                     const analysis::Baselines* baselines) const {
    analysis::AnalysisOptions options;
    options.instances_per_metric = static_cast<size_t>(instances_);
    options.root_causes = !wait_states_only_;
    options.semantics = ChosenSemantics();
    options.constructs = constructs;
    options.advice = advice_.enabled();
    options.advice_parameters = advice_.parameters;
    if (baselines != nullptr) {
      options.baselines = baselines;
      options.baselines_path = advice_.baselines;
    }
    return options;
  }

  // The worker threads of one rank of a job: a rank the launcher bound to some CPUs uses those;
  // unbound ranks on one node share its CPUs.
  unsigned JobRankThreads(const comm::Communicator& comm) const {
    const unsigned usable = UsableCpuCount();
    const unsigned threads =
        threads_ != 0
            ? threads_
            : (usable < MachineCpuCount() ? usable
                                          : std::max(1u, usable / comm::LaunchedRanksOnNode()));
    if (comm.rank() == 0) NoteBinding("analysis rank 0", threads);
    return threads;
  }

  // `causeway analyze` as one of the `comm.size()` ranks of an MPI job: each reads and analyses
  // its share of the locations, the first writes the report (driver/job_analysis.h).
  Status RunAsJobRank(comm::Communicator& comm, const analysis::Baselines* baselines) {
    const std::string ranks = std::to_string(comm.size());
    if (time_correct_ || !timeline_.empty()) {
      return MakeError(ErrorCode::kInvalidArgument,
                       "as an MPI job (" + ranks +
                           " ranks), analyze does not correct timestamps or write the timeline "
                           "yet: --time-correct and --timeline need one process (without "
                           "mpirun)");
    }
    const unsigned threads = JobRankThreads(comm);
    if (!memory_limit_.empty()) {
      Diagnostics ignored;
      CW_ASSIGN_OR_RETURN(trace::Definitions defs, otf2::ReadDefinitions(trace_, ignored));
      CW_RETURN_IF_ERROR(CheckMemoryLimit(defs, comm.size()));
    }
    driver::TraceAnalysisOptions options;
    options.read.threads = threads;
    options.read.allow_partial = partial_;
    CW_ASSIGN_OR_RETURN(analysis::ConstructMap constructs, Constructs());
    options.analysis = AnalysisOptionsFromFlags(&constructs, baselines);
    options.predictions = static_cast<size_t>(advice_.predictions);
    CW_ASSIGN_OR_RETURN(std::optional<driver::JobReport> job,
                        driver::AnalyzeAsJobRank(trace_, options, comm));
    if (!job) return OkStatus();  // the first rank writes the report
    if (timings_) PrintJobFigures(*job);
    Stopwatch stopwatch(timings_);
    CW_RETURN_IF_ERROR(WriteReportDirectory(job->report, job->trace, job->views));
    stopwatch.Lap("write");
    return OkStatus();
  }

  // --timings of a job: each phase's slowest rank and the bytes the ranks exchanged in it (as a
  // share of the trace's files), and every rank's peak memory.
  static void PrintJobFigures(const driver::JobReport& job) {
    uint64_t trace_bytes = 0;
    std::error_code error;
    const std::filesystem::path dir = std::filesystem::path(job.trace.path).parent_path();
    for (auto it = std::filesystem::recursive_directory_iterator(dir, error);
         !error && it != std::filesystem::recursive_directory_iterator(); it.increment(error)) {
      if (it->is_regular_file(error)) trace_bytes += it->file_size(error);
    }
    for (const driver::JobPhase& p : job.phases) {
      std::fprintf(stderr, "%-12s %8.3f s  exchanged %s (%.2f%% of the trace's %s)\n",
                   p.name.c_str(), p.seconds, FormatByteCount(p.bytes_exchanged).c_str(),
                   trace_bytes > 0 ? 100.0 * static_cast<double>(p.bytes_exchanged) /
                                         static_cast<double>(trace_bytes)
                                   : 0.0,
                   FormatByteCount(trace_bytes).c_str());
    }
    std::fprintf(stderr, "peak memory per rank:");
    for (uint64_t bytes : job.peak_memory)
      std::fprintf(stderr, " %s", FormatByteCount(bytes).c_str());
    std::fprintf(stderr, "\n");
  }

  // Writes summary.txt, report.json, report.cubex and report.html, and prints the summary.
  Status WriteReportDirectory(const report::Report& report, const trace::Trace& trace,
                              const report::EventViews& views) const {
    std::string directory = output_.empty() ? DefaultOutputDirectory(trace_, "causeway-") : output_;
    CW_RETURN_IF_ERROR(report::EnsureDirectory(directory));
    CW_RETURN_IF_ERROR(report::WriteJson(report, directory + "/report.json"));
    CW_RETURN_IF_ERROR(report::WriteCubex(report, trace, directory + "/report.cubex"));
    CW_RETURN_IF_ERROR(report::WriteHtmlReport(report, trace, views, directory + "/report.html"));
    std::string summary = report::ToSummaryText(report);
    CW_RETURN_IF_ERROR(report::WriteTextFile(directory + "/summary.txt", summary));
    if (!quiet_) std::fputs(summary.c_str(), stdout);
    std::printf("\nReport written to %s/ (summary.txt, report.json, report.cubex, report.html)\n",
                directory.c_str());
    return OkStatus();
  }

  // Refuses the trace before reading when the estimate of the memory of the heaviest of `ranks`
  // analysis processes exceeds --memory-limit, saying what it needs and what would fit.
  Status CheckMemoryLimit(const trace::Definitions& defs, uint32_t ranks) const {
    CW_ASSIGN_OR_RETURN(uint64_t limit, ParseByteCount(memory_limit_));
    const bool root_causes = !wait_states_only_;
    const uint64_t need = analysis::EstimatePerRankBytes(defs, ranks, root_causes);
    if (need <= limit) return OkStatus();
    uint64_t events = 0;
    for (const trace::Location& loc : defs.locations) events += loc.event_count;
    std::string message =
        "the analysis of " + trace_ + " (" + std::to_string(events) + " events in " +
        std::to_string(defs.locations.size()) + " locations) needs about " + FormatByteCount(need) +
        (ranks > 1 ? " in the heaviest of " + std::to_string(ranks) + " analysis ranks"
                   : std::string(" of memory")) +
        ", more than --memory-limit " + FormatByteCount(limit);
    if (ranks == 1) {
      message += "; run it where " + FormatByteCount(need) + " are available";
      if (root_causes) {
        const uint64_t wait_states = analysis::EstimatePerRankBytes(defs, 1, false);
        message += wait_states <= limit ? ", or with --wait-states-only, which needs about " +
                                              FormatByteCount(wait_states)
                                        : "";
      }
    }
    const uint32_t needed = analysis::RanksNeeded(defs, limit, root_causes);
    const std::string flags = root_causes ? "" : " --wait-states-only";
    if (needed > ranks) {
      message += "; as an MPI job it needs " + std::to_string(needed) +
                 " analysis ranks (mpirun -np " + std::to_string(needed) + " causeway analyze" +
                 flags + " ...)";
    } else if (needed == 0) {
      message += "; not even one location per MPI rank fits in that limit";
    }
    return MakeError(ErrorCode::kResourceLimit, message);
  }

  std::string trace_;
  std::string output_;
  std::string memory_limit_;
  unsigned threads_ = 0;
  int instances_ = 10;
  bool partial_ = false;
  bool wait_states_only_ = false;
  std::string semantics_ = "causeway";
  std::string construct_map_;
  AdviceFlags advice_;

  // causeway's construct map, extended by --construct-map's file.
  Result<analysis::ConstructMap> Constructs() const {
    if (construct_map_.empty()) return analysis::ConstructMap::Builtin();
    return analysis::ConstructMap::WithUserFile(construct_map_);
  }
  bool time_correct_ = false;
  bool quiet_ = false;
  bool timings_ = false;
  std::string timeline_;
  TimelineFlags timeline_flags_;
};

}  // namespace

std::unique_ptr<Subcommand> MakeAnalyzeSubcommand() {
  return std::make_unique<AnalyzeSubcommand>();
}

}  // namespace cw::cli
