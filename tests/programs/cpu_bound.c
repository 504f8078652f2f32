/* Computation that needs a CPU: in each of STEPS steps every rank burns CPU_MS milliseconds of
 * its own CPU time (a loop on the thread's CPU clock, so the work is the same however long the
 * scheduler keeps the rank off a CPU), then all meet in MPI_Barrier. With more ranks than CPUs
 * the ranks take turns on the CPUs: the wall time of a step grows, the CPU time does not.
 * Usage: cpu_bound STEPS CPU_MS */
#include <mpi.h>
#include <stdlib.h>
#include <time.h>

static double cpu_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return 1e3 * (double)ts.tv_sec + 1e-6 * (double)ts.tv_nsec;
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  const int steps = argc > 1 ? atoi(argv[1]) : 10;
  const double work = argc > 2 ? atof(argv[2]) : 40;
  volatile double sink = 0;
  for (int step = 0; step < steps; ++step) {
    const double until = cpu_ms() + work;
    while (cpu_ms() < until) {
      for (int i = 0; i < 1000; ++i) sink = sink + 1e-9 * i;
    }
    MPI_Barrier(MPI_COMM_WORLD);
  }
  MPI_Finalize();
  return sink < 0;
}
