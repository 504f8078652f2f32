/* Ends badly after MESSAGES messages from rank 0 to rank 1:
 *   crash_after_messages segv   rank 0 dies of SIGSEGV (mpirun then kills rank 1)
 *   crash_after_messages abort  rank 0 calls MPI_Abort
 *   crash_after_messages exit   rank 0 exits without MPI_Finalize
 *   crash_after_messages fatal  rank 0 sends to a rank that does not exist, and MPI's default
 *                               error handler (MPI_ERRORS_ARE_FATAL) ends the job
 *   crash_after_messages win_fatal  the same on a window (a lock of a rank it does not have)
 * Rank 1 receives every message, then waits in a barrier that rank 0 never reaches. The test
 * asserts that the trace holds every message on both sides. Usage: crash_after_messages MODE
 * [MESSAGES] */
#include <mpi.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char** argv) {
  int rank, value = 0;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  const char* mode = argc > 1 ? argv[1] : "segv";
  int messages = argc > 2 ? atoi(argv[2]) : 100;
  if (rank == 0) {
    for (int i = 0; i < messages; ++i) MPI_Send(&i, 1, MPI_INT, 1, 0, MPI_COMM_WORLD);
    /* Rank 1 has received them all before rank 0 goes down. */
    MPI_Recv(&value, 1, MPI_INT, 1, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    if (strcmp(mode, "abort") == 0) MPI_Abort(MPI_COMM_WORLD, 3);
    if (strcmp(mode, "exit") == 0) exit(0);
    if (strcmp(mode, "fatal") == 0) MPI_Send(&value, 1, MPI_INT, 99, 0, MPI_COMM_WORLD);
    if (strcmp(mode, "win_fatal") == 0) {
      /* A window's handler is MPI_ERRORS_ARE_FATAL whatever its communicator's. */
      MPI_Win win;
      MPI_Win_create(&value, sizeof value, sizeof value, MPI_INFO_NULL, MPI_COMM_WORLD, &win);
      MPI_Win_lock(MPI_LOCK_SHARED, 99, 0, win);
    }
    raise(SIGSEGV);
  } else if (rank == 1) {
    for (int i = 0; i < messages; ++i)
      MPI_Recv(&value, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Send(&value, 1, MPI_INT, 0, 1, MPI_COMM_WORLD);
    if (strcmp(mode, "win_fatal") == 0) {
      MPI_Win win;
      MPI_Win_create(&value, sizeof value, sizeof value, MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    }
  }
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Finalize();
  return 0;
}
