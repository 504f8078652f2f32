/* Lock hand-overs on an MPI window, on 3 ranks: in each round rank 1 takes an exclusive lock on
 * rank 0's window, puts, and holds it while it works HOLD_US microseconds; rank 2 asks for the
 * same lock once rank 1 has it (a barrier orders them), puts and unlocks, then works WORK_US.
 * Rank 1 goes to the round's closing barrier as soon as it unlocked; with WORK_US > HOLD_US the
 * round's length is HOLD_US + WORK_US, and rank 1's hold reaches the barrier only through the
 * lock it hands to rank 2. Optionally rank SLOW holds or works FACTOR times as long (the what-if
 * test compares a prediction with such a run).
 * Usage: rma_lock_handover ROUNDS HOLD_US WORK_US [SLOW FACTOR] */
#include <mpi.h>
#include <stdlib.h>
#include <unistd.h>

int main(int argc, char** argv) {
  int rank, value = 0;
  int local[2] = {0, 0};
  MPI_Win win;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  const int rounds = argc > 1 ? atoi(argv[1]) : 5;
  const double hold_us = argc > 2 ? atof(argv[2]) : 10000;
  const double work_us = argc > 3 ? atof(argv[3]) : 30000;
  const int slow = argc > 4 ? atoi(argv[4]) : -1;
  const double factor = argc > 5 ? atof(argv[5]) : 1;
  const double scale = rank == slow ? factor : 1;
  MPI_Win_create(local, sizeof(local), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
  for (int round = 0; round < rounds; ++round) {
    value = round;
    if (rank == 1) {
      MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 0, 0, win);
      MPI_Put(&value, 1, MPI_INT, 0, 0, 1, MPI_INT, win);
      MPI_Win_flush(0, win);
      MPI_Barrier(MPI_COMM_WORLD);
      usleep((useconds_t)(hold_us * scale));
      MPI_Win_unlock(0, win);
    } else {
      MPI_Barrier(MPI_COMM_WORLD);
      if (rank == 2) {
        MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 0, 0, win);
        MPI_Put(&value, 1, MPI_INT, 0, 1, 1, MPI_INT, win);
        MPI_Win_unlock(0, win);
        usleep((useconds_t)(work_us * scale));
      }
    }
    MPI_Barrier(MPI_COMM_WORLD);
  }
  MPI_Win_free(&win);
  MPI_Finalize();
  return 0;
}
