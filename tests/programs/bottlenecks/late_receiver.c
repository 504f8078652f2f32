/* Late Receiver: in each of ROUNDS rounds rank 1 computes 30 ms and rank 0 10 ms, then rank 0
 * sends synchronously (MPI_Ssend) to rank 1, which receives: rank 0 waits in MPI_Ssend for the
 * receive. Usage: late_receiver ROUNDS; run with 2 ranks. */
#include <mpi.h>

#include "bottleneck.h"

int main(int argc, char** argv) {
  int rank;
  double value = 0;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  const int rounds = (int)arg_or(argc, argv, 1, 10);
  for (int round = 0; round < rounds; ++round) {
    if (rank == 0) {
      work_ms(10);
      MPI_Ssend(&value, 1, MPI_DOUBLE, 1, 0, MPI_COMM_WORLD);
    } else if (rank == 1) {
      work_ms(30);
      MPI_Recv(&value, 1, MPI_DOUBLE, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
  }
  MPI_Finalize();
  return 0;
}
