/* A contended MPI_Win_lock: for SECONDS every rank takes an exclusive lock on rank 0's window
 * again and again, puts 8 bytes and holds the lock for 2 ms (a read-modify-write done
 * remotely): each waits for the others' unlocks every time. Every rank does the same and all
 * stop at the same deadline, so nothing else is imbalanced.
 * Usage: contended_lock SECONDS; run with 3 ranks. */
#include <mpi.h>

#include "bottleneck.h"

int main(int argc, char** argv) {
  int rank;
  double local[8] = {0}, value = 1, start = 0;
  MPI_Win win;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  const double seconds = arg_or(argc, argv, 1, 0.6);
  MPI_Win_create(local, sizeof(local), sizeof(double), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
  /* Rank 0's clock decides the deadline for everybody. */
  if (rank == 0) start = MPI_Wtime();
  MPI_Bcast(&start, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  while (MPI_Wtime() < start + seconds) {
    MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 0, 0, win);
    MPI_Put(&value, 1, MPI_DOUBLE, 0, rank, 1, MPI_DOUBLE, win);
    MPI_Win_flush(0, win);
    work_ms(2);
    MPI_Win_unlock(0, win);
  }
  MPI_Win_free(&win);
  MPI_Finalize();
  return 0;
}
