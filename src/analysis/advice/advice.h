// The automatic bottleneck analysis of Su 2010 (PPW ch. 5), written against the generic
// operation types (analysis/generic/): detection (detection.h) finds the call paths whose
// instances took longer than they should, cause analysis (cause_analysis.h) finds for each of
// their slow instances the remote operations that caused it; the global analyses add the load
// balance at three levels (load_balance.h), redundant barriers (barrier_redundancy.h) and the
// frequency analysis (frequency.h). Each finding gets resolution hints (hints.h); findings are
// ranked by the time their bottleneck instances took beyond what was expected of them.
//
//   Advice a = AnalyzeAdvice({&trace, &graph, edges, region_types}, {});
#pragma once

#include <optional>
#include <span>

#include "analysis/advice/advice_types.h"
#include "analysis/advice/baselines.h"
#include "analysis/metrics/severity.h"
#include "analysis/waitstates/sync_edges.h"
#include "comm/communicator.h"
#include "match/sync_graph.h"
#include "trace/partition.h"
#include "trace/trace.h"

namespace cw::analysis {

struct AdviceInput {
  const trace::Trace* trace = nullptr;
  const match::SyncGraph* graph = nullptr;
  std::span<const WaitEdge> edges;            // the wait-state analysis's synchronisation edges
  std::span<const GenericType> region_types;  // by region
  std::span<const LocationSeverities> severities;  // the wait states, by location
  const Baselines* baselines = nullptr;
  std::optional<std::string> baselines_path;
  unsigned threads = 1;
};

Advice AnalyzeAdvice(const AdviceInput& in, const AdviceParameters& parameters);

// The same as one rank of an MPI analysis job, whose `in.trace` holds the events of its own
// locations (those `partition` gives it) and `in.graph`, `in.edges` and `in.severities` theirs:
// every rank calls it; the first returns what AnalyzeAdvice returns for the whole trace.
std::optional<Advice> AnalyzeAdviceAsJobRank(const AdviceInput& in,
                                             const AdviceParameters& parameters,
                                             comm::Communicator& comm,
                                             const trace::Partition& partition);

// The time a finding's bottleneck instances took beyond what was expected of them (ticks): the
// baseline, or the call path's mean instance. Findings without a predicted saving rank by it.
double ExcessTime(const AdviceFinding& f);

}  // namespace cw::analysis
