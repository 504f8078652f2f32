/* Many small messages to one target: in each of ROUNDS rounds each of 2 ranks puts COUNT
 * values of 8 bytes one by one into the other's window (MPI_Put in a passive-target epoch),
 * where one put of COUNT x 8 bytes would do. The ranks do the same, so neither waits for the
 * other: each round computes until a common beat of 150 ms (rank 0's clock, which the ranks on
 * one node share), so that the few milliseconds by which one rank's puts run behind the other's
 * on a loaded node never add up to a wait in MPI_Win_free. Usage: small_messages ROUNDS COUNT;
 * run with 2 ranks on one node. */
#include <mpi.h>
#include <stdlib.h>

#include "bottleneck.h"

int main(int argc, char** argv) {
  int rank;
  MPI_Win win;
  double* exposed;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  const int rounds = (int)arg_or(argc, argv, 1, 4);
  const int count = (int)arg_or(argc, argv, 2, 50000);
  double* values = calloc((size_t)count, sizeof(double));
  MPI_Win_allocate((MPI_Aint)(count * sizeof(double)), sizeof(double), MPI_INFO_NULL,
                   MPI_COMM_WORLD, &exposed, &win);
  const int peer = 1 - rank;
  double start = monotonic_ms();
  MPI_Bcast(&start, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  for (int round = 0; round < rounds; ++round) {
    work_until_ms(start + 150.0 * (round + 1));
    MPI_Win_lock_all(0, win);
    for (int i = 0; i < count; ++i) {
      MPI_Put(&values[i], 1, MPI_DOUBLE, peer, i, 1, MPI_DOUBLE, win);
    }
    MPI_Win_unlock_all(win);
  }
  MPI_Win_free(&win);
  free(values);
  MPI_Finalize();
  return 0;
}
