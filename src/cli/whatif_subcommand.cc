// `causeway whatif TRACE`: replays a trace under other conditions and predicts the runtime.
#include <chrono>
#include <cstdio>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "base/units.h"
#include "base/utf8.h"
#include "cli/job_guard.h"
#include "cli/output_directory.h"
#include "cli/subcommand.h"
#include "report/output_file.h"
#include "report/report.h"
#include "report/whatif_report.h"
#include "sim/otf2_source.h"
#include "sim/simulated_trace.h"
#include "sim/whatif.h"

namespace cw::cli {
namespace {

Error Usage(const std::string& message) { return Error(ErrorCode::kInvalidArgument, message); }

class WhatIfSubcommand final : public Subcommand {
 public:
  const char* name() const override { return "whatif"; }
  const char* description() const override {
    return "Replay a trace under other conditions (network, noise, computation speed) and "
           "predict its runtime";
  }

  void AddOptions(CLI::App& app) override {
    app.add_option("trace", trace_, "OTF2 anchor file (traces.otf2) or the directory holding it")
        ->required();
    app.add_option("-o,--output", output_,
                   "output directory (default: ./causeway-whatif-<trace directory name>)");
    app.add_option("--network", network_,
                   "'measured' (default) or 'ideal': no latency, infinite bandwidth, MPI calls "
                   "wait only for their partners");
    app.add_option("--network-scale", network_scale_,
                   "factor on every measured communication cost (2: a network twice as slow)");
    app.add_option("--latency", latency_, "latency of the network to predict (5us)");
    app.add_option("--bandwidth", bandwidth_, "bandwidth of the network to predict (10GB/s)");
    app.add_option("--overhead", overhead_, "CPU time added per message on each side (1us)");
    app.add_option("--gap", gap_, "least time between two messages a process sends (1us)");
    app.add_option("--eager-limit", eager_limit_,
                   "largest message sent without waiting for its receive (64KiB)");
    app.add_option("--base-latency", base_latency_,
                   "latency of the traced network (default: estimated from the trace)");
    app.add_option("--base-bandwidth", base_bandwidth_,
                   "bandwidth of the traced network (default: estimated from the trace)");
    app.add_option("--base-eager-limit", base_eager_limit_,
                   "eager limit of the traced MPI (default 64KiB)");
    app.add_option("--noise", noise_,
                   "OS noise per computation phase: const:2us, uniform:min=0,max=4us, "
                   "exp:mean=2us, normal:mean=2us,sd=1us, lognormal:mean=2us,sigma=0.5");
    app.add_option("--noise-file", noise_file_,
                   "OS noise drawn from measured detours, one duration per line");
    app.add_option("--ranks", ranks_, "ranks that get the noise (0-3,8; default: all)");
    app.add_option("--compute-scale", compute_scale_,
                   "computation speed: 0.5 (all computation twice as fast), solve=2 (region "
                   "solve), solve=2@1 (on rank 1 only); repeatable");
    app.add_option("--runs", runs_, "replays with different random draws (default 1)")
        ->check(CLI::Range(1u, 100000u));
    app.add_option("--seed", seed_, "seed of the random draws (default 1)");
    app.add_flag("--write-trace", write_trace_,
                 "also write the simulated execution (first run) as an OTF2 trace in "
                 "<output>/simulated/, for `causeway analyze`");
    app.add_flag("-q,--quiet", quiet_, "do not print the summary");
    app.add_flag("--partial", partial_,
                 "replay what can be read of a trace whose event files are missing or truncated");
    app.add_flag("--timings", timings_, "print the time of reading and of replaying on stderr");
  }

