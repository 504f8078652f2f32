#include "cli/advice_flags.h"

namespace cw::cli {

void AddAdviceOptions(CLI::App& app, AdviceFlags& flags) {
  analysis::AdviceParameters& p = flags.parameters;
  app.add_flag("--advice", flags.advice,
               "find the bottlenecks automatically, their causes and what to do (report.json "
               "`advice`, summary.txt 'Bottlenecks and what to do'; docs/metrics.md)");
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
}

Result<std::optional<analysis::Baselines>> ReadBaselines(const AdviceFlags& flags) {
  if (flags.baselines.empty()) return std::optional<analysis::Baselines>();
  CW_ASSIGN_OR_RETURN(analysis::Baselines b, analysis::Baselines::Read(flags.baselines));
  return std::optional<analysis::Baselines>(std::move(b));
}

}  // namespace cw::cli
