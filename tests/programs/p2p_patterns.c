/* Point-to-point wait states other than a plain Late Sender (2 ranks):
 *   Late Receiver: rank 0 sends 1 MiB with MPI_Ssend, rank 1 computes 100 ms before posting
 *     the receive: rank 0 waits ~100 ms in MPI_Ssend;
 *   Wrong Order: rank 0 sends tag 1 at once and tag 2 after computing 100 ms; rank 1 receives
 *     tag 2 first: it waits ~100 ms for a message sent after one it could have received
 *     (Late Sender, wrong order, same source), then receives tag 1 at once;
 *   Waitall: rank 1 posts two receives and waits for both in MPI_Waitall while rank 0
 *     computes 100 ms before sending them: a Late Sender of ~100 ms in MPI_Waitall. */
#include <mpi.h>
#include <stdlib.h>
#include <time.h>

static void compute(long ns) {
  struct timespec ts = {ns / 1000000000L, ns % 1000000000L};
  nanosleep(&ts, NULL);
}

#define DELAY 100000000L
#define BIG (1 << 20)

int main(int argc, char** argv) {
  int rank, a = 1, b = 2;
  char* big = calloc(BIG, 1);
  MPI_Request requests[2];
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 0) {
    MPI_Ssend(big, BIG, MPI_CHAR, 1, 0, MPI_COMM_WORLD);
  } else if (rank == 1) {
    compute(DELAY);
    MPI_Recv(big, BIG, MPI_CHAR, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  }
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 0) {
    MPI_Send(&a, 1, MPI_INT, 1, 1, MPI_COMM_WORLD);
    compute(DELAY);
    MPI_Send(&b, 1, MPI_INT, 1, 2, MPI_COMM_WORLD);
  } else if (rank == 1) {
    MPI_Recv(&b, 1, MPI_INT, 0, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Recv(&a, 1, MPI_INT, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  }
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 0) {
    compute(DELAY);
    MPI_Send(&a, 1, MPI_INT, 1, 3, MPI_COMM_WORLD);
    MPI_Send(&b, 1, MPI_INT, 1, 4, MPI_COMM_WORLD);
  } else if (rank == 1) {
    MPI_Irecv(&a, 1, MPI_INT, 0, 3, MPI_COMM_WORLD, &requests[0]);
    MPI_Irecv(&b, 1, MPI_INT, 0, 4, MPI_COMM_WORLD, &requests[1]);
    MPI_Waitall(2, requests, MPI_STATUSES_IGNORE);
  }
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Finalize();
  free(big);
  return 0;
}
