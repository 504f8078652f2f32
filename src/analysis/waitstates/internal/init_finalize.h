// Wait at Finalize and Initialization Completion (private).
#pragma once

#include <vector>

#include "analysis/waitstates/internal/context.h"

namespace cw::analysis::internal {

// The first MPI_Init(_thread) and MPI_Finalize call of every location, and the global extremes.
struct InitFinalize {
  struct Call {
    uint32_t enter = trace::kNone;
    int64_t entered = 0;
    int64_t left = 0;
  };
  std::vector<Call> init;  // by location; enter == kNone if the location has none
  std::vector<Call> finalize;
  int64_t init_latest_enter = 0;
  int64_t init_earliest_leave = 0;
  int64_t finalize_latest_enter = 0;
  uint32_t finalize_latest_location = trace::kNone;

  // Computes the extremes from `init` and `finalize`.
  void Summarize();
};

// MPI_Init gets only a completion time (time after the first process left): a wait in MPI_Init
// would be blamed on code that ran before the measurement started. MPI_Finalize gets the time
// until the last process entered it.
void ApplyInitFinalize(const Context& ctx, uint32_t location, const InitFinalize& calls,
                       LocationOutput& out);

// MPI_Init and MPI_Finalize as synchronisation groups of every location that called them, and
// each location's first call of both. Distributed, the calls of other ranks' locations are
// known, their events are not: their members have no event.
void CollectInitFinalizeGroups(const Context& ctx, const InitFinalize& calls, SyncEdges& sync);

}  // namespace cw::analysis::internal
