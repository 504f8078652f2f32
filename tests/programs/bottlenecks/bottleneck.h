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

/* The program's argument `i`, or `fallback` when it is not given. */
static double arg_or(int argc, char** argv, int i, double fallback) {
  return argc > i ? atof(argv[i]) : fallback;
}

#endif
