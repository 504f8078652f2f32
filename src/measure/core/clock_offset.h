// This rank's clock against rank 0's: both measurement libraries (the tracer's clock points at
// MPI_Init and MPI_Finalize, the online task activity graphs' one offset) use it.
//
// Rank 0 exchanges kRounds round trips with each other rank in turn and keeps the one with the
// least delay: the other rank's clock is compared with the middle of rank 0's round trip.
//
// A clock that is the system's (CLOCK_MONOTONIC) is one clock for every process of a kernel and
// time namespace: ranks that share rank 0's (the same boot id and namespace offsets, broadcast
// from rank 0) take offset 0 without a round trip. On one node that is every rank, and the
// comparison costs two collectives instead of 5 round trips per rank one after the other, which
// on an oversubscribed node took tens of milliseconds at MPI_Init and again at MPI_Finalize; a
// measured offset would only add the round trip's asymmetry as error.
//
// Collective over `comm` (MPI_COMM_WORLD's ranks, in the library's own duplicate of it).
#pragma once

#include <mpi.h>

#include <cstdint>
#include <optional>
#include <string>

namespace cw::measure {

struct ClockComparison {
  int64_t local = 0;      // this rank's clock when it was compared (rank 0: when it finished)
  int64_t offset = 0;     // this rank's clock minus rank 0's (0 on rank 0)
  bool measured = false;  // compared by round trips (else: the same clock as rank 0's, or rank 0)
};

// `now`: the clock to compare (the library's timer). `clock_identity`, given on every rank or on
// none (CLOCK_MONOTONIC's: SystemClockIdentity()): the ranks whose identity is rank 0's, and not
// empty, take offset 0 without a round trip.
ClockComparison CompareClockWithRankZero(
    MPI_Comm comm, int rank, int size, uint64_t (*now)(),
    const std::optional<std::string>& clock_identity = std::nullopt);

// What identifies the CLOCK_MONOTONIC this process reads: the kernel's boot id and the time
// namespace's offsets; "" if they cannot be read (the clock is then measured).
std::string SystemClockIdentity();

}  // namespace cw::measure
