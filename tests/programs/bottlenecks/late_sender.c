/* Late Sender: in each of ROUNDS rounds rank 0 computes SLOW_MS, rank 1 BALANCED_MS less twice
 * over (the mean is BALANCED_MS), then rank 0 sends 8 bytes that rank 1 receives: rank 1 waits
 * in MPI_Recv for the send. With FIXED 1 both compute BALANCED_MS (the fixed variant).
 * Usage: late_sender ROUNDS SLOW_MS BALANCED_MS FIXED; run with 2 ranks. */
#include <mpi.h>

#include "bottleneck.h"

int main(int argc, char** argv) {
  int rank;
  double value = 0;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  const int rounds = (int)arg_or(argc, argv, 1, 10);
  const double slow = arg_or(argc, argv, 2, 30);
  const double balanced = arg_or(argc, argv, 3, 20);
  const int fixed = (int)arg_or(argc, argv, 4, 0);
  for (int round = 0; round < rounds; ++round) {
    if (rank == 0) {
      work_ms(fixed ? balanced : slow);
      MPI_Send(&value, 1, MPI_DOUBLE, 1, 0, MPI_COMM_WORLD);
    } else if (rank == 1) {
      work_ms(fixed ? balanced : 2 * balanced - slow);
      MPI_Recv(&value, 1, MPI_DOUBLE, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
  }
  MPI_Finalize();
  return 0;
}
