/* The bottleneck-free microbenchmark `causeway baseline` traces to measure the minimal time of
 * each construct on this machine (analysis/advice/baselines.h). Every measured call starts
 * right after a barrier, so that no process waits for a late partner: barriers, the common
 * collectives, blocking and synchronous sends and receives between pairs of ranks, one-sided
 * puts, gets and flushes to the right neighbour, and exclusive locks of the right neighbour's
 * window (no two ranks lock the same target), each over message sizes from 8 bytes to 256 KiB.
 * Usage: causeway-baseline-bench [REPETITIONS] */
#include <mpi.h>
#include <stdlib.h>
#include <string.h>

static const int kSizes[] = {8, 64, 512, 4096, 32768, 262144};
#define SIZES (int)(sizeof(kSizes) / sizeof(kSizes[0]))
#define LARGEST 262144

/* A send (MPI_Ssend if `synchronous`) of n bytes to a receive the partner posted before a
 * barrier, so that neither waits for the other beyond the transfer; both ranks call it. */
static void ToPostedReceive(int sender, int synchronous, char* send, char* recv, int n,
                            int partner, int tag) {
  if (!sender) {
    MPI_Request req;
    MPI_Irecv(recv, n, MPI_BYTE, partner, tag, MPI_COMM_WORLD, &req);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Wait(&req, MPI_STATUS_IGNORE);
  } else {
    MPI_Barrier(MPI_COMM_WORLD);
    if (synchronous) {
      MPI_Ssend(send, n, MPI_BYTE, partner, tag, MPI_COMM_WORLD);
    } else {
      MPI_Send(send, n, MPI_BYTE, partner, tag, MPI_COMM_WORLD);
    }
  }
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const int repetitions = argc > 1 ? atoi(argv[1]) : 20;
  char* send = malloc((size_t)LARGEST * (size_t)size);
  char* recv = malloc((size_t)LARGEST * (size_t)size);
  memset(send, 1, (size_t)LARGEST * (size_t)size);
  MPI_Win win;
  char* exposed;
  MPI_Win_allocate(LARGEST, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &exposed, &win);
  const int right = (rank + 1) % size;

  for (int r = 0; r < repetitions; ++r) MPI_Barrier(MPI_COMM_WORLD);
  for (int s = 0; s < SIZES; ++s) {
    const int n = kSizes[s];
    for (int r = 0; r < repetitions; ++r) {
      MPI_Barrier(MPI_COMM_WORLD);
      MPI_Bcast(send, n, MPI_BYTE, 0, MPI_COMM_WORLD);
      MPI_Barrier(MPI_COMM_WORLD);
      MPI_Allreduce(send, recv, n / 8, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
      MPI_Barrier(MPI_COMM_WORLD);
      MPI_Reduce(send, recv, n / 8, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
      MPI_Barrier(MPI_COMM_WORLD);
      MPI_Allgather(send, n, MPI_BYTE, recv, n, MPI_BYTE, MPI_COMM_WORLD);
      MPI_Barrier(MPI_COMM_WORLD);
      MPI_Alltoall(send, n, MPI_BYTE, recv, n, MPI_BYTE, MPI_COMM_WORLD);
      MPI_Barrier(MPI_COMM_WORLD);
      MPI_Gather(send, n, MPI_BYTE, recv, n, MPI_BYTE, 0, MPI_COMM_WORLD);
      MPI_Barrier(MPI_COMM_WORLD);
      MPI_Scatter(send, n, MPI_BYTE, recv, n, MPI_BYTE, 0, MPI_COMM_WORLD);
      /* Pairs (0, 1), (2, 3), ...: the even rank sends, then the odd one. The receive is
       * posted first, so that neither waits for the other beyond the transfer. */
      const int partner = rank ^ 1;
      if (partner < size) {
        for (int turn = 0; turn < 2; ++turn) {
          const int sender = (rank % 2) == turn;
          ToPostedReceive(sender, 0, send, recv, n, partner, s);
          MPI_Barrier(MPI_COMM_WORLD);
          if (sender) {
            MPI_Send(send, n, MPI_BYTE, partner, s, MPI_COMM_WORLD);
          } else {
            MPI_Recv(recv, n, MPI_BYTE, partner, s, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
          }
          /* A synchronous send to a posted receive: the handshake without waiting. */
          ToPostedReceive(sender, 1, send, recv, n, partner, s);
        }
      } else {
        for (int k = 0; k < 6; ++k) MPI_Barrier(MPI_COMM_WORLD);
      }
      MPI_Barrier(MPI_COMM_WORLD);
      MPI_Win_lock_all(0, win);
      MPI_Put(send, n, MPI_BYTE, right, 0, n, MPI_BYTE, win);
      MPI_Win_flush(right, win);
      MPI_Get(recv, n, MPI_BYTE, right, 0, n, MPI_BYTE, win);
      MPI_Win_flush(right, win);
      MPI_Win_unlock_all(win);
    }
  }
  for (int r = 0; r < repetitions; ++r) {
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Win_lock(MPI_LOCK_EXCLUSIVE, right, 0, win);
    MPI_Win_unlock(right, win);
  }
  MPI_Win_free(&win);
  free(send);
  free(recv);
  MPI_Finalize();
  return 0;
}
