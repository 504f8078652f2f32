/* Sottile et al. 2006's token ring: a token travels round all ranks `traversals` times. Each rank works
 * `work_us` microseconds (busy, on the wall clock) before it passes the token on; rank
 * `slow_rank` works `slow_factor` times as long, so that a second run can check what the
 * what-if replay predicted from the first.
 *
 * Before the token starts, rank 0 works 100 ms more: on an oversubscribed machine a rank can
 * leave MPI_Init (or lose its core) well after rank 0, and the token must find every rank
 * already waiting in its first receive, so that no rank's start-up lies on the token's path.
 *
 *   mpirun -np 16 ring [traversals=10] [work_us=200] [slow_rank=-1] [slow_factor=1]
 */
#include <mpi.h>
#include <stdlib.h>
#include <time.h>

static double Now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static void Work(double us) {
  double end = Now() + us * 1e-6;
  while (Now() < end) {
  }
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int traversals = argc > 1 ? atoi(argv[1]) : 10;
  double work_us = argc > 2 ? atof(argv[2]) : 200;
  int slow_rank = argc > 3 ? atoi(argv[3]) : -1;
  double slow_factor = argc > 4 ? atof(argv[4]) : 1;
  if (rank == slow_rank) work_us *= slow_factor;
  int next = (rank + 1) % size, previous = (rank + size - 1) % size;
  int token = 0;
  if (rank == 0) Work(100000);
  for (int t = 0; t < traversals; ++t) {
    if (rank == 0) {
      Work(work_us);
      MPI_Send(&token, 1, MPI_INT, next, 0, MPI_COMM_WORLD);
      MPI_Recv(&token, 1, MPI_INT, previous, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else {
      MPI_Recv(&token, 1, MPI_INT, previous, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      Work(work_us);
      ++token;
      MPI_Send(&token, 1, MPI_INT, next, 0, MPI_COMM_WORLD);
    }
  }
  MPI_Finalize();
  return 0;
}
