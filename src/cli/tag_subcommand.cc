// `causeway tag TRACE|RUN [-o DIR]`: Sikora et al. 2016's task activity graphs of a trace, or of a
// run `causeway trace --tag` recorded online: per process, the MPI calls by call path with the
// flow, completion and message edges between them; the application-wide graph and its
// behavioural classes (tag/).
#include <algorithm>
#include <cstdio>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "base/parallel.h"
#include "base/status.h"
#include "cli/job_guard.h"
#include "cli/output_directory.h"
#include "cli/subcommand.h"
#include "cli/tag_report.h"
#include "comm/launch.h"
#include "comm/mpi_communicator.h"
#include "match/matcher.h"
#include "otf2/trace_reader.h"
#include "tag/build/trace_graphs.h"
#include "tag/job/job_graphs.h"
#include "tag/online/online_graphs.h"
#include "tag/output/tag_writers.h"

namespace cw::cli {
namespace {

class TagSubcommand final : public Subcommand {
 public:
  const char* name() const override { return "tag"; }
  const char* description() const override {
    return "Task activity graphs (what every process does, in brief): per-process graphs of "
           "MPI calls by call path, the application-wide graph and its behaviour classes";
  }
  void AddOptions(CLI::App& app) override {
    app.add_option("trace", trace_,
                   "OTF2 anchor file (traces.otf2) or the directory holding it, or the "
                   "directory of a run recorded with causeway trace --tag")
        ->required();
    app.add_option("-o,--output", output_,
                   "output directory (default: causeway-tag-<name of the trace's directory>)");
    app.add_option("--tolerance", tolerance_percent_,
                   "behaviour classes: the time difference allowed between members, in percent "
                   "of a process's time (default 2)")
        ->check(CLI::Range(0.0, 100.0));
    app.add_option("--noise-sigmas", noise_sigmas_,
                   "behaviour classes: also allow this many times the time difference that the "
                   "processes' own visit-to-visit scatter gives by chance (default 3; 0: the "
                   "percentage alone)")
        ->check(CLI::Range(0.0, 1000.0));
    app.add_option("--recursion-depth", recursion_depth_,
                   "fold call paths on which a region occurs more often than this (default 3; "
                   "0: never fold)");
    app.add_option("--region", regions_,
                   "user regions that become nodes like MPI calls (shell wildcards, repeatable)");
    app.add_option("--threads", threads_,
                   "worker threads (default: " + std::to_string(DefaultThreadCount()) +
                       ", the CPUs this process may run on)")
        ->check(CLI::Range(1u, 1024u));
    app.add_flag("--partial", partial_, "build the graphs of what a damaged trace holds");
    app.add_option("--window", window_,
                   "a run recorded online: what happened between snapshots A and B (A:B, "
                   "0 for the start, end for the final graphs)");
    app.add_flag("-q,--quiet", quiet_, "do not print the summary");
  }

  Status Run() override {
    const unsigned threads = threads_ == 0 ? DefaultThreadCount() : threads_;
    tag::TagDocument doc;
    doc.tolerance = tolerance_percent_ / 100.0;
    doc.noise_sigmas = noise_sigmas_;
    doc.recursion_depth = recursion_depth_;
    doc.regions = regions_;
    if (tag::IsOnlineRun(trace_)) {
      // Reading segments is quick; a job's ranks would each do all of it.
      if (comm::LaunchedJobSize() > 1) return RefuseMultiRankJob("tag of a run recorded online");
      if (!regions_.empty()) {
        return MakeError(ErrorCode::kInvalidArgument,
                         "--region applies to traces; a run recorded online has its region "
                         "activities from causeway trace --tag --tag-region");
      }
      CW_RETURN_IF_ERROR(LoadOnlineRun(trace_, window_, recursion_depth_, threads, doc));
    } else {
      if (!window_.empty()) {
        return MakeError(ErrorCode::kInvalidArgument,
                         "--window applies to runs recorded with causeway trace --tag "
                         "--tag-interval, not to traces");
      }
      otf2::ReadOptions read;
      read.threads = threads;
      read.allow_partial = partial_;
      if (comm::LaunchedJobSize() > 1) return RunAsJobRank(doc, read);
      CW_ASSIGN_OR_RETURN(trace::Trace trace, otf2::ReadTrace(trace_, read));
      const match::SyncGraph sync = match::MatchTrace(trace, threads);
      tag::GraphBuildOptions options;
      options.regions = regions_;
      options.recursion_depth = recursion_depth_;
      options.threads = threads;
      tag::TraceGraphs graphs = tag::BuildTraceGraphs(trace, sync, options);
      doc.source = trace.path;
      doc.folded_callpaths = graphs.folded_callpaths;
      doc.processes = std::move(graphs.processes);
    }
    const std::string directory =
        output_.empty() ? DefaultOutputDirectory(trace_, "causeway-tag-") : output_;
    return WriteTagReport(doc, directory, quiet_);
  }

 private:
  // `mpirun -np K causeway tag TRACE`: each rank builds its share of the locations' graphs
  // (tag/job), the first writes the report.
  Status RunAsJobRank(tag::TagDocument& doc, otf2::ReadOptions read) {
    CW_ASSIGN_OR_RETURN(std::unique_ptr<comm::MpiSession> session, comm::MpiSession::Start());
    comm::Communicator& comm = session->world();
    // The launcher spreads the ranks over the CPUs; each uses its share.
    read.threads =
        threads_ != 0
            ? threads_
            : std::max(1u, DefaultThreadCount() / std::max(1u, comm::LaunchedRanksOnNode()));
    tag::GraphBuildOptions options;
    options.regions = regions_;
    options.recursion_depth = recursion_depth_;
    options.threads = read.threads;
    CW_ASSIGN_OR_RETURN(std::optional<tag::JobGraphs> job,
                        tag::BuildGraphsAsJobRank(trace_, read, options, comm));
    if (!job) return OkStatus();  // the first rank writes the report
    doc.source = job->source;
    doc.folded_callpaths = job->graphs.folded_callpaths;
    doc.processes = std::move(job->graphs.processes);
    const std::string directory =
        output_.empty() ? DefaultOutputDirectory(trace_, "causeway-tag-") : output_;
    return WriteTagReport(doc, directory, quiet_);
  }

  std::string trace_;
  std::string output_;
  double tolerance_percent_ = 2;
  double noise_sigmas_ = 3;
  uint32_t recursion_depth_ = 3;
  std::vector<std::string> regions_;
  unsigned threads_ = 0;
  bool partial_ = false;
  bool quiet_ = false;
  std::string window_;
};

}  // namespace

std::unique_ptr<Subcommand> MakeTagSubcommand() { return std::make_unique<TagSubcommand>(); }

}  // namespace cw::cli
