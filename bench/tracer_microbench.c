/* The cost of recording one event: every rank calls MPI_Test on MPI_REQUEST_NULL CALLS times
 * (a call MPI answers at once; causeway records its Enter and Leave, two events) and prints the
 * time per call. bench/run_tracer_benchmark.sh runs it with and without causeway trace.
 * Usage: tracer-microbench [CALLS] */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, flag;
  long calls = argc > 1 ? atol(argv[1]) : 2000000L;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Request request = MPI_REQUEST_NULL;
  MPI_Barrier(MPI_COMM_WORLD);
  double start = MPI_Wtime();
  for (long i = 0; i < calls; ++i) MPI_Test(&request, &flag, MPI_STATUS_IGNORE);
  double seconds = MPI_Wtime() - start;
  double worst = 0;
  MPI_Reduce(&seconds, &worst, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
  if (rank == 0) printf("%.2f ns per call\n", worst * 1e9 / (double)calls);
  MPI_Finalize();
  return 0;
}
