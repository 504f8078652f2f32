/* MPI_THREAD_MULTIPLE with threads that share MPI_COMM_WORLD: on each of 2 ranks, 2 threads
 * each exchange 100 messages with the thread of the same number on the other rank (tag = the
 * thread's number, receives from MPI_ANY_SOURCE), then thread 1 of each rank sends one message
 * to its own rank, which thread 0 receives. Rank 0's thread 0 computes 100 ms before its first
 * send (after a message from rank 1's thread 0 that it is ready), so rank 1's thread 0 waits
 * that long in its first receive (a Late Sender on a thread's location). Then thread 1 of each
 * rank calls MPI_Allreduce 5 times, rank 0's another 100 ms after rank 1's says it is ready (Wait
 * at N x N on rank 1's thread); the main threads make only the final barrier. Last, a new thread of
 * rank 0 sends 10 messages that rank 1's main thread receives. Prints the sums received. */
#include <mpi.h>
#include <pthread.h>
#include <stdio.h>

#define MESSAGES 100

static int rank, peer;
static long sums[2];

static void Compute(double seconds) {
  const double end = MPI_Wtime() + seconds;
  while (MPI_Wtime() < end) {
  }
}

static void* Exchange(void* arg) {
  const int me = (int)(long)arg;
  long sum = 0;
  if (me == 0) {
    /* Rank 1's thread 0 says it is ready before rank 0's computes: the wait that follows is the
     * 100 ms, however much later one rank's thread started than the other's. */
    int ready = 0;
    if (rank == 0) {
      MPI_Recv(&ready, 1, MPI_INT, peer, 99, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      Compute(0.1);
    } else {
      MPI_Send(&ready, 1, MPI_INT, peer, 99, MPI_COMM_WORLD);
    }
  }
  for (int i = 0; i < MESSAGES; ++i) {
    int out = 1000 * rank + 10 * me + i % 10, in = 0;
    if (rank == 0) {
      MPI_Send(&out, 1, MPI_INT, peer, me, MPI_COMM_WORLD);
      MPI_Recv(&in, 1, MPI_INT, MPI_ANY_SOURCE, me, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else {
      MPI_Recv(&in, 1, MPI_INT, MPI_ANY_SOURCE, me, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      MPI_Send(&out, 1, MPI_INT, peer, me, MPI_COMM_WORLD);
    }
    sum += in;
  }
  int self = 7 + rank;
  if (me == 1) {
    MPI_Send(&self, 1, MPI_INT, rank, 9, MPI_COMM_WORLD);
  } else {
    MPI_Recv(&self, 1, MPI_INT, rank, 9, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    sum += self;
  }
  /* Collectives from a thread other than the main one: thread 1 of each rank, after rank 0's
   * computes another 100 ms, so that rank 1's thread 1 waits that long in the first. */
  if (me == 1) {
    int ready = 0; /* as for thread 0: the wait is the 100 ms, not the threads' skew */
    if (rank == 0) {
      MPI_Recv(&ready, 1, MPI_INT, peer, 98, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      Compute(0.1);
    } else {
      MPI_Send(&ready, 1, MPI_INT, peer, 98, MPI_COMM_WORLD);
    }
    for (int k = 0; k < 5; ++k) {
      int total = 0;
      MPI_Allreduce(&rank, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
      sum += total;
    }
  }
  sums[me] = sum;
  return NULL;
}

/* A thread of rank 0 sends 10 messages that rank 1's main thread receives. */
static void* SendTen(void* arg) {
  (void)arg;
  for (int i = 0; i < 10; ++i) MPI_Send(&i, 1, MPI_INT, 1, 20, MPI_COMM_WORLD);
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
  pthread_t threads[2];
  for (long t = 0; t < 2; ++t) pthread_create(&threads[t], NULL, Exchange, (void*)t);
  for (int t = 0; t < 2; ++t) pthread_join(threads[t], NULL);
  MPI_Barrier(MPI_COMM_WORLD);
  long main_sum = 0;
  if (rank == 0) {
    pthread_t sender;
    pthread_create(&sender, NULL, SendTen, NULL);
    pthread_join(sender, NULL);
  } else {
    for (int i = 0; i < 10; ++i) {
      int value = 0;
      MPI_Recv(&value, 1, MPI_INT, 0, 20, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      main_sum += value;
    }
  }
  printf("rank %d: %ld %ld %ld\n", rank, sums[0], sums[1], main_sum);
  MPI_Finalize();
  return 0;
}