  Status Run() override {
    CW_RETURN_IF_ERROR(RefuseMultiRankJob("whatif"));
    CW_ASSIGN_OR_RETURN(sim::Perturbation perturbation, BuildPerturbation());
    auto start = std::chrono::steady_clock::now();
    // The trace is streamed location by location, never read whole (sim/otf2_source.h).
    CW_ASSIGN_OR_RETURN(std::unique_ptr<sim::StreamedTrace> trace,
                        sim::StreamedTrace::Open(trace_));
    auto opened = std::chrono::steady_clock::now();
    std::string directory =
        output_.empty() ? DefaultOutputDirectory(trace_, "causeway-whatif-") : output_;
    CW_RETURN_IF_ERROR(report::EnsureDirectory(directory));
    std::unique_ptr<sim::SimulatedTraceWriter> simulated;
    if (write_trace_) {
      CW_ASSIGN_OR_RETURN(simulated,
                          sim::SimulatedTraceWriter::Create(*trace, directory + "/simulated"));
    }
    sim::WhatIfOptions options;
    options.perturbation = perturbation;
    options.runs = runs_;
    options.seed = seed_;
    options.observer = simulated.get();
    CW_ASSIGN_OR_RETURN(sim::WhatIfResult result, sim::RunWhatIf(trace->Input(), options));
    if (timings_) {
      auto replayed = std::chrono::steady_clock::now();
      std::fprintf(stderr, "definitions %8.3f s\nreplay      %8.3f s (%u runs, streamed)\n",
                   std::chrono::duration<double>(opened - start).count(),
                   std::chrono::duration<double>(replayed - opened).count(), runs_);
    }

    result.diagnostics.Merge(trace->definition_problems());
    if (!result.source_errors.empty() && !partial_) {
      // As analyze: a trace that could not be read to its end is not replayed as if complete.
      return MakeError(ErrorCode::kCorrupt,
                       result.source_errors.front() +
                           "\n(use --partial to replay the events that could be read)");
    }
    report::WhatIfContext context;
    // Names and paths are the trace's text: shown escaped (summary.txt, the terminal) and as
    // valid UTF-8 (whatif.json).
    context.trace_path = DisplayText(trace_);
    context.seed = seed_;
    const trace::Definitions& defs = trace->defs();
    for (const trace::Location& loc : defs.locations) {
      const std::string name = DisplayText(defs.str(loc.name));
      std::optional<uint32_t> rank;
      std::string group;
      if (loc.group < defs.location_groups.size()) {
        const trace::LocationGroup& g = defs.location_groups[loc.group];
        if (g.rank != trace::kNone) rank = g.rank;
        group = DisplayText(defs.str(g.name));
      }
      context.location_names.push_back(name);
      context.location_ranks.push_back(rank);
      context.location_labels.push_back(report::LocationLabelOf(rank, group, name));
    }
    context.callpath = [&trace](uint32_t cp) { return DisplayText(trace->CallpathName(cp)); };
    context.callpath_label = [&trace](uint32_t cp) {
      return DisplayText(trace->CallpathLabel(cp));
    };
    if (simulated) {
      CW_RETURN_IF_ERROR(simulated->Close());
      context.simulated_trace = simulated->anchor();
      context.simulated_records = simulated->records_written();
      context.simulated_left_out = simulated->records_left_out();
    }
    std::string summary = report::ToWhatIfText(result, context);
    CW_RETURN_IF_ERROR(report::WriteTextFile(directory + "/summary.txt", summary));
    CW_RETURN_IF_ERROR(
        report::WriteTextFile(directory + "/whatif.json", report::ToWhatIfJson(result, context)));
    if (!quiet_) std::fputs(summary.c_str(), stdout);
    const std::vector<std::string> problems = report::WhatIfProblems(result);
    if (quiet_ && !problems.empty()) {
      // Even quiet, a prediction resting on a repaired trace says so.
      std::string names;
      for (const std::string& p : problems) names += (names.empty() ? "" : ", ") + p;
      std::printf("Trace problems (see summary.txt): %s\n", names.c_str());
    }
    std::printf("\nPrediction written to %s/ (summary.txt, whatif.json)\n", directory.c_str());
    return OkStatus();
  }

