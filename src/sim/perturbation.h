// The conditions a what-if replay changes (docs/whatif.md explains each one).
//
// Everything is relative to the traced run: computation keeps its measured durations unless a
// scale or noise changes them; communication keeps its measured costs unless the network model
// changes them. All durations here are seconds; the replay converts them to the trace's ticks.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "base/status.h"
#include "sim/distribution.h"
#include "trace/enums.h"

namespace cw::sim {

// A set of MPI ranks ("0-3,8"); empty means every rank.
class RankSet {
 public:
  bool all() const { return ranges_.empty(); }
  bool Contains(uint32_t rank) const;
  std::string Describe() const;
  friend Result<RankSet> ParseRankSet(std::string_view text);

 private:
  std::vector<std::pair<uint32_t, uint32_t>> ranges_;  // inclusive
};
Result<RankSet> ParseRankSet(std::string_view text);

// Computation of `region` (anything below it on the call stack; empty: all computation) on
// `ranks` takes `factor` times its measured duration; with `location` set, on that location
// alone (one thread of a process). With `callpath` set (and `region` empty), the computation of
// that call path alone, not of the call paths below it: the bottleneck analysis shortens the
// exclusive time it measured of one call path on one thread. Neither has a command-line form.
struct ComputeScale {
  std::string region;
  double factor = 1;
  RankSet ranks;
  uint32_t location = trace::kNone;
  uint32_t callpath = trace::kNone;
};
// "0.5" (all computation), "solve=0.5" (region solve), with an optional "@RANKS" suffix:
// "solve=2@1", "0.5@0-3".
Result<ComputeScale> ParseComputeScale(std::string_view spec);

// How the network differs from the traced one.
struct NetworkChange {
  // Ideal network: zero latency and infinite bandwidth; MPI calls take no time of their own and
  // wait only for their partners (POP's ideal-network replay).
  bool ideal = false;
  // Factor on every measured communication cost (a network `cost_factor` times slower).
  double cost_factor = 1;
  // LogGP parameters of the network to predict (seconds; per_byte = 1 / bandwidth). Each one given
  // replaces the traced network's value (`base_*`) in every transfer's time.
  std::optional<double> latency;
  std::optional<double> per_byte;
  std::optional<double> overhead;  // CPU time per message, sender and receiver: added to the calls
  std::optional<double> gap;       // least time between two message injections of a process
  std::optional<uint64_t> eager_limit;
  // The traced network (estimated from the trace unless given).
  std::optional<double> base_latency;
  std::optional<double> base_per_byte;
  uint64_t base_eager_limit = 64 * 1024;  // sends above it waited for their receive (rendezvous)

  bool ChangesTransfers() const { return latency || per_byte; }
};

// The calls of one call path (an MPI or OpenSHMEM call's, by id): removed (they take no time
// and synchronise with nobody, as if the program did not make them; every member of a
// collective must be removed alike), or their own cost, the time after their dependencies,
// capped. The automatic bottleneck analysis's predicted savings use them
// (driver/predicted_saving.h); they have no command-line form.
struct CallChange {
  uint32_t callpath = UINT32_MAX;
  bool remove = false;
  std::optional<double> max_cost;  // seconds
};

// Computation on `location` between the timestamps `begin` and `end` (the trace's ticks) takes
// `factor` times its measured duration, on top of the compute rules: the bottleneck analysis
// balances one imbalanced program block of one process with it. No command-line form.
struct ComputeWindow {
  uint32_t location = trace::kNone;
  uint64_t begin = 0;
  uint64_t end = 0;
  double factor = 1;
};

struct Perturbation {
  NetworkChange network;
  std::vector<ComputeScale> compute;   // later rules win where several apply
  std::vector<ComputeWindow> windows;  // on one location, disjoint
  std::vector<CallChange> calls;
  Distribution noise;  // added once per computation phase
  RankSet noise_ranks;
  bool Empty() const;
  // One line per change, for reports: "network: ideal", "noise: exp:mean=2 us on ranks 0-3".
  std::vector<std::string> Describe() const;
};

}  // namespace cw::sim
