/* A barrier that orders what a trace cannot show: in each of 3 rounds PE 0 computes 40 ms, then
 * stores the round's number into a symmetric variable with a plain local store; shmem_barrier_all
 * orders that store before PE 1 reads the variable with shmem_long_g; a second barrier keeps the
 * next round's store after the read. No transfer happens between the second barrier of one round
 * and the first of the next: the trace shows nothing the first barrier orders, yet without it PE
 * 1 would read the previous round's value (the program checks, and exits with 1 if it does).
 * The first barrier is called from publish (its own call path, main/publish/shmem_barrier_all).
 * Expected of the bottleneck analysis: a possibly redundant barrier there (symmetric memory),
 * never "remove the barrier", and no predicted saving. Run with 2 PEs. */
#include <shmem.h>
#include <stdio.h>
#include <time.h>

static long value;  /* symmetric: a global variable */

static void work_ms(long ms) {
  struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
  nanosleep(&ts, NULL);
}

/* Orders the local stores before it with the reads after it. (The empty statement after the
 * call keeps it out of tail position: a tail call would leave no frame of publish.) */
__attribute__((noinline)) void publish(void) {
  shmem_barrier_all();
  __asm__ volatile("");
}

int main(void) {
  shmem_init();
  const int me = shmem_my_pe();
  int wrong = 0;
  for (long round = 1; round <= 3; ++round) {
    if (me == 0) {
      work_ms(40);
      value = round;
    }
    publish();
    if (me == 1 && shmem_long_g(&value, 0) != round) wrong = 1;
    shmem_barrier_all();
  }
  if (wrong) fprintf(stderr, "PE 1 read a stale value\n");
  shmem_finalize();
  return wrong;
}
