/* Barrier imbalance: in each of ROUNDS rounds every rank posts the exchange of 8 bytes with its
 * ring neighbours, the last rank computes SLOW_MS and the others less, so that the mean is
 * BALANCED_MS; then all meet in MPI_Barrier, where the others wait for the last rank, and
 * complete the exchange. With FIXED 1 every rank computes BALANCED_MS (the fixed variant).
 * Usage: barrier_imbalance ROUNDS SLOW_MS BALANCED_MS FIXED; run with 3 ranks. */
#include <mpi.h>

#include "bottleneck.h"

int main(int argc, char** argv) {
  int rank, size;
  double out = 1, in = 0;
  MPI_Request requests[2];
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const int rounds = (int)arg_or(argc, argv, 1, 10);
  const double slow = arg_or(argc, argv, 2, 40);
  const double balanced = arg_or(argc, argv, 3, 20);
  const int fixed = (int)arg_or(argc, argv, 4, 0);
  /* The others share what the slow rank does beyond the mean. */
  const double fast = size > 1 ? balanced - (slow - balanced) / (size - 1) : balanced;
  for (int round = 0; round < rounds; ++round) {
    MPI_Irecv(&in, 1, MPI_DOUBLE, (rank + size - 1) % size, 0, MPI_COMM_WORLD, &requests[0]);
    MPI_Isend(&out, 1, MPI_DOUBLE, (rank + 1) % size, 0, MPI_COMM_WORLD, &requests[1]);
    work_ms(fixed ? balanced : rank == size - 1 ? slow : fast);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Waitall(2, requests, MPI_STATUSES_IGNORE);
  }
  MPI_Finalize();
  return 0;
}