 private:
  Result<sim::Perturbation> BuildPerturbation() const {
    sim::Perturbation p;
    sim::NetworkChange& n = p.network;
    if (network_ == "ideal") {
      n.ideal = true;
    } else if (network_ != "measured") {
      return tl::unexpected(
          Usage("--network must be 'measured' or 'ideal', not '" + network_ + "'"));
    }
    if (network_scale_) {
      if (!(*network_scale_ >= 0)) return tl::unexpected(Usage("--network-scale must be >= 0"));
      n.cost_factor = *network_scale_;
    }
    auto duration = [](const std::optional<std::string>& text, const char* option,
                       std::optional<double>& into) -> Status {
      if (!text) return OkStatus();
      Result<double> d = ParseDuration(*text);
      if (!d) return tl::unexpected(Usage(std::string(option) + ": " + d.error().message()));
      into = *d;
      return OkStatus();
    };
    auto per_byte = [](const std::optional<std::string>& text, const char* option,
                       std::optional<double>& into) -> Status {
      if (!text) return OkStatus();
      Result<double> b = ParseBandwidth(*text);
      if (!b) return tl::unexpected(Usage(std::string(option) + ": " + b.error().message()));
      into = 1.0 / *b;
      return OkStatus();
    };
    auto bytes = [](const std::optional<std::string>& text,
                    const char* option) -> Result<std::optional<uint64_t>> {
      if (!text) return std::optional<uint64_t>();
      Result<uint64_t> b = ParseByteCount(*text);
      if (!b) return tl::unexpected(Usage(std::string(option) + ": " + b.error().message()));
      return std::optional<uint64_t>(*b);
    };
    CW_RETURN_IF_ERROR(duration(latency_, "--latency", n.latency));
    CW_RETURN_IF_ERROR(duration(overhead_, "--overhead", n.overhead));
    CW_RETURN_IF_ERROR(duration(gap_, "--gap", n.gap));
    CW_RETURN_IF_ERROR(duration(base_latency_, "--base-latency", n.base_latency));
    CW_RETURN_IF_ERROR(per_byte(bandwidth_, "--bandwidth", n.per_byte));
    CW_RETURN_IF_ERROR(per_byte(base_bandwidth_, "--base-bandwidth", n.base_per_byte));
    CW_ASSIGN_OR_RETURN(n.eager_limit, bytes(eager_limit_, "--eager-limit"));
    CW_ASSIGN_OR_RETURN(std::optional<uint64_t> base_eager,
                        bytes(base_eager_limit_, "--base-eager-limit"));
    if (base_eager) n.base_eager_limit = *base_eager;
    if (n.ideal && (n.latency || n.per_byte || n.overhead || n.gap || network_scale_)) {
      return tl::unexpected(Usage(
          "--network ideal has no latency, bandwidth limit or cost: it cannot be combined with "
          "--latency, --bandwidth, --overhead, --gap or --network-scale"));
    }
    if (noise_ && noise_file_) {
      return tl::unexpected(Usage("give --noise or --noise-file, not both"));
    }
    if (noise_) {
      CW_ASSIGN_OR_RETURN(p.noise, sim::ParseDistribution(*noise_));
    }
    if (noise_file_) {
      CW_ASSIGN_OR_RETURN(p.noise, sim::ReadEmpiricalDistribution(*noise_file_));
    }
    if (ranks_) {
      if (!p.noise.active()) {
        return tl::unexpected(Usage("--ranks chooses the ranks that get noise: give --noise too"));
      }
      CW_ASSIGN_OR_RETURN(p.noise_ranks, sim::ParseRankSet(*ranks_));
    }
    for (const std::string& spec : compute_scale_) {
      CW_ASSIGN_OR_RETURN(sim::ComputeScale scale, sim::ParseComputeScale(spec));
      p.compute.push_back(std::move(scale));
    }
    return p;
  }

  std::string trace_;
  std::string output_;
  std::string network_ = "measured";
  std::optional<double> network_scale_;
  std::optional<std::string> latency_, bandwidth_, overhead_, gap_, eager_limit_;
  std::optional<std::string> base_latency_, base_bandwidth_, base_eager_limit_;
  std::optional<std::string> noise_, noise_file_, ranks_;
  std::vector<std::string> compute_scale_;
  uint32_t runs_ = 1;
  uint64_t seed_ = 1;
  bool quiet_ = false;
  bool partial_ = false;
  bool write_trace_ = false;
  bool timings_ = false;
};

}  // namespace

std::unique_ptr<Subcommand> MakeWhatIfSubcommand() { return std::make_unique<WhatIfSubcommand>(); }

}  // namespace cw::cli
