/* Shared by the task activity graph's test programs: computation that takes `ms` milliseconds
 * of wall-clock time without a CPU (the tests oversubscribe two cores). */
#ifndef CAUSEWAY_TESTS_TAG_WORK_H_
#define CAUSEWAY_TESTS_TAG_WORK_H_
#include <time.h>

static void work_ms(double ms) {
  struct timespec t;
  t.tv_sec = (time_t)(ms / 1000);
  t.tv_nsec = (long)((ms - (double)t.tv_sec * 1000) * 1e6);
  nanosleep(&t, NULL);
}

#endif
