/* The cost of recording OpenSHMEM calls: every PE calls shmem_my_pe CALLS times (recorded as an
 * Enter and a Leave, two events), then shmem_int_p to the next PE CALLS times (an Enter, an
 * RmaPut, its completion and a Leave, four events), and PE 0 prints the time per call of each
 * (the slowest PE's). bench/run_shmem_tracer_benchmark.sh runs it with and without causeway
 * trace. Usage: shmem-microbench [CALLS] */
#include <shmem.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static int target;
static double seconds[2];
static double worst[2];
static double pwrk[SHMEM_REDUCE_MIN_WRKDATA_SIZE];
static long psync[SHMEM_REDUCE_SYNC_SIZE];

static double Now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

int main(int argc, char** argv) {
  shmem_init();
  const long calls = argc > 1 ? atol(argv[1]) : 1000000L;
  const int me = shmem_my_pe();
  const int next = (me + 1) % shmem_n_pes();
  for (int i = 0; i < SHMEM_REDUCE_SYNC_SIZE; ++i) psync[i] = SHMEM_SYNC_VALUE;
  int sum = 0;
  shmem_barrier_all();
  double start = Now();
  for (long i = 0; i < calls; ++i) sum += shmem_my_pe();
  seconds[0] = Now() - start;
  shmem_barrier_all();
  start = Now();
  for (long i = 0; i < calls; ++i) shmem_int_p(&target, (int)i, next);
  seconds[1] = Now() - start;
  shmem_barrier_all();
  shmem_double_max_to_all(worst, seconds, 2, 0, 0, shmem_n_pes(), pwrk, psync);
  if (me == 0) {
    printf("%.2f ns per shmem_my_pe\n", worst[0] * 1e9 / (double)calls);
    printf("%.2f ns per shmem_int_p\n", worst[1] * 1e9 / (double)calls);
  }
  shmem_finalize();
  return sum == -1;
}
