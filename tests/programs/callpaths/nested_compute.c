/* A program of known structure for the walked call paths (causeway trace --callpaths): built
 * with -O1 -g and no instrumentation, its functions kept apart (noinline). In each of STEPS
 * steps every rank calls step(), which calls prepare() (a busy loop in smooth(): 60 ms on rank
 * 0, 10 ms on rank 1) and then exchange(), whose MPI_Sendrecv with the other rank is where rank
 * 1 waits for rank 0: a Late Sender at main/step/exchange/MPI_Sendrecv, caused by the
 * computation of main/step/prepare/smooth on rank 0 (50 ms a step: many samples' worth).
 * Usage: nested_compute [STEPS]; 2 ranks. The tests check the lines below: keep them. */
#include <mpi.h>
#include <stdlib.h>
#include <time.h>

static double Seconds(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

volatile double sink;

/* Busy, not asleep: the sampling timer runs on the thread's CPU time. */
__attribute__((noinline)) static void smooth(double ms) {
  const double end = Seconds() + ms * 1e-3;
  double x = 0;
  while (Seconds() < end) x += 1.0;
  sink = x;
}

__attribute__((noinline)) static void prepare(int rank) { smooth(rank == 0 ? 60.0 : 10.0); }

__attribute__((noinline)) static void exchange(int rank, double* out, double* in) {
  MPI_Sendrecv(out, 8, MPI_DOUBLE, 1 - rank, 0, in, 8, MPI_DOUBLE, 1 - rank, 0, MPI_COMM_WORLD,
               MPI_STATUS_IGNORE);
}

__attribute__((noinline)) static void step(int rank, double* out, double* in) {
  prepare(rank);
  exchange(rank, out, in);
}

int main(int argc, char** argv) {
  int rank;
  double out[8] = {0}, in[8];
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  const int steps = argc > 1 ? atoi(argv[1]) : 8;
  for (int i = 0; i < steps; ++i) step(rank, out, in);
  MPI_Finalize();
  return 0;
}
