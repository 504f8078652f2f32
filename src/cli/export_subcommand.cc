// `causeway export chrome TRACE -o FILE`: the trace as a Chrome/Perfetto timeline, with message
// arrows and the wait states the analysis finds marked on it.
#include <string>

#include "analysis/pipeline/analysis.h"
#include "base/parallel.h"
#include "cli/job_guard.h"
#include "cli/subcommand.h"
#include "cli/timeline_output.h"
#include "cli/trace_problems.h"
#include "match/matcher.h"
#include "otf2/trace_reader.h"

namespace cw::cli {
namespace {

class ExportSubcommand final : public Subcommand {
 public:
  const char* name() const override { return "export"; }
  const char* description() const override {
    return "Write a trace in another format: 'chrome' (a Chrome/Perfetto timeline with message "
           "arrows and wait-state markers)";
  }

  void AddOptions(CLI::App& app) override {
    app.add_option("format", format_, "the format to write: chrome")->required();
    app.add_option("trace", trace_, "OTF2 anchor file (traces.otf2) or the directory holding it")
        ->required();
    app.add_option("-o,--output", output_, "the file to write (timeline.json)")->required();
    app.add_option("--ranks", flags_.ranks, "keep these ranks (0-15)");
    app.add_option("--window", flags_.window,
                   "keep this time window, seconds from the trace's start (1.5:2.0)");
    app.add_option("--threads", threads_,
                   "worker threads (default: " + std::to_string(DefaultThreadCount()) +
                       ", the CPUs this process may run on)")
        ->check(CLI::Range(1u, 1024u));
    app.add_flag("--partial", partial_,
                 "export the events that can be read when event files are missing or truncated");
  }

  Status Run() override {
    CW_RETURN_IF_ERROR(RefuseMultiRankJob("export"));
    if (format_ != "chrome") {
      return MakeError(ErrorCode::kInvalidArgument,
                       "unknown export format '" + format_ + "' (known: chrome)");
    }
    CW_ASSIGN_OR_RETURN(const report::TimelineOptions timeline,
                        ParseTimelineFlags(flags_, "--ranks", "--window"));
    const unsigned threads = threads_ == 0 ? DefaultThreadCount() : threads_;
    otf2::ReadOptions read;
    read.threads = threads;
    read.allow_partial = partial_;
    CW_ASSIGN_OR_RETURN(trace::Trace trace, otf2::ReadTrace(trace_, read));
    match::SyncGraph graph = match::MatchTrace(trace, threads);
    // The wait states mark the timeline; their causes are not drawn, so they are not sought.
    analysis::AnalysisOptions options;
    options.threads = threads;
    options.root_causes = false;
    analysis::AnalysisResult analysis = analysis::AnalyzeTrace(trace, graph, options);
    CW_RETURN_IF_ERROR(
        WriteTimeline(trace, graph, analysis.waitstates.instances, timeline, output_));
    Diagnostics problems = trace.diagnostics;
    problems.Merge(graph.diagnostics);
    PrintTraceProblems(problems, stdout);
    return OkStatus();
  }

 private:
  std::string format_;
  std::string trace_;
  std::string output_;
  TimelineFlags flags_;
  unsigned threads_ = 0;
  bool partial_ = false;
};

}  // namespace

std::unique_ptr<Subcommand> MakeExportSubcommand() { return std::make_unique<ExportSubcommand>(); }

}  // namespace cw::cli
