/* Ping-pong in a marked loop: N iterations (argument 1, default 20); rank 0 sends 64 bytes and
 * receives the reply, rank 1 receives, computes `ms` milliseconds (argument 2, default 1) and
 * replies. Rank 0's graph: MPI_Send -> MPI_Recv taken N times, the back edge MPI_Recv ->
 * MPI_Send N - 1 times, the loop's entry and exit nodes once and N iterations; the application
 * graph has exactly two inter-process edges, one per direction. Run with 2 ranks. */
#include <causeway/causeway.h>
#include <mpi.h>
#include <stdlib.h>

#include "tag_work.h"

int main(int argc, char** argv) {
  int rank;
  char message[64] = {0};
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  const int n = argc > 1 ? atoi(argv[1]) : 20;
  const double ms = argc > 2 ? atof(argv[2]) : 1;
  CAUSEWAY_LOOP_BEGIN("pingpong");
  for (int i = 0; i < n; ++i) {
    CAUSEWAY_LOOP_ITERATION("pingpong");
    if (rank == 0) {
      MPI_Send(message, 64, MPI_CHAR, 1, 0, MPI_COMM_WORLD);
      MPI_Recv(message, 64, MPI_CHAR, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else if (rank == 1) {
      MPI_Recv(message, 64, MPI_CHAR, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      if (ms > 0) work_ms(ms);
      MPI_Send(message, 64, MPI_CHAR, 0, 0, MPI_COMM_WORLD);
    }
  }
  CAUSEWAY_LOOP_END("pingpong");
  MPI_Finalize();
  return 0;
}
