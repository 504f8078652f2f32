// `causeway compare RUN... [-o DIR]`: scalability and revision analysis over several runs
// (compare/comparison.h). A RUN is a report directory of `causeway analyze` (its report.json is
// read: comparing costs nothing more) or a trace, analysed here with the options given.
#include <cstdio>
#include <filesystem>
#include <fstream>

#include <nlohmann/json.hpp>

#include "analysis/pipeline/analysis.h"
#include "base/parallel.h"
#include "cli/subcommand.h"
#include "compare/compare_html.h"
#include "compare/compare_json.h"
#include "compare/compare_text.h"
#include "compare/comparison.h"
#include "driver/trace_analysis.h"
#include "report/json_writer.h"
#include "report/output_file.h"

namespace cw::cli {
namespace {

namespace fs = std::filesystem;

// A run's label unless --label gives one: the name of its directory ("run1/traces.otf2" and
// "run1/" both give "run1").
std::string DefaultLabel(const std::string& path) {
  fs::path p(path);
  if (p.filename().empty()) p = p.parent_path();
  if (p.extension() == ".otf2" || p.filename() == "report.json") p = p.parent_path();
  const std::string name = p.filename().string();
  return name.empty() ? path : name;
}

class CompareSubcommand final : public Subcommand {
 public:
  const char* name() const override { return "compare"; }
  const char* description() const override {
    return "Compare runs: scalability over process counts (efficiency, scaling models per call "
           "path) or revisions on one process count: causeway compare RUN... [-o DIR]";
  }
  void AddOptions(CLI::App& app) override {
    app.add_option("runs", runs_,
                   "report directories of `causeway analyze` (or their report.json), or traces "
                   "(analysed on the way)")
        ->required();
    app.add_option("-o,--output", output_, "output directory (default: causeway-compare)");
    app.add_option("--label", labels_,
                   "one label per run, in order (comma-separated or repeated); runs with one "
                   "label and process count are repetitions")
        ->delimiter(',');
    app.add_flag("--weak", weak_, "weak scaling: efficiency T(p0) / T(p)");
    app.add_option("--predict", predict_,
                   "process count to predict with the scaling models (default: 4 x the largest)")
        ->check(CLI::PositiveNumber);
    app.add_option("--change-threshold", threshold_,
                   "revisions without repetitions: the share of the base value a change must "
                   "reach (default 0.05)")
        ->check(CLI::Range(0.0, 10.0));
    app.add_flag("--partial", partial_, "traces: analyse what a damaged trace holds");
    app.add_flag("--wait-states-only", wait_states_only_,
                 "traces: skip the root-cause (delay) and critical-path analyses");
    app.add_option("--semantics", semantics_,
                   "traces: definitions of the root-cause metrics, causeway (default) or "
                   "scalasca")
        ->check(CLI::IsMember({"causeway", "scalasca"}));
    app.add_option("--threads", threads_,
                   "traces: worker threads (default: " + std::to_string(DefaultThreadCount()) +
                       ", the CPUs this process may run on)");
    app.add_flag("-q,--quiet", quiet_, "do not print the summary");
  }

