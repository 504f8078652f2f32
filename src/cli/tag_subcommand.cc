// `causeway tag TRACE [-o DIR]`: seed 003's task activity graphs of a trace: per process, the
// MPI calls by call path with the flow, completion and message edges between them; the
// application-wide graph and its behavioural classes (tag/).
#include <cstdio>
#include <string>
#include <vector>

#include "base/parallel.h"
#include "cli/output_directory.h"
#include "cli/subcommand.h"
#include "match/matcher.h"
#include "otf2/trace_reader.h"
#include "report/output_file.h"
#include "tag/build/trace_graphs.h"
#include "tag/graph/clustering.h"
#include "tag/graph/parallel_graph.h"
#include "tag/graph/tendencies.h"
#include "tag/output/tag_document.h"

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
    app.add_option("trace", trace_, "OTF2 anchor file (traces.otf2) or the directory holding it")
        ->required();
    app.add_option("-o,--output", output_,
                   "output directory (default: causeway-tag-<name of the trace's directory>)");
    app.add_option("--tolerance", tolerance_percent_,
                   "behaviour classes: the time difference allowed between members, in percent "
                   "of a process's time (default 2)")
        ->check(CLI::Range(0.0, 100.0));
    app.add_option("--recursion-depth", recursion_depth_,
                   "fold call paths on which a region occurs more often than this (default 3; "
                   "0: never fold)");
    app.add_option("--region", regions_,
                   "user regions that become nodes like MPI calls (shell wildcards, repeatable)");
    app.add_option("--threads", threads_, "worker threads (default: all CPUs)")
        ->check(CLI::Range(1u, 1024u));
    app.add_flag("--partial", partial_, "build the graphs of what a damaged trace holds");
    app.add_flag("-q,--quiet", quiet_, "do not print the summary");
  }

  Status Run() override {
    const unsigned threads = threads_ == 0 ? DefaultThreadCount() : threads_;
    otf2::ReadOptions read;
    read.threads = threads;
    read.allow_partial = partial_;
    CW_ASSIGN_OR_RETURN(trace::Trace trace, otf2::ReadTrace(trace_, read));
    const match::SyncGraph sync = match::MatchTrace(trace, threads);

    tag::GraphBuildOptions options;
    options.regions = regions_;
    options.recursion_depth = recursion_depth_;
    options.threads = threads;
    tag::TraceGraphs graphs = tag::BuildTraceGraphs(trace, sync, options);

    tag::TagDocument doc;
    doc.source = trace.path;
    doc.tolerance = tolerance_percent_ / 100.0;
    doc.recursion_depth = recursion_depth_;
    doc.regions = regions_;
    doc.folded_callpaths = graphs.folded_callpaths;
    doc.processes = std::move(graphs.processes);
    doc.ptag = tag::InterProcessEdges(doc.processes);
    doc.clusters = tag::ClusterProcesses(doc.processes, {.tolerance = doc.tolerance});
    doc.findings = tag::FindTendencies(doc.processes, doc.clusters);

    const std::string directory =
        output_.empty() ? DefaultOutputDirectory(trace_, "causeway-tag-") : output_;
    CW_RETURN_IF_ERROR(report::EnsureDirectory(directory));
    const std::string summary = tag::TagSummary(doc);
    CW_RETURN_IF_ERROR(report::WriteTextFile(directory + "/summary.txt", summary));
    CW_RETURN_IF_ERROR(report::WriteTextFile(directory + "/tag.json", tag::TagJson(doc)));
    CW_RETURN_IF_ERROR(report::WriteTextFile(directory + "/ptag.dot", tag::PtagDot(doc)));
    CW_RETURN_IF_ERROR(report::WriteTextFile(directory + "/ptag.graphml", tag::PtagGraphml(doc)));
    CW_RETURN_IF_ERROR(report::WriteTextFile(directory + "/clusters.dot", tag::ClustersDot(doc)));
    CW_RETURN_IF_ERROR(
        report::WriteTextFile(directory + "/clusters.graphml", tag::ClustersGraphml(doc)));
    if (!quiet_) std::fputs(summary.c_str(), stdout);
    std::printf("\nTask activity graphs written to %s/ (summary.txt, tag.json, ptag.dot, "
                "ptag.graphml, clusters.dot, clusters.graphml)\n",
                directory.c_str());
    return OkStatus();
  }

 private:
  std::string trace_;
  std::string output_;
  double tolerance_percent_ = 2;
  uint32_t recursion_depth_ = 3;
  std::vector<std::string> regions_;
  unsigned threads_ = 0;
  bool partial_ = false;
  bool quiet_ = false;
};

}  // namespace

std::unique_ptr<Subcommand> MakeTagSubcommand() { return std::make_unique<TagSubcommand>(); }

}  // namespace cw::cli
