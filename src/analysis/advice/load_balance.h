// The load-balance analyses of PPW §5.2.3, at three levels:
//   - per process: computation, communication and synchronisation time (from the generic types
//     of each call path's exclusive time; waiting in point-to-point calls is synchronisation),
//     and the processes with the most computation (the bottleneck processes);
//   - per program block, the intervals between consecutive global synchronisations (collective
//     operations of every process that synchronise all of them: barriers, all-to-all
//     collectives, OpenSHMEM barriers; MPI_Init and MPI_Finalize bound the first and the last):
//     each process's time in the block, max against mean;
//   - per call path across the processes (its exclusive time for local operations, inclusive
//     otherwise; processes that never visit it count as 0).
// An imbalanced block (max - mean above hotspot_share of all time and max/mean - 1 above
// `imbalance`) becomes an `imbalanced_block` finding at the synchronisation that ends it, an
// imbalanced local call path an `imbalanced_callpath` finding.
#pragma once

#include <span>
#include <vector>

#include "analysis/advice/advice_types.h"
#include "analysis/metrics/severity.h"
#include "match/sync_graph.h"
#include "trace/trace.h"

namespace cw::analysis {

struct GlobalInput {
  const trace::Trace* trace = nullptr;
  const match::SyncGraph* graph = nullptr;
  std::span<const GenericType> region_types;       // by region
  std::span<const LocationSeverities> severities;  // by location (empty: no p2p waits known)
  uint64_t total_time = 0;                         // TotalLocationTime
  std::span<const uint32_t> member_instance;       // by collective member: its instance
  unsigned threads = 1;
};

// A location's global synchronisation call (or its MPI_Init's end, or its MPI_Finalize's start).
struct Boundary {
  uint64_t enter;
  uint64_t leave;
  uint32_t callpath;
};

// What the locations whose events `in.trace` holds (every location in one process, a rank's own
// in an MPI analysis job) add to the load balance, per location with events, ascending.
struct LoadBalanceShare {
  std::vector<ProcessBalance> processes;
  std::vector<std::vector<Boundary>> boundaries;                      // in time order
  std::vector<std::vector<std::pair<uint32_t, uint64_t>>> callpaths;  // (call path, ticks)
};
LoadBalanceShare ShareLoadBalance(const GlobalInput& in);
// Adds another rank's share, keeping the locations in order.
void MergeLoadBalance(LoadBalanceShare& into, LoadBalanceShare&& share);
// The three levels from every location's share; appends the findings to `findings`.
LoadBalance FinishLoadBalance(const LoadBalanceShare& all, const GlobalInput& in,
                              const AdviceParameters& p, std::vector<AdviceFinding>& findings);
// Both, in one process.
LoadBalance AnalyzeLoadBalance(const GlobalInput& in, const AdviceParameters& p,
                               std::vector<AdviceFinding>& findings);

// By collective member of `graph`: the index of its instance.
std::vector<uint32_t> MemberInstances(const match::SyncGraph& graph);

// The collective instances after which every process has synchronised with every other.
std::vector<bool> GlobalSynchronisations(const trace::Trace& trace, const match::SyncGraph& graph);

}  // namespace cw::analysis
