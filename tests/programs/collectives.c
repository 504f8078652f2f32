/* Wait states in collective operations, each phase with one programmed delay of 100 ms
 * (3 ranks; phases separated by barriers nobody is late for):
 *   A. rank 2 computes before MPI_Barrier: ranks 0 and 1 wait ~100 ms (Wait at Barrier);
 *   B. rank 2 computes before MPI_Allreduce: ranks 0 and 1 wait ~100 ms (Wait at N x N);
 *   C. the root (0) computes before MPI_Bcast: ranks 1 and 2 wait ~100 ms (Late Broadcast);
 *   D. ranks 1 and 2 compute before MPI_Reduce to root 0: the root waits ~100 ms (Early Reduce);
 *   E. MPI_Comm_split into even and odd ranks; rank 2 computes before MPI_Allreduce on the even
 *      communicator {0, 2}: rank 0 waits ~100 ms (Wait at N x N), and rank 1, which has no
 *      part in it, waits ~100 ms in the next barrier;
 *   F. a periodic 1-D MPI_Cart_create and an MPI_Neighbor_alltoall (recorded as its region).
 * Totals: barrier 0.3 s, N x N 0.3 s, late broadcast 0.2 s, early reduce 0.1 s. */
#include <mpi.h>
#include <time.h>

static void compute(long ns) {
  struct timespec ts = {ns / 1000000000L, ns % 1000000000L};
  nanosleep(&ts, NULL);
}

#define DELAY 100000000L

int main(int argc, char** argv) {
  int rank, size, in = 1, out = 0, buf[8] = {0}, recv[8];
  MPI_Comm half, ring;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);

  if (rank == 2) compute(DELAY);
  MPI_Barrier(MPI_COMM_WORLD);

  if (rank == 2) compute(DELAY);
  MPI_Allreduce(&in, &out, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  MPI_Barrier(MPI_COMM_WORLD);

  if (rank == 0) compute(DELAY);
  MPI_Bcast(buf, 8, MPI_INT, 0, MPI_COMM_WORLD);
  MPI_Barrier(MPI_COMM_WORLD);

  if (rank != 0) compute(DELAY);
  MPI_Reduce(&in, &out, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
  MPI_Barrier(MPI_COMM_WORLD);

  MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &half);
  if (rank == 2) compute(DELAY);
  if (rank % 2 == 0) MPI_Allreduce(&in, &out, 1, MPI_INT, MPI_SUM, half);
  MPI_Barrier(MPI_COMM_WORLD);

  int dims[1] = {size}, periods[1] = {1};
  MPI_Cart_create(MPI_COMM_WORLD, 1, dims, periods, 0, &ring);
  MPI_Neighbor_alltoall(buf, 1, MPI_INT, recv, 1, MPI_INT, ring);
  MPI_Comm_free(&ring);
  MPI_Comm_free(&half);
  MPI_Finalize();
  return 0;
}
