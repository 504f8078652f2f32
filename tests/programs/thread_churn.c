/* MPI_THREAD_MULTIPLE with a new thread for every task: on each of 2 ranks, 300 threads one after
 * the other (more than causeway's 255 thread slots), each exchanging one message with the other
 * rank's thread of the same iteration (MPI_Sendrecv on a duplicated communicator that only these
 * threads use), while the main thread waits for it. Prints the sum of what was received. */
#include <mpi.h>
#include <pthread.h>
#include <stdio.h>

#define TASKS 300

static MPI_Comm side;
static int rank, peer;
static long received;

static void* task(void* arg) {
  int out = (int)(long)arg + 1000 * rank, in = 0;
  MPI_Sendrecv(&out, 1, MPI_INT, peer, 5, &in, 1, MPI_INT, peer, 5, side, MPI_STATUS_IGNORE);
  received += in;
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
  for (long i = 0; i < TASKS; ++i) {
    pthread_t thread;
    pthread_create(&thread, NULL, task, (void*)i);
    pthread_join(thread, NULL);
  }
  MPI_Barrier(MPI_COMM_WORLD);
  printf("rank %d received %ld\n", rank, received);
  MPI_Comm_free(&side);
  MPI_Finalize();
  return 0;
}
