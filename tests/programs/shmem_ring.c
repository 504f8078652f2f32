/* A token ring over OpenSHMEM waits for a value: PE 0 starts each round; every PE waits until
 * its flag holds the round number (shmem_int_wait_until), works WORK_US microseconds and puts
 * the round number into the next PE's flag (shmem_int_p). Every hop is on the critical path.
 * Optionally PE SLOW works FACTOR times as long (the what-if test compares a prediction with
 * such a run).
 * Usage: shmem_ring ROUNDS WORK_US [SLOW FACTOR] */
#include <shmem.h>
#include <stdlib.h>
#include <unistd.h>

static int flag;

int main(int argc, char** argv) {
  shmem_init();
  const int me = shmem_my_pe();
  const int n = shmem_n_pes();
  const int rounds = argc > 1 ? atoi(argv[1]) : 10;
  const double work_us = argc > 2 ? atof(argv[2]) : 10000;
  const int slow = argc > 3 ? atoi(argv[3]) : -1;
  const double factor = argc > 4 ? atof(argv[4]) : 1;
  const useconds_t work = (useconds_t)(me == slow ? work_us * factor : work_us);
  shmem_barrier_all();
  for (int round = 1; round <= rounds; ++round) {
    if (me != 0 || round > 1) shmem_int_wait_until(&flag, SHMEM_CMP_GE, me == 0 ? round - 1 : round);
    usleep(work);
    shmem_int_p(&flag, round, (me + 1) % n);
  }
  if (me == 0) shmem_int_wait_until(&flag, SHMEM_CMP_GE, rounds);
  shmem_barrier_all();
  shmem_finalize();
  return 0;
}
