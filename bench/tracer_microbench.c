/* The cost of recording one event: every rank calls MPI_Test on MPI_REQUEST_NULL CALLS times
 * (a call MPI answers at once; causeway records its Enter and Leave, two events) and prints the
 * time per call. bench/run_tracer_benchmark.sh runs it with and without causeway trace.
 *
 * The calls are made DEPTH functions deep (a recursion of a function kept out of line), so that
 * the tracer's stack walk has DEPTH frames more to walk. With VARY 1 every other call is made
 * one frame less deep: each walk then differs from the one before it in its innermost frames,
 * which the tracer must look up in its calling-context tree rather than reuse.
 * With SPIN > 0 each rank instead computes SPIN million steps of a loop DEPTH functions deep,
 * with no call at all, and prints the time it took: the cost of the sampling timer's samples.
 * Usage: tracer-microbench [CALLS] [DEPTH] [VARY] [SPIN] */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

static volatile double sink;

__attribute__((noinline)) static void Calls(long calls, int depth, int vary) {
  if (depth > 0) {
    Calls(calls, depth - 1, vary);
    sink = sink + 1; /* not a tail call: each level keeps its frame */
    return;
  }
  int flag;
  MPI_Request request = MPI_REQUEST_NULL;
  for (long i = 0; i < calls; ++i) {
    if (vary && (i & 1)) {
      Calls(1, 0, 0); /* one frame deeper than the loop's own calls */
    } else {
      MPI_Test(&request, &flag, MPI_STATUS_IGNORE);
    }
  }
}

__attribute__((noinline)) static void Spin(long steps, int depth) {
  if (depth > 0) {
    Spin(steps, depth - 1);
    sink = sink + 1;
    return;
  }
  double x = 0;
  for (long k = 0; k < steps; ++k) x = x * 0.999999 + 1.0;
  sink = x;
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank;
  const long calls = argc > 1 ? atol(argv[1]) : 2000000L;
  const int depth = argc > 2 ? atoi(argv[2]) : 0;
  const int vary = argc > 3 ? atoi(argv[3]) : 0;
  const long spin = argc > 4 ? atol(argv[4]) * 1000000L : 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Barrier(MPI_COMM_WORLD);
  double start = MPI_Wtime();
  if (spin > 0) {
    Spin(spin, depth);
  } else {
    Calls(calls, depth, vary);
  }
  double seconds = MPI_Wtime() - start;
  double worst = 0;
  MPI_Reduce(&seconds, &worst, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
  if (rank == 0 && spin > 0) printf("%.6f s of computation\n", worst);
  if (rank == 0 && spin <= 0) printf("%.2f ns per call\n", worst * 1e9 / (double)calls);
  MPI_Finalize();
  return 0;
}
