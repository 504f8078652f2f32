/* MPI_THREAD_MULTIPLE: on each of 2 ranks a second thread exchanges 10 messages with the other
 * rank's thread (MPI_Sendrecv on a duplicated communicator) while the main thread runs 5
 * barriers. Rank 0's thread computes 100 ms before its first exchange, so rank 1's thread waits
 * that long in its first MPI_Sendrecv (Late Sender). causeway records each thread on a location
 * of its own. */
#include <mpi.h>
#include <pthread.h>
#include <stdio.h>
#include <time.h>

static MPI_Comm side;
static int rank, peer;

static void* exchange(void* arg) {
  (void)arg;
  int out = 1, in = 0;
  if (rank == 0) {
    struct timespec delay = {0, 100000000L};
    nanosleep(&delay, NULL);
  }
  for (int i = 0; i < 10; ++i)
    MPI_Sendrecv(&out, 1, MPI_INT, peer, 0, &in, 1, MPI_INT, peer, 0, side, MPI_STATUS_IGNORE);
  return NULL;
}

int main(int argc, char** argv) {
  int provided;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
  if (provided < MPI_THREAD_MULTIPLE) {
    printf("MPI_THREAD_MULTIPLE is not supported\n");
    MPI_Finalize();
    return 2;
  }
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  peer = rank ^ 1;
  MPI_Comm_dup(MPI_COMM_WORLD, &side);
  pthread_t thread;
  pthread_create(&thread, NULL, exchange, NULL);
  for (int i = 0; i < 5; ++i) MPI_Barrier(MPI_COMM_WORLD);
  pthread_join(thread, NULL);
  MPI_Comm_free(&side);
  MPI_Finalize();
  return 0;
}
