/* A barrier that looks redundant but is needed: in each of ROUNDS rounds, rank 0 computes
 * 10 ms and writes a number to a file, everybody passes an MPI_Barrier, and rank 1 reads the
 * number back. No message crosses between the rounds' MPI_Allreduce and the barrier, so only
 * the file orders the two ranks: the trace must show that rank 0 wrote before the barrier, and
 * the barrier must never be called redundant. Prints the sum rank 1 read.
 * Usage: needed_barrier_file ROUNDS; run with 2 ranks. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "bottleneck.h"

int main(int argc, char** argv) {
  int rank;
  double in = 1, out = 0;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  const int rounds = (int)arg_or(argc, argv, 1, 10);
  long owner = (long)getpid();
  MPI_Bcast(&owner, 1, MPI_LONG, 0, MPI_COMM_WORLD);
  char path[256];
  const char* dir = getenv("TMPDIR");
  snprintf(path, sizeof path, "%s/causeway-needed-barrier-%ld", dir != NULL ? dir : "/tmp", owner);
  long sum = 0;
  for (int round = 0; round < rounds; ++round) {
    work_ms(10);
    if (rank == 0) {
      FILE* f = fopen(path, "w");
      if (f == NULL || fprintf(f, "%d\n", round) < 0 || fclose(f) != 0) MPI_Abort(MPI_COMM_WORLD, 1);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 1) {
      FILE* f = fopen(path, "r");
      int value = -1;
      if (f == NULL || fscanf(f, "%d", &value) != 1) MPI_Abort(MPI_COMM_WORLD, 2);
      fclose(f);
      sum += value;
    }
    MPI_Allreduce(&in, &out, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  }
  if (rank == 1) printf("read %ld\n", sum);
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 0) unlink(path);
  MPI_Finalize();
  return 0;
}
