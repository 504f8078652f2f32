// This rank's clock against rank 0's, by ping-pong: both measurement libraries (the tracer's
// clock points at MPI_Init and MPI_Finalize, the online task activity graphs' one offset) use it.
//
// Rank 0 exchanges kRounds round trips with each other rank in turn and keeps the one with the
// least delay: the other rank's clock is compared with the middle of rank 0's round trip.
// Collective over `comm` (MPI_COMM_WORLD's ranks, in the library's own duplicate of it).
#pragma once

#include <mpi.h>

#include <cstdint>

namespace cw::measure {

struct ClockComparison {
  int64_t local = 0;   // this rank's clock when it was compared (rank 0: when it finished)
  int64_t offset = 0;  // this rank's clock minus rank 0's (0 on rank 0)
};

// `now`: the clock to compare (the library's timer).
ClockComparison CompareClockWithRankZero(MPI_Comm comm, int rank, int size, uint64_t (*now)());

}  // namespace cw::measure
