/* A redundant barrier: each of ROUNDS rounds computes 10 ms, passes an MPI_Barrier, computes
 * another 10 ms and ends with an MPI_Allreduce. No process communicates between the allreduce
 * and the barrier, so the barrier orders nothing. Balanced: nobody waits long anywhere, so the
 * barrier costs almost nothing: listed as redundant, but no bottleneck.
 * Usage: redundant_barrier ROUNDS; run with 2 ranks. */
#include <mpi.h>

#include "bottleneck.h"

int main(int argc, char** argv) {
  int rank;
  double in = 1, out = 0;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  const int rounds = (int)arg_or(argc, argv, 1, 10);
  for (int round = 0; round < rounds; ++round) {
    work_ms(10);
    MPI_Barrier(MPI_COMM_WORLD);
    work_ms(10);
    MPI_Allreduce(&in, &out, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  }
  MPI_Finalize();
  return 0;
}
