/* One-sided communication on 3 ranks, each phase with one programmed delay of 100 ms:
 *   A. rank 1 computes before MPI_Win_create: ranks 0 and 2 wait ~100 ms (Wait at Create);
 *   B. fence epoch: every rank puts its rank into its right neighbour's window and gets its
 *      left neighbour's second element; rank 2 computes before its put and get: ranks 0 and 1
 *      wait ~100 ms in the closing MPI_Win_fence (Wait at Fence), all of it for the transfer
 *      that targets them (Early Fence: rank 2 puts to rank 0 and gets from rank 1);
 *   C. lock epochs: rank 0 holds an exclusive lock on rank 2's window for ~100 ms (a put, then
 *      compute, then unlock); after a barrier that lets it take the lock first, rank 1 asks for
 *      the same lock;
 *   D. post-start-complete-wait: rank 0 computes before MPI_Win_post to group {1}; rank 1
 *      starts an access epoch to {0}, puts and completes (a Late Post of ~100 ms, in whichever
 *      of start, put or complete the MPI library makes it wait); rank 0 waits for it;
 *   D2. the same epochs again, rank 0 posting at once; rank 1 puts, then computes before
 *      MPI_Win_complete: rank 0 waits ~100 ms in MPI_Win_wait (Early Wait), all of it after
 *      the put (Late Complete);
 *   E. a lock_all epoch with MPI_Accumulate, MPI_Get_accumulate, MPI_Fetch_and_op,
 *      MPI_Compare_and_swap and a request-based MPI_Rput, flushed;
 *   F. rank 0 computes before MPI_Win_free: ranks 1 and 2 wait ~100 ms (Wait at Free).
 * Operations per rank: B 1 put + 1 get; C rank 0 1 put, rank 1 1 put; D and D2 rank 1 1 put;
 * E 4 atomics + 1 put. The program checks the values it reads, and exits 1 if one is wrong. */
#include <mpi.h>
#include <stdio.h>
#include <time.h>

static void compute(long ns) {
  struct timespec ts = {ns / 1000000000L, ns % 1000000000L};
  nanosleep(&ts, NULL);
}

#define DELAY 100000000L

int main(int argc, char** argv) {
  int rank, size, errors = 0;
  int local[4] = {0, 0, 0, 0};
  MPI_Win win;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const int right = (rank + 1) % size, left = (rank + size - 1) % size;
  local[1] = 100 + rank;

  if (rank == 1) compute(DELAY);
  MPI_Win_create(local, sizeof(local), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
  MPI_Barrier(MPI_COMM_WORLD);

  /* B */
  int got = -1;
  MPI_Win_fence(0, win);
  if (rank == 2) compute(DELAY);
  MPI_Put(&rank, 1, MPI_INT, right, 0, 1, MPI_INT, win);
  MPI_Get(&got, 1, MPI_INT, left, 1, 1, MPI_INT, win);
  MPI_Win_fence(0, win);
  if (local[0] != left || got != 100 + left) ++errors;
  MPI_Barrier(MPI_COMM_WORLD);

  /* C */
  if (rank == 0) {
    MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 2, 0, win);
    MPI_Put(&rank, 1, MPI_INT, 2, 2, 1, MPI_INT, win);
    MPI_Win_flush(2, win);
    MPI_Barrier(MPI_COMM_WORLD);
    compute(DELAY);
    MPI_Win_unlock(2, win);
  } else {
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 1) {
      MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 2, 0, win);
      MPI_Put(&rank, 1, MPI_INT, 2, 3, 1, MPI_INT, win);
      MPI_Win_unlock(2, win);
    }
  }
  MPI_Barrier(MPI_COMM_WORLD);

  /* D and D2 */
  MPI_Group world_group, partner;
  MPI_Comm_group(MPI_COMM_WORLD, &world_group);
  if (rank == 0) {
    const int one = 1;
    MPI_Group_incl(world_group, 1, &one, &partner);
    compute(DELAY);
    MPI_Win_post(partner, 0, win);
    MPI_Win_wait(win);
    if (local[0] != 1) ++errors;
    local[0] = 0;
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Win_post(partner, 0, win);
    MPI_Win_wait(win);
    if (local[0] != 1) ++errors;
    MPI_Group_free(&partner);
  } else if (rank == 1) {
    const int zero = 0;
    MPI_Group_incl(world_group, 1, &zero, &partner);
    MPI_Win_start(partner, 0, win);
    MPI_Put(&rank, 1, MPI_INT, 0, 0, 1, MPI_INT, win);
    MPI_Win_complete(win);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Win_start(partner, 0, win);
    MPI_Put(&rank, 1, MPI_INT, 0, 0, 1, MPI_INT, win);
    compute(DELAY);
    MPI_Win_complete(win);
    MPI_Group_free(&partner);
  } else {
    MPI_Barrier(MPI_COMM_WORLD);
  }
  MPI_Group_free(&world_group);
  MPI_Barrier(MPI_COMM_WORLD);

  /* E */
  int one = 1, old = 0, compare = 0, result = 0, value = 7;
  MPI_Request request;
  MPI_Win_lock_all(0, win);
  MPI_Accumulate(&one, 1, MPI_INT, right, 3, 1, MPI_INT, MPI_SUM, win);
  MPI_Get_accumulate(&one, 1, MPI_INT, &old, 1, MPI_INT, right, 3, 1, MPI_INT, MPI_SUM, win);
  MPI_Fetch_and_op(&one, &old, MPI_INT, right, 3, MPI_SUM, win);
  MPI_Compare_and_swap(&value, &compare, &result, MPI_INT, right, 2, win);
  MPI_Rput(&value, 1, MPI_INT, left, 2, 1, MPI_INT, win, &request);
  MPI_Wait(&request, MPI_STATUS_IGNORE);
  MPI_Win_flush_all(win);
  MPI_Win_unlock_all(win);
  MPI_Barrier(MPI_COMM_WORLD);

  /* F */
  if (rank == 0) compute(DELAY);
  MPI_Win_free(&win);
  MPI_Finalize();
  if (errors != 0) fprintf(stderr, "rank %d: %d wrong values\n", rank, errors);
  return errors != 0;
}
