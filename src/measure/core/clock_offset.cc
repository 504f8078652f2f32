#include "measure/core/clock_offset.h"

namespace cw::measure {

ClockComparison CompareClockWithRankZero(MPI_Comm comm, int rank, int size, uint64_t (*now)()) {
  constexpr int kRounds = 5;
  ClockComparison result;
  if (rank == 0) {
    for (int r = 1; r < size; ++r) {
      uint64_t best_rtt = ~uint64_t{0};
      int64_t best[2] = {0, 0};  // the other rank's clock, and its offset
      for (int k = 0; k < kRounds; ++k) {
        const uint64_t t0 = now();
        uint64_t remote = 0;
        PMPI_Send(&t0, 1, MPI_UINT64_T, r, 1, comm);
        PMPI_Recv(&remote, 1, MPI_UINT64_T, r, 2, comm, MPI_STATUS_IGNORE);
        const uint64_t t1 = now();
        if (t1 - t0 < best_rtt) {
          best_rtt = t1 - t0;
          best[0] = static_cast<int64_t>(remote);
          best[1] = static_cast<int64_t>(remote) - static_cast<int64_t>(t0 + (t1 - t0) / 2);
        }
      }
      PMPI_Send(best, 2, MPI_INT64_T, r, 3, comm);
    }
    result.local = static_cast<int64_t>(now());
    return result;
  }
  for (int k = 0; k < kRounds; ++k) {
    uint64_t t0 = 0;
    PMPI_Recv(&t0, 1, MPI_UINT64_T, 0, 1, comm, MPI_STATUS_IGNORE);
    const uint64_t t = now();
    PMPI_Send(&t, 1, MPI_UINT64_T, 0, 2, comm);
  }
  int64_t best[2] = {0, 0};
  PMPI_Recv(best, 2, MPI_INT64_T, 0, 3, comm, MPI_STATUS_IGNORE);
  result.local = best[0];
  result.offset = best[1];
  return result;
}

}  // namespace cw::measure
