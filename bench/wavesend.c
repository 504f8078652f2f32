/* A WaveSend-like program (Sikora et al. 2016's §9.2 example, in outline): rank 0 broadcasts the
 * problem, every rank runs ITERATIONS steps of a 1-D wave update exchanging its boundary values
 * with its neighbours (MPI_Irecv, MPI_Isend, MPI_Waitall, then computation), and rank 0
 * gathers the result. bench/run_tag_online_benchmark.sh records it online at 4 to 32 ranks to
 * measure the size of its graphs.  Usage: wavesend [ITERATIONS] [POINTS] */
#include <mpi.h>
#include <stdlib.h>
#include <string.h>

static void step(double* u, double* previous, int n) {
  for (int i = 1; i <= n; ++i) {
    const double next = 2 * u[i] - previous[i] + 0.1 * (u[i - 1] - 2 * u[i] + u[i + 1]);
    previous[i] = u[i];
    u[i] = next;
  }
}

static void exchange(double* u, int n, int rank, int size) {
  MPI_Request requests[4];
  int k = 0;
  if (rank > 0) {
    MPI_Irecv(&u[0], 1, MPI_DOUBLE, rank - 1, 0, MPI_COMM_WORLD, &requests[k++]);
    MPI_Isend(&u[1], 1, MPI_DOUBLE, rank - 1, 0, MPI_COMM_WORLD, &requests[k++]);
  }
  if (rank < size - 1) {
    MPI_Irecv(&u[n + 1], 1, MPI_DOUBLE, rank + 1, 0, MPI_COMM_WORLD, &requests[k++]);
    MPI_Isend(&u[n], 1, MPI_DOUBLE, rank + 1, 0, MPI_COMM_WORLD, &requests[k++]);
  }
  MPI_Waitall(k, requests, MPI_STATUSES_IGNORE);
}

int main(int argc, char** argv) {
  int rank, size;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const int iterations = argc > 1 ? atoi(argv[1]) : 1000;
  int n = argc > 2 ? atoi(argv[2]) : 2000;
  MPI_Bcast(&n, 1, MPI_INT, 0, MPI_COMM_WORLD);
  double* u = calloc((size_t)n + 2, sizeof(double));
  double* previous = calloc((size_t)n + 2, sizeof(double));
  for (int i = 1; i <= n; ++i) u[i] = previous[i] = (rank == 0 && i < 10) ? 1.0 : 0.0;
  for (int t = 0; t < iterations; ++t) {
    exchange(u, n, rank, size);
    step(u, previous, n);
  }
  double* all = rank == 0 ? malloc((size_t)n * (size_t)size * sizeof(double)) : NULL;
  MPI_Gather(&u[1], n, MPI_DOUBLE, all, n, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  free(all);
  free(u);
  free(previous);
  MPI_Finalize();
  return 0;
}
