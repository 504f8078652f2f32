/* Late Sender: rank 0 computes for 200 ms before each of its sends, rank 1 receives at once.
 * Expected: rank 1 waits about 200 ms in each of the ITERATIONS receives (MPI_Recv, then an
 * MPI_Irecv completed by MPI_Wait), then everybody meets in MPI_Barrier.
 * Run with 2 ranks (extra ranks only take part in the barrier). */
#include <mpi.h>
#include <time.h>

#define ITERATIONS 2
#define DELAY_NS 200000000L

static void compute(long ns) {
  struct timespec ts = {ns / 1000000000L, ns % 1000000000L};
  nanosleep(&ts, NULL);
}

int main(int argc, char** argv) {
  int rank, value = 0;
  MPI_Request request;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  for (int i = 0; i < ITERATIONS; ++i) {
    if (rank == 0) {
      compute(DELAY_NS);
      MPI_Send(&i, 1, MPI_INT, 1, 10, MPI_COMM_WORLD);
      compute(DELAY_NS);
      MPI_Isend(&i, 1, MPI_INT, 1, 11, MPI_COMM_WORLD, &request);
      MPI_Wait(&request, MPI_STATUS_IGNORE);
    } else if (rank == 1) {
      MPI_Recv(&value, 1, MPI_INT, 0, 10, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      MPI_Irecv(&value, 1, MPI_INT, 0, 11, MPI_COMM_WORLD, &request);
      MPI_Wait(&request, MPI_STATUS_IGNORE);
    }
  }
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Finalize();
  return 0;
}
