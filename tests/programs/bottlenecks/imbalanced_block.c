/* Imbalanced blocks: each of ROUNDS blocks ends with an MPI_Allreduce; in even blocks rank 0
 * computes 60 ms and rank 1 20 ms, in odd blocks the other way round. Each rank computes as
 * much as the other in all (no process and no call path is imbalanced), yet every block is,
 * and its allreduce waits. Usage: imbalanced_block ROUNDS (even); run with 2 ranks. */
#include <mpi.h>

#include "bottleneck.h"

int main(int argc, char** argv) {
  int rank;
  double in = 1, out = 0;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  const int rounds = (int)arg_or(argc, argv, 1, 6);
  for (int round = 0; round < rounds; ++round) {
    work_ms((round + rank) % 2 == 0 ? 60 : 20);
    MPI_Allreduce(&in, &out, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  }
  MPI_Finalize();
  return 0;
}
