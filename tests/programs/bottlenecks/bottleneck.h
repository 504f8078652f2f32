/* Helpers of the bottleneck test programs (tests/advice/bottleneck_programs_test.cc): each
 * program holds exactly one of the bottlenecks of Su 2010's validation method, or none. */
#ifndef CW_TESTS_BOTTLENECK_H
#define CW_TESTS_BOTTLENECK_H

#include <stdlib.h>
#include <time.h>

/* Computation, as a sleep: with more ranks than cores a busy loop would measure the scheduler. */
static void work_ms(double ms) {
  const long ns = (long)(ms * 1e6);
  struct timespec ts = {ns / 1000000000L, ns % 1000000000L};
  nanosleep(&ts, NULL);
}

/* Milliseconds on the node's monotonic clock, which every process on the node shares. */
static double monotonic_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return 1e3 * (double)ts.tv_sec + 1e-6 * (double)ts.tv_nsec;
}

/* Computation until `ms` on monotonic_ms's clock: processes that work until common times keep a
 * common beat, so that the delays of the scheduler on an oversubscribed node never add up. */
static void work_until_ms(double ms) {
  const double ns = ms * 1e6;
  struct timespec ts = {(time_t)(ns / 1e9), (long)(ns - 1e9 * (double)(time_t)(ns / 1e9))};
  while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) != 0) {
  }
}

/* The program's argument `i`, or `fallback` when it is not given. */
static double arg_or(int argc, char** argv, int i, double fallback) {
  return argc > i ? atof(argv[i]) : fallback;
}

#endif