  Status Run() override {
    if (!labels_.empty() && labels_.size() != runs_.size()) {
      return MakeError(ErrorCode::kInvalidArgument,
                       "--label gives " + std::to_string(labels_.size()) + " labels for " +
                           std::to_string(runs_.size()) + " runs");
    }
    std::vector<compare::RunSummary> runs;
    for (size_t r = 0; r < runs_.size(); ++r) {
      const std::string label = labels_.empty() ? DefaultLabel(runs_[r]) : labels_[r];
      CW_ASSIGN_OR_RETURN(nlohmann::json report, ReportOf(runs_[r]));
      CW_ASSIGN_OR_RETURN(compare::RunSummary run,
                          compare::ReadRunSummary(report, label, runs_[r]));
      runs.push_back(std::move(run));
    }
    compare::CompareOptions options;
    options.weak = weak_;
    if (predict_ > 0) options.predict = predict_;
    options.change_threshold = threshold_;
    CW_ASSIGN_OR_RETURN(const compare::Comparison comparison, compare::Compare(runs, options));
    const std::string directory = output_.empty() ? "causeway-compare" : output_;
    CW_RETURN_IF_ERROR(report::EnsureDirectory(directory));
    const std::string summary = compare::CompareSummaryText(comparison);
    CW_RETURN_IF_ERROR(report::WriteTextFile(directory + "/summary.txt", summary));
    CW_RETURN_IF_ERROR(
        report::WriteTextFile(directory + "/compare.json", compare::CompareJson(comparison)));
    std::string title;
    for (const compare::RunGroup& g : comparison.groups)
      title += (title.empty() ? "" : ", ") + g.label;
    CW_RETURN_IF_ERROR(report::WriteTextFile(directory + "/compare.html",
                                             compare::CompareHtml(comparison, title)));
    if (!quiet_) std::fputs(summary.c_str(), stdout);
    std::printf("\nComparison written to %s/ (summary.txt, compare.json, compare.html)\n",
                directory.c_str());
    return OkStatus();
  }

 private:
  // The report.json of a run: read from a report directory, or made from a trace.
  Result<nlohmann::json> ReportOf(const std::string& path) const {
    std::error_code ec;
    fs::path json_path;
    if (fs::is_directory(path, ec) && fs::exists(fs::path(path) / "report.json", ec)) {
      json_path = fs::path(path) / "report.json";
    } else if (fs::path(path).filename() == "report.json" && fs::is_regular_file(path, ec)) {
      json_path = path;
    }
    if (!json_path.empty()) {
      std::ifstream in(json_path);
      nlohmann::json j = nlohmann::json::parse(in, nullptr, /*allow_exceptions=*/false);
      if (j.is_discarded()) {
        return MakeError(ErrorCode::kInvalidArgument,
                         json_path.string() + ": not a causeway report: it is not JSON");
      }
      return j;
    }
    const bool trace =
        (fs::is_directory(path, ec) && fs::exists(fs::path(path) / "traces.otf2", ec)) ||
        (fs::path(path).extension() == ".otf2" && fs::is_regular_file(path, ec));
    if (!trace) {
      return MakeError(ErrorCode::kInvalidArgument,
                       path +
                           ": neither a report directory of `causeway analyze` (with "
                           "report.json) nor an OTF2 trace (a directory with traces.otf2, or "
                           "an .otf2 anchor file)");
    }
    return AnalyzeTrace(path);
  }

  // The report `causeway analyze` would write for the trace at `path`, as JSON.
  Result<nlohmann::json> AnalyzeTrace(const std::string& path) const {
    driver::TraceAnalysisOptions options;
    options.read.threads = threads_ > 0 ? threads_ : DefaultThreadCount();
    options.read.allow_partial = partial_;
    options.analysis.root_causes = !wait_states_only_;
    options.analysis.semantics =
        analysis::ParseSemantics(semantics_).value_or(analysis::Semantics::kCauseway);
    CW_ASSIGN_OR_RETURN(const driver::AnalysedTrace analysed, driver::AnalyseTrace(path, options));
    return nlohmann::json::parse(report::ToJson(analysed.report));
  }

  std::vector<std::string> runs_;
  std::vector<std::string> labels_;
  std::string output_;
  bool weak_ = false;
  double predict_ = 0;
  double threshold_ = 0.05;
  bool partial_ = false;
  bool wait_states_only_ = false;
  std::string semantics_ = "causeway";
  unsigned threads_ = 0;
  bool quiet_ = false;
};

}  // namespace

std::unique_ptr<Subcommand> MakeCompareSubcommand() {
  return std::make_unique<CompareSubcommand>();
}

}  // namespace cw::cli
