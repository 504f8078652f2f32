#include "cli/advice_flags.h"

namespace cw::cli {

void AddAdviceOptions(CLI::App& app, AdviceFlags& flags) {
  analysis::AdviceParameters& p = flags.parameters;
  app.add_flag("--advice,!--no-advice", flags.advice,
               "find the bottlenecks automatically, their causes and what to do (report.json "
               "`advice`, summary.txt 'Bottlenecks and what to do'; docs/metrics.md): on by "
               "default, --no-advice leaves it out");
  app.add_option("--baselines", flags.baselines,
                 "the minimal time of each construct on this machine, written by `causeway "
                 "baseline` (implies --advice): bottleneck detection compares with it")
      ->check(CLI::ExistingFile);
  app.add_option("--hotspot-share", p.hotspot_share,
                 "bottleneck detection: least share of all time a call path must take (0.01)")
      ->check(CLI::Range(0.0, 1.0));
  app.add_option("--baseline-ratio", p.baseline_ratio,
                 "bottleneck detection: mean instance time / baseline above this is a "
                 "bottleneck (2)")
      ->check(CLI::Range(1.0, 1e9));
  app.add_option("--deviation-high", p.deviation_high,
                 "bottleneck detection without a baseline: longest instance / mean above this "
                 "is a bottleneck (2)")
      ->check(CLI::Range(1.0, 1e9));
  app.add_option("--deviation-low", p.deviation_low,
                 "bottleneck detection without a baseline: shortest instance / mean below this "
                 "is a bottleneck (0.5)")
      ->check(CLI::Range(0.0, 1.0));
  app.add_option("--predictions", flags.predictions,
                 "what-if replays that predict the runtime fixing the top findings saves (5; 0: "
                 "none)")
      ->check(CLI::Range(0, 1000));
  app.add_option("--imbalance", p.imbalance,
                 "load balance: a program block or call path whose slowest process exceeds the "
                 "mean by more than this share is imbalanced (0.25)")
      ->check(CLI::Range(0.0, 1e9));
  app.add_option("--frequent-count", p.frequent_count,
                 "frequency analysis: least calls of a call path on one location (1000)")
      ->check(CLI::Range(uint64_t{1}, UINT64_MAX));
  app.add_option("--frequent-mean", p.frequent_mean,
                 "frequency analysis: longest mean call, seconds (1e-5)")
      ->check(CLI::Range(0.0, 1e9));
  app.add_option("--transfer-run", p.transfer_run,
                 "frequency analysis: least consecutive transfers that make a run (8)")
      ->check(CLI::Range(uint64_t{2}, UINT64_MAX));
  app.add_option("--small-bytes", p.small_bytes,
                 "frequency analysis: largest transfer counted as small, bytes (4096)");
}

Result<std::optional<analysis::Baselines>> ReadBaselines(const AdviceFlags& flags) {
  if (flags.baselines.empty()) return std::optional<analysis::Baselines>();
  CW_ASSIGN_OR_RETURN(analysis::Baselines b, analysis::Baselines::Read(flags.baselines));
  return std::optional<analysis::Baselines>(std::move(b));
}

}  // namespace cw::cli
