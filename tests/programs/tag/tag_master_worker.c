/* Master/worker with wildcard receives: R rounds (argument 1, default 10); each worker computes
 * 4 ms and sends 8 bytes to rank 0, which receives them with MPI_ANY_SOURCE from one call site,
 * in a loop it marks ("rounds"); a barrier ends each round, so that a worker that runs ahead
 * (4 ranks on 2 cores) cannot send a second result into the same round. The master's receive
 * node has one incoming edge per worker and a self-edge (receives in a row); its rounds' causal
 * paths differ by the order the results came in; the workers talk to the same absolute rank and
 * behave alike. Run with 4 ranks. */
#include <causeway/causeway.h>
#include <mpi.h>
#include <stdlib.h>

#include "tag_work.h"

int main(int argc, char** argv) {
  int rank, size;
  double result = 0;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const int rounds = argc > 1 ? atoi(argv[1]) : 10;
  if (rank == 0) CAUSEWAY_LOOP_BEGIN("rounds");
  for (int r = 0; r < rounds; ++r) {
    if (rank == 0) {
      CAUSEWAY_LOOP_ITERATION("rounds");
      for (int w = 1; w < size; ++w) {
        MPI_Recv(&result, 1, MPI_DOUBLE, MPI_ANY_SOURCE, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      }
    } else {
      work_ms(4);
      MPI_Send(&result, 1, MPI_DOUBLE, 0, 0, MPI_COMM_WORLD);
    }
    MPI_Barrier(MPI_COMM_WORLD);
  }
  if (rank == 0) CAUSEWAY_LOOP_END("rounds");
  MPI_Finalize();
  return 0;
}
