/* Persistent requests and non-blocking collectives. Rank 0 computes 100 ms before starting
 * each of ITERATIONS persistent sends to rank 1, which starts its persistent receive at once
 * and waits in MPI_Wait (Late Sender of ~100 ms each). Then every rank starts an
 * MPI_Iallreduce and an MPI_Ibarrier and completes both with one MPI_Waitall.
 * Run with 2 or more ranks. */
#include <mpi.h>
#include <time.h>

#define ITERATIONS 3

static void compute(long ns) {
  struct timespec ts = {ns / 1000000000L, ns % 1000000000L};
  nanosleep(&ts, NULL);
}

int main(int argc, char** argv) {
  int rank, value = 0, sum = 0;
  MPI_Request persistent = MPI_REQUEST_NULL, collectives[2];
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 0) MPI_Send_init(&value, 1, MPI_INT, 1, 5, MPI_COMM_WORLD, &persistent);
  if (rank == 1) MPI_Recv_init(&value, 1, MPI_INT, 0, 5, MPI_COMM_WORLD, &persistent);
  for (int i = 0; i < ITERATIONS && rank <= 1; ++i) {
    if (rank == 0) compute(100000000L);
    MPI_Start(&persistent);
    MPI_Wait(&persistent, MPI_STATUS_IGNORE);
  }
  if (rank <= 1) MPI_Request_free(&persistent);
  MPI_Iallreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &collectives[0]);
  MPI_Ibarrier(MPI_COMM_WORLD, &collectives[1]);
  MPI_Waitall(2, collectives, MPI_STATUSES_IGNORE);
  MPI_Finalize();
  return 0;
}
