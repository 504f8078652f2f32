// The wait-state analysis of MPI programs (Böhme 2013 §2.4, with Scalasca 2.6's definitions).
//
// Computes, per location and call path: the time tree (time, execution, comp, mpi and its
// sub-categories), visits, the point-to-point wait states (Late Sender, Late Sender / Wrong
// Order, Late Receiver; a probed message's Late Sender is the probe's, Haus 2024 §3.3), the
// collective wait states (Wait at Barrier, Barrier Completion, Wait at N x N, N x N Completion,
// Late Broadcast, Early Reduce, Early Scan), Wait at Finalize and Initialization Completion, and
// message, synchronisation and byte counts. It also counts clock-condition violations and keeps the
// most severe instances of each pattern.
//
// Every value is computed once by the location that owns it, so results are the same for any
// thread count. docs/metrics.md gives each definition; the places where causeway deliberately
// differs from Scalasca are marked there.
//
//   match::SyncGraph graph = match::MatchTrace(trace, threads);
//   WaitStateResult r = AnalyzeWaitStates(trace, graph, {.threads = threads});
//   double ls_ticks = r.severities[loc].Get(MetricId::kMpiLateSender, callpath);
#pragma once

#include <cstdint>
#include <vector>

#include "analysis/metrics/severity.h"
#include "analysis/waitstates/sync_edges.h"
#include "comm/communicator.h"
#include "match/sync_graph.h"
#include "trace/partition.h"
#include "trace/trace.h"

namespace cw::analysis {

struct ClockViolations {
  uint64_t p2p = 0;         // receives whose send record is later than the receive record
  uint64_t collective = 0;  // collective members that left before the last one entered
  uint64_t probe = 0;       // probes that ended before the send record of their message
};

struct WaitStateOptions {
  unsigned threads = 1;
  size_t instances_per_metric = 10;  // most severe instances kept per metric
  bool sync_edges = true;            // emit WaitStateResult::sync for the root-cause analyses
  // A probe that found a message is where its receiver waited for it (Haus 2024 §3.3). false:
  // as Scalasca 2.6, which has no probe support (--semantics scalasca): the probe is plain MPI
  // time and only the receive can wait.
  bool probes_wait = true;
  // Fill SyncEdges::completions (--semantics scalasca).
  bool interval_completions = false;
  // One-sided synchronisation (MPI fences, epochs and locks; OpenSHMEM barriers, collectives,
  // locks and waits for a value) synchronises processes for the root-cause analyses: its waits
  // become edges and its barriers groups. false under Scalasca's semantics, which follows none.
  bool one_sided_sync = true;
  // v-collectives whose trace says which processes send each member data (causeway's tracer,
  // trace/collective_senders.h) wait for those senders (mpi_wait_senders): MPI_Alltoallv/w,
  // and MPI_Allgatherv instead of N x N. false under Scalasca's semantics, which analyses
  // Alltoallv/w not at all and Allgatherv as N x N.
  bool sender_waits = true;
  // One rank of an MPI analysis job (trace and graph hold its share; match::MatchOwnedLocations):
  // the ranks exchange each location's MPI_Init and MPI_Finalize calls, the outcomes of the
  // collective instances they built and their one-sided epochs. Values are complete for the
  // rank's own locations; `sync` holds its own waiters' edges and its locations' groups.
  comm::Communicator* comm = nullptr;
  const trace::Partition* partition = nullptr;
};

struct WaitStateResult {
  std::vector<LocationSeverities> severities;  // indexed by location
  std::vector<Instance> instances;             // most severe first
  std::vector<uint64_t> instance_counts;       // by metric: every instance found, kept or not
  ClockViolations violations;
  SyncEdges sync;  // for the root-cause analyses
};

WaitStateResult AnalyzeWaitStates(const trace::Trace& trace, const match::SyncGraph& graph,
                                  const WaitStateOptions& options);

}  // namespace cw::analysis
