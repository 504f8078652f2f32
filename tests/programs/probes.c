/* Probes (Haus 2024's situations, in our own code). Rank 0 computes 100 ms before each of three
 * sends; rank 1 finds each message with a different probe before receiving it:
 *   1. MPI_Probe (wildcard tag), then MPI_Recv of what it found: Late Sender of ~100 ms in
 *      MPI_Probe, none in the receive;
 *   2. MPI_Mprobe, then MPI_Mrecv of the matched message: ~100 ms in MPI_Mprobe;
 *   3. MPI_Improbe polled every millisecond, then MPI_Imrecv and MPI_Wait: no Late Sender (the
 *      successful probe started after the send).
 * Run with 2 ranks. */
#include <mpi.h>
#include <time.h>

static void compute(long ns) {
  struct timespec ts = {ns / 1000000000L, ns % 1000000000L};
  nanosleep(&ts, NULL);
}

int main(int argc, char** argv) {
  int rank, value = 0, flag = 0;
  MPI_Status status;
  MPI_Message message;
  MPI_Request request;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 0) {
    for (int tag = 1; tag <= 3; ++tag) {
      compute(100000000L);
      MPI_Send(&tag, 1, MPI_INT, 1, tag, MPI_COMM_WORLD);
    }
  } else if (rank == 1) {
    MPI_Probe(0, MPI_ANY_TAG, MPI_COMM_WORLD, &status);
    MPI_Recv(&value, 1, MPI_INT, status.MPI_SOURCE, status.MPI_TAG, MPI_COMM_WORLD,
             MPI_STATUS_IGNORE);
    MPI_Mprobe(0, MPI_ANY_TAG, MPI_COMM_WORLD, &message, &status);
    MPI_Mrecv(&value, 1, MPI_INT, &message, MPI_STATUS_IGNORE);
    while (!flag) {
      MPI_Improbe(0, 3, MPI_COMM_WORLD, &flag, &message, &status);
      if (!flag) compute(1000000L);
    }
    MPI_Imrecv(&value, 1, MPI_INT, &message, &request);
    MPI_Wait(&request, MPI_STATUS_IGNORE);
  }
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Finalize();
  return 0;
}
