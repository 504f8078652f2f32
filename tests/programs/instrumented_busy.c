/* Compiled with -finstrument-functions, and busy on the CPU inside an instrumented function, so
 * that the tracer's CPU-time samples fall inside it. In a user region "steps", each of 3
 * iterations: busy_work spins for 40 ms of CPU time in its callee spin (static, not inlined),
 * then exchange holds an MPI_Barrier. Run with 2 ranks. Expected with instrumented functions
 * and user regions recorded: 3 visits each of steps/busy_work, steps/busy_work/spin and
 * steps/exchange/MPI_Barrier, and no other call path below steps (the samples taken in spin
 * belong to its region). With `--record none` the samples name busy_work and spin instead. */
#include <causeway/causeway.h>
#include <mpi.h>
#include <time.h>

__attribute__((no_instrument_function)) static double Seconds(void) {
  struct timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static volatile double sink;

static __attribute__((noinline)) void spin(double seconds) {
  const double end = Seconds() + seconds;
  double x = 1.0;
  while (Seconds() < end) {
    for (int i = 0; i < 1000; ++i) x = x * 1.0000001 + 1e-9;
  }
  sink = x;
}

__attribute__((noinline)) void busy_work(void) { spin(0.040); }

__attribute__((noinline)) void exchange(void) { MPI_Barrier(MPI_COMM_WORLD); }

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  CAUSEWAY_REGION_BEGIN("steps");
  for (int i = 0; i < 3; ++i) {
    busy_work();
    exchange();
  }
  CAUSEWAY_REGION_END("steps");
  MPI_Finalize();
  return 0;
}
