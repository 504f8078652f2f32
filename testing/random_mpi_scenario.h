// Random MPI programs with consistent clocks, as scenarios: for property tests (the root-cause
// invariants must hold on any of them) and for comparisons with other tools on many traces
// (tools/compare_with_scalasca.sh).
//
// A program of 2-4 ranks: MPI_Init (ranks arrive at 1-3, leave together), then 6-15 steps, each
//   - work: most ranks run one of the functions w0, w1, w2 for 1-5 ticks;
//   - a message: a blocking MPI_Send (one tick; the send is eager) to a blocking MPI_Recv,
//     which ends 1-2 ticks after both have arrived (a Late Sender when the receiver was first);
//   - a collective on MPI_COMM_WORLD: MPI_Barrier, MPI_Allreduce, MPI_Bcast or MPI_Reduce (with
//     a random root); each rank leaves 1-2 ticks after the last one arrived;
// then MPI_Finalize (left together) inside main. One tick is one second. The same seed gives
// the same program.
#pragma once

#include <cstdint>

#include "testing/scenario.h"

namespace cw::testing {

Scenario RandomMpiScenario(uint32_t seed);

}  // namespace cw::testing
