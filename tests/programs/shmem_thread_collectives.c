/* OpenSHMEM collectives from a thread other than the main one (SHMEM_THREAD_MULTIPLE), on 2 PEs:
 * a thread of each PE calls shmem_barrier_all 5 times, PE 0's after computing 100 ms, so that
 * PE 1's thread waits that long in the first; the main threads only start and join the thread.
 * Prints the thread level and the PEs' sum. */
#include <pthread.h>
#include <shmem.h>
#include <stdio.h>
#include <time.h>

static long counter;

static void Compute(double seconds) {
  struct timespec start, now;
  clock_gettime(CLOCK_MONOTONIC, &start);
  do {
    clock_gettime(CLOCK_MONOTONIC, &now);
  } while ((double)(now.tv_sec - start.tv_sec) + 1e-9 * (double)(now.tv_nsec - start.tv_nsec) <
           seconds);
}

static void* Worker(void* arg) {
  (void)arg;
  if (shmem_my_pe() == 0) Compute(0.1);
  for (int k = 0; k < 5; ++k) {
    shmem_long_atomic_inc(&counter, 0);
    shmem_barrier_all();
  }
  return NULL;
}

int main(void) {
  int provided = 0;
  shmem_init_thread(SHMEM_THREAD_MULTIPLE, &provided);
  if (provided != SHMEM_THREAD_MULTIPLE) {
    printf("SHMEM_THREAD_MULTIPLE is not supported\n");
    shmem_finalize();
    return 2;
  }
  pthread_t thread;
  pthread_create(&thread, NULL, Worker, NULL);
  pthread_join(thread, NULL);
  if (shmem_my_pe() == 0) printf("counter %ld on %d PEs\n", counter, shmem_n_pes());
  shmem_finalize();
  return 0;
}
