// `causeway baseline -o FILE -- mpirun -np N`: measures the minimal time of each construct on
// this machine for bottleneck detection (`causeway analyze --baselines FILE`): it traces the
// bottleneck-free benchmark shipped beside causeway (measure/baseline/baseline_bench.c) under
// the user's launcher and keeps the shortest instance of each construct and size. Runs with
// other process counts add to the same file.
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "analysis/advice/baselines.h"
#include "analysis/generic/construct_map.h"
#include "cli/command_runner.h"
#include "cli/subcommand.h"
#include "otf2/trace_reader.h"
#include "report/output_file.h"

namespace cw::cli {
namespace {

namespace fs = std::filesystem;

fs::path SelfDirectory() {
  std::error_code ec;
  return fs::read_symlink("/proc/self/exe", ec).parent_path();
}

class BaselineSubcommand final : public Subcommand {
 public:
  const char* name() const override { return "baseline"; }
  const char* description() const override {
    return "Measure the minimal time of each MPI construct on this machine for `analyze "
           "--baselines`: causeway baseline -o FILE -- mpirun -np N";
  }
  void AddOptions(CLI::App& app) override {
    app.add_option("-o,--output", output_,
                   "baselines file; a run with another process count adds to it")
        ->required();
    app.add_option("--repetitions", repetitions_, "measurements of each construct and size (20)")
        ->check(CLI::Range(1, 100000));
    app.add_option("--keep-trace", keep_trace_, "keep the benchmark's trace in this directory");
    app.add_option("launcher", launcher_,
                   "the launcher that starts the benchmark, e.g. mpirun -np 4 (the benchmark's "
                   "path is appended)")
        ->required();
    app.positionals_at_end();
  }

  Status Run() override {
    const fs::path bench = SelfDirectory() / "causeway-baseline-bench";
    std::error_code ec;
    if (!fs::exists(bench, ec)) {
      return MakeError(ErrorCode::kNotFound, "the baseline benchmark is not beside causeway (" +
                                                 bench.string() +
                                                 "): causeway was built "
                                                 "without MPI");
    }
    // An existing file must parse before anything runs: it is added to, not overwritten.
    std::optional<analysis::Baselines> existing;
    if (fs::exists(output_, ec)) {
      CW_ASSIGN_OR_RETURN(analysis::Baselines b, analysis::Baselines::Read(output_));
      existing = std::move(b);
    }
    std::string dir = keep_trace_;
    if (dir.empty()) {
      std::string pattern = (fs::temp_directory_path(ec) / "causeway-baseline-XXXXXX").string();
      if (mkdtemp(pattern.data()) == nullptr) {
        return MakeError(ErrorCode::kIo, "cannot create a temporary directory");
      }
      dir = pattern;
    }
    std::vector<std::string> args = {
        (SelfDirectory() / "causeway").string(), "trace", "-o", dir, "--record", "none", "--"};
    args.insert(args.end(), launcher_.begin(), launcher_.end());
    args.push_back(bench.string());
    args.push_back(std::to_string(repetitions_));
    // An interrupt ends the traced benchmark, and the partial trace is removed with its directory.
    CW_ASSIGN_OR_RETURN(const CommandEnd end, RunTracedCommand(args, 0, nullptr));
    const int status = end.exit_status;
    Status result = status == 0 ? Finish(dir, std::move(existing))
                                : MakeError(ErrorCode::kIo,
                                            "the baseline benchmark failed (exit "
                                            "status " +
                                                std::to_string(status) + ")");
    if (keep_trace_.empty()) fs::remove_all(dir, ec);
    return result;
  }

 private:
  Status Finish(const std::string& dir, std::optional<analysis::Baselines> existing) {
    otf2::ReadOptions read;
    CW_ASSIGN_OR_RETURN(trace::Trace trace, otf2::ReadTrace(dir + "/traces.otf2", read));
    const analysis::Baselines measured = analysis::Baselines::Measure(
        trace, analysis::ConstructMap::Builtin().ClassifyRegions(trace.defs));
    if (measured.empty()) {
      return MakeError(ErrorCode::kCorrupt, "the benchmark's trace holds no MPI construct");
    }
    analysis::Baselines all = existing ? std::move(*existing) : analysis::Baselines{};
    all.Replace(measured);
    CW_RETURN_IF_ERROR(report::WriteTextFile(output_, all.ToText()));
    size_t lines = 0;
    for (const auto& [construct, entries] : measured.entries()) lines += entries.size();
    std::printf("Baselines of %zu constructs (%zu sizes in all) on %u processes written to %s\n",
                measured.entries().size(), lines,
                measured.entries().begin()->second.front().processes, output_.c_str());
    return OkStatus();
  }

  std::string output_;
  int repetitions_ = 20;
  std::string keep_trace_;
  std::vector<std::string> launcher_;
};

}  // namespace

std::unique_ptr<Subcommand> MakeBaselineSubcommand() {
  return std::make_unique<BaselineSubcommand>();
}

}  // namespace cw::cli
