/* The online task activity graph's cost per MPI call (bench/run_tag_online_benchmark.sh runs it
 * with and without `causeway trace --tag`):
 *   tag-microbench test CALLS      every rank calls MPI_Test on MPI_REQUEST_NULL CALLS times (a
 *                                  call MPI answers at once: what remains is the graph's update)
 *   tag-microbench pingpong CALLS  ranks 0 and 1 exchange CALLS round trips of 8 bytes (each
 *                                  message also carries its piggyback)
 * and prints the time per call (per round trip). */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, flag;
  const char* mode = argc > 1 ? argv[1] : "test";
  long calls = argc > 2 ? atol(argv[2]) : 1000000L;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Request request = MPI_REQUEST_NULL;
  double value = 0;
  MPI_Barrier(MPI_COMM_WORLD);
  double start = MPI_Wtime();
  if (strcmp(mode, "pingpong") == 0) {
    for (long i = 0; i < calls; ++i) {
      if (rank == 0) {
        MPI_Send(&value, 1, MPI_DOUBLE, 1, 0, MPI_COMM_WORLD);
        MPI_Recv(&value, 1, MPI_DOUBLE, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      } else if (rank == 1) {
        MPI_Recv(&value, 1, MPI_DOUBLE, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Send(&value, 1, MPI_DOUBLE, 0, 0, MPI_COMM_WORLD);
      }
    }
  } else {
    for (long i = 0; i < calls; ++i) MPI_Test(&request, &flag, MPI_STATUS_IGNORE);
  }
  double seconds = MPI_Wtime() - start;
  double worst = 0;
  MPI_Reduce(&seconds, &worst, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
  if (rank == 0) printf("%.2f ns per %s\n", worst * 1e9 / (double)calls,
                        strcmp(mode, "pingpong") == 0 ? "round trip" : "call");
  MPI_Finalize();
  return 0;
}
