// `causeway whatif`: replays a trace under changed conditions, once or many times, and
// summarises what the change does to the runtime, each location and each call path.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "base/status.h"
#include "sim/perturbation.h"
#include "sim/replay.h"

namespace cw::sim {

// The traced network, as its messages show it: only receives that waited for their message
// tell how long a transfer took (from the send's start to the receive's end).
struct NetworkEstimate {
  std::optional<double> latency;   // seconds: the time of a message of at most 4 KiB
  std::optional<double> per_byte;  // seconds per byte, from messages of at least 64 KiB
  uint64_t small_samples = 0;
  uint64_t large_samples = 0;
};
// The 10th percentile of small transfers gives the latency; that of (time - latency) / size
// over large ones the time per byte. The low percentile keeps the transfers in which the
// sender was not itself held up. Needs at least 3 samples of each kind.
NetworkEstimate EstimateNetwork(std::span<const TransferSample> transfers, double ticks_per_second);

struct WhatIfOptions {
  Perturbation perturbation;
  uint32_t runs = 1;  // replays with seeds seed, seed + 1, ...
  uint64_t seed = 1;
  ReplayObserver* observer = nullptr;  // sees the events of the first run
};

struct CallpathEffect {
  uint32_t callpath = 0;
  double absorbed = 0;  // seconds, mean over runs (see CallpathShift)
  double gained = 0;
  uint64_t visits = 0;
};

struct WhatIfResult {
  std::vector<std::string> changes;        // Perturbation::Describe()
  double measured_runtime = 0;             // seconds, first to last event
  std::vector<double> predicted_runtimes;  // one per run
  // Per location, seconds since the trace's first event: measured end and mean predicted end.
  std::vector<double> measured_ends;
  std::vector<double> predicted_ends;
  std::vector<CallpathEffect> callpaths;    // call paths the change moved, by |gained - absorbed|
  ReplayStats stats;                        // of the first run
  std::optional<NetworkEstimate> estimate;  // when the traced network had to be estimated
  std::vector<std::string> source_errors;
  Diagnostics diagnostics;  // what reading the trace repaired or found wrong (first run)

  double MeanPredicted() const;
  double Quantile(double q) const;  // of the predicted runtimes
};

Result<WhatIfResult> RunWhatIf(const ReplayInput& input, const WhatIfOptions& options);

// The replay on an ideal network, whose PredictedSpan over the CPU locations is POP's T_ideal
// (serialisation and transfer efficiency).
Result<ReplayResult> ReplayOnIdealNetwork(const ReplayInput& input);
// First to last event of `locations` in a replay (ticks).
uint64_t PredictedSpan(const ReplayResult& replay, std::span<const uint32_t> locations);

}  // namespace cw::sim
