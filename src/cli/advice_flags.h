// The options of `causeway analyze`'s automatic bottleneck analysis (analysis/advice/): whether
// it runs, its thresholds and the baselines file.
#pragma once

#include <optional>
#include <string>

#include <CLI/CLI.hpp>

#include "analysis/advice/advice_types.h"
#include "analysis/advice/baselines.h"
#include "base/status.h"

namespace cw::cli {

struct AdviceFlags {
  bool advice = true;     // on unless --no-advice
  std::string baselines;  // a file written by `causeway baseline`
  analysis::AdviceParameters parameters;
  int predictions = 5;  // what-if replays that predict the savings of the top findings

  bool enabled() const { return advice || !baselines.empty(); }
};

void AddAdviceOptions(CLI::App& app, AdviceFlags& flags);

// The baselines file, read and checked before any work is done (nullopt without one).
Result<std::optional<analysis::Baselines>> ReadBaselines(const AdviceFlags& flags);

}  // namespace cw::cli
