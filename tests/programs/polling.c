/* Busy polling on 2 ranks. Rank 1 posts a receive and calls MPI_Test until it completes, then
 * calls MPI_Iprobe until a second message is there and receives it; rank 0 computes 50 ms before
 * each send. Rank 1 prints how many MPI_Test and MPI_Iprobe calls it made: with polling
 * compaction the trace holds a few records of them, and counts every call as a visit. */
#include <mpi.h>
#include <stdio.h>
#include <time.h>

static void Compute(double seconds) {
  const double end = MPI_Wtime() + seconds;
  while (MPI_Wtime() < end) {
  }
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, value = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 0) {
    Compute(0.05);
    MPI_Send(&rank, 1, MPI_INT, 1, 1, MPI_COMM_WORLD);
    Compute(0.05);
    MPI_Send(&rank, 1, MPI_INT, 1, 2, MPI_COMM_WORLD);
  } else if (rank == 1) {
    long tests = 0, probes = 0;
    int done = 0;
    MPI_Request request;
    MPI_Irecv(&value, 1, MPI_INT, 0, 1, MPI_COMM_WORLD, &request);
    while (!done) {
      MPI_Test(&request, &done, MPI_STATUS_IGNORE);
      ++tests;
    }
    int found = 0;
    while (!found) {
      MPI_Iprobe(0, 2, MPI_COMM_WORLD, &found, MPI_STATUS_IGNORE);
      ++probes;
    }
    MPI_Recv(&value, 1, MPI_INT, 0, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    printf("tests=%ld iprobes=%ld\n", tests, probes);
  }
  MPI_Finalize();
  return 0;
}
