#include "sim/whatif.h"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "base/units.h"

namespace cw::sim {
namespace {

double Percentile(std::vector<double> values, double q) {
  if (values.empty()) return 0;
  std::sort(values.begin(), values.end());
  double pos = q * static_cast<double>(values.size() - 1);
  size_t lo = static_cast<size_t>(std::floor(pos));
  size_t hi = std::min(values.size() - 1, lo + 1);
  return values[lo] + (values[hi] - values[lo]) * (pos - static_cast<double>(lo));
}

constexpr uint64_t kSmallMessage = 4096;
constexpr uint64_t kLargeMessage = 65536;
constexpr size_t kMinimumSamples = 3;

// Fills in the traced network's latency and time per byte where the change needs them.
Status ResolveBaseline(const ReplayInput& input, Perturbation& perturbation,
                       std::optional<NetworkEstimate>& estimate) {
  NetworkChange& n = perturbation.network;
  bool need_latency = n.latency && !n.base_latency;
  bool need_per_byte = n.per_byte && !n.base_per_byte;
  if (!need_latency && !need_per_byte) return OkStatus();
  ReplayOptions probe;
  probe.collect_transfers = true;
  CW_ASSIGN_OR_RETURN(ReplayResult identity, RunReplay(input, probe));
  double tps = static_cast<double>(std::max<uint64_t>(1, input.defs->clock.resolution));
  estimate = EstimateNetwork(identity.transfers, tps);
  if (need_latency) {
    if (!estimate->latency) {
      return MakeError(ErrorCode::kInvalidArgument,
                       "--latency needs the traced network's latency, and this trace has too few "
                       "receives that waited for a small message to estimate it (" +
                           std::to_string(estimate->small_samples) +
                           "); give it with --base-latency");
    }
    n.base_latency = estimate->latency;
  }
  if (need_per_byte) {
    if (!estimate->per_byte) {
      return MakeError(ErrorCode::kInvalidArgument,
                       "--bandwidth needs the traced network's bandwidth, and this trace has too "
                       "few receives that waited for a large message to estimate it (" +
                           std::to_string(estimate->large_samples) +
                           "); give it with --base-bandwidth");
    }
    n.base_per_byte = estimate->per_byte;
  }
  return OkStatus();
}

}  // namespace

NetworkEstimate EstimateNetwork(std::span<const TransferSample> transfers,
                                double ticks_per_second) {
  NetworkEstimate estimate;
  std::vector<double> small;
  for (const TransferSample& t : transfers) {
    if (t.bytes <= kSmallMessage) small.push_back(static_cast<double>(t.ticks) / ticks_per_second);
  }
  estimate.small_samples = small.size();
  if (small.size() >= kMinimumSamples) estimate.latency = Percentile(small, 0.1);
  std::vector<double> per_byte;
  for (const TransferSample& t : transfers) {
    if (t.bytes < kLargeMessage) continue;
    double seconds = static_cast<double>(t.ticks) / ticks_per_second - estimate.latency.value_or(0);
    per_byte.push_back(std::max(0.0, seconds) / static_cast<double>(t.bytes));
  }
  estimate.large_samples = per_byte.size();
  if (per_byte.size() >= kMinimumSamples) estimate.per_byte = Percentile(per_byte, 0.1);
  return estimate;
}

double WhatIfResult::MeanPredicted() const {
  if (predicted_runtimes.empty()) return 0;
  return std::accumulate(predicted_runtimes.begin(), predicted_runtimes.end(), 0.0) /
         static_cast<double>(predicted_runtimes.size());
}

double WhatIfResult::Quantile(double q) const { return Percentile(predicted_runtimes, q); }

Result<WhatIfResult> RunWhatIf(const ReplayInput& input, const WhatIfOptions& options) {
  if (options.runs == 0) {
    return MakeError(ErrorCode::kInvalidArgument, "--runs must be at least 1");
  }
  WhatIfResult out;
  Perturbation perturbation = options.perturbation;
  CW_RETURN_IF_ERROR(ResolveBaseline(input, perturbation, out.estimate));
  out.changes = perturbation.Describe();
  double tps = static_cast<double>(std::max<uint64_t>(1, input.defs->clock.resolution));
  std::vector<CallpathShift> shifts;
  for (uint32_t run = 0; run < options.runs; ++run) {
    ReplayOptions replay;
    replay.perturbation = perturbation;
    replay.seed = options.seed + run;
    replay.observer = run == 0 ? options.observer : nullptr;
    CW_ASSIGN_OR_RETURN(ReplayResult r, RunReplay(input, replay));
    auto since_begin = [&](uint64_t t) {
      return static_cast<double>(static_cast<int64_t>(t - r.measured_begin)) / tps;
    };
    if (run == 0) {
      out.stats = r.stats;
      out.source_errors = r.source_errors;
      out.diagnostics = r.diagnostics;
      out.measured_runtime = since_begin(r.measured_end);
      out.predicted_ends.assign(r.locations.size(), 0);
      for (const LocationOutcome& o : r.locations) {
        out.measured_ends.push_back(o.events == 0 ? 0 : since_begin(o.measured_end));
      }
    }
    out.predicted_runtimes.push_back(since_begin(r.predicted_end));
    for (size_t l = 0; l < r.locations.size(); ++l) {
      if (r.locations[l].events == 0) continue;
      out.predicted_ends[l] += since_begin(r.locations[l].predicted_end) / options.runs;
    }
    if (shifts.size() < r.callpaths.size()) shifts.resize(r.callpaths.size());
    for (size_t cp = 0; cp < r.callpaths.size(); ++cp) {
      shifts[cp].absorbed += r.callpaths[cp].absorbed;
      shifts[cp].gained += r.callpaths[cp].gained;
      if (run == 0) shifts[cp].visits = r.callpaths[cp].visits;
    }
  }
  double scale = 1.0 / (tps * options.runs);
  for (uint32_t cp = 0; cp < shifts.size(); ++cp) {
    if (shifts[cp].absorbed == 0 && shifts[cp].gained == 0) continue;
    out.callpaths.push_back(CallpathEffect{cp, static_cast<double>(shifts[cp].absorbed) * scale,
                                           static_cast<double>(shifts[cp].gained) * scale,
                                           shifts[cp].visits});
  }
  std::sort(out.callpaths.begin(), out.callpaths.end(),
            [](const CallpathEffect& a, const CallpathEffect& b) {
              return std::fabs(a.gained - a.absorbed) > std::fabs(b.gained - b.absorbed);
            });
  return out;
}

Result<ReplayResult> ReplayOnIdealNetwork(const ReplayInput& input) {
  ReplayOptions options;
  options.perturbation.network.ideal = true;
  return RunReplay(input, options);
}

uint64_t PredictedSpan(const ReplayResult& replay, std::span<const uint32_t> locations) {
  uint64_t first = UINT64_MAX, last = 0;
  for (uint32_t l : locations) {
    if (l >= replay.locations.size() || replay.locations[l].events == 0) continue;
    first = std::min(first, replay.locations[l].first);
    last = std::max(last, replay.locations[l].predicted_end);
  }
  return last > first ? last - first : 0;
}

}  // namespace cw::sim
