// Cause analysis (PPW §5.2.2, Table 5-2): for each bottleneck instance, the remote operations
// inside its time window that made it slow, and so its pattern:
//   - a member of a collective operation: the members it can wait for (a broadcast's root, ...)
//     that entered after it did and before it ended (Wait on group synchronisation);
//   - else a wait the wait-state analysis charged to the call (its edges): a receive's Late
//     Sender, a send's Late Receiver, a lock's holder, the write that ended a wait for a value,
//     an epoch's partners;
//   - else a one-sided transfer: the other processes' transfers to the same target inside its
//     window (Competing put/get);
//   - else no remote cause: the operation itself was slow (the network, contention from outside
//     the program, a bad algorithm), which is what sets it apart from a wait state.
// The waits come from the analysis's synchronisation edges, so Late Sender and Late Receiver
// have their standard meaning (PPW's Table 5-2 prints them swapped).
#pragma once

#include <span>
#include <vector>

#include "analysis/advice/advice_types.h"
#include "analysis/advice/detection.h"
#include "analysis/waitstates/sync_edges.h"
#include "comm/communicator.h"
#include "match/sync_graph.h"
#include "trace/partition.h"
#include "trace/trace.h"

namespace cw::analysis {

struct CauseInput {
  const trace::Trace* trace = nullptr;
  const match::SyncGraph* graph = nullptr;
  std::span<const WaitEdge> edges;  // waiter events inside the waiting call or its Enter
  std::span<const GenericType> region_types;
  std::span<const DetectedBottleneck> bottlenecks;
  // By location, the Enter events of a set of instances that holds every instance of the
  // bottlenecks' call paths, in event order (WalkedLocations::candidate_instances): read instead
  // of every event of the location. Empty: every event is read.
  std::span<const std::vector<uint32_t>> instances;
  unsigned threads = 1;
  // An MPI analysis job: this rank's communicator and the job's partition; `trace` holds the
  // events of this rank's locations only, the others' calls are asked of their ranks.
  comm::Communicator* comm = nullptr;
  const trace::Partition* partition = nullptr;
};

// One finding per bottleneck, in the same order, with what the locations whose events `trace`
// holds add to it: its locations, bottleneck instances, pattern counts and causes (every rank
// of a job calls it). MergeCauses adds another rank's share; FinishCauses orders the locations
// and causes and sets each pattern (the one with most bottleneck time).
std::vector<AdviceFinding> AnalyzeCauses(const CauseInput& in);
void MergeCauses(std::vector<AdviceFinding>& into, const std::vector<AdviceFinding>& share);
void FinishCauses(std::vector<AdviceFinding>& findings);

// The finding pattern of a wait-state edge.
AdvicePattern PatternOfWait(SyncPattern p);

}  // namespace cw::analysis
