/* A control program without a bottleneck: in each of ROUNDS rounds every rank computes 20 ms,
 * exchanges 8 bytes with both neighbours on a ring (MPI_Sendrecv) and joins an MPI_Allreduce.
 * Usage: control_balanced ROUNDS; run with 3 ranks. */
#include <mpi.h>

#include "bottleneck.h"

int main(int argc, char** argv) {
  int rank, size;
  double in = 1, out = 0, left = 0, right = 0;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const int rounds = (int)arg_or(argc, argv, 1, 10);
  const int next = (rank + 1) % size, previous = (rank + size - 1) % size;
  for (int round = 0; round < rounds; ++round) {
    work_ms(20);
    MPI_Sendrecv(&in, 1, MPI_DOUBLE, next, 0, &left, 1, MPI_DOUBLE, previous, 0, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
    MPI_Sendrecv(&in, 1, MPI_DOUBLE, previous, 1, &right, 1, MPI_DOUBLE, next, 1,
                 MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Allreduce(&in, &out, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  }
  MPI_Finalize();
  return 0;
}
