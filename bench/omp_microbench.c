/* The cost of recording OpenMP's events: one rank, a team of THREADS threads. The master enters
 * an empty critical section CALLS times (six recorded events: the construct's Enter, the lock's
 * acquisition, the body's Enter and Leave, the release, the construct's Leave) while the others
 * wait, so that no contention blurs the cost; then the team passes CALLS / 10 explicit barriers
 * (two events each per thread); then the master forks CALLS / 10 empty parallel regions of the
 * same team size (per region: the fork and the join, and on each thread the team's begin and end,
 * the region's Enter and Leave and its implicit barrier's: 14 events with 2 threads). Prints the
 * time per critical section, per barrier and per parallel region.
 * bench/run_omp_tracer_benchmark.sh runs it with and without causeway trace.
 * Usage: omp-microbench [CALLS] [THREADS] */
#include <mpi.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

static volatile long sink;

int main(int argc, char** argv) {
  int provided = 0;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
  const long calls = argc > 1 ? atol(argv[1]) : 200000L;
  const int threads = argc > 2 ? atoi(argv[2]) : 2;
  const long barriers = calls / 10;
  double critical_time = 0, barrier_time = 0;
#pragma omp parallel num_threads(threads)
  {
    double start = omp_get_wtime();
    if (omp_get_thread_num() == 0) {
      for (long i = 0; i < calls; ++i) {
#pragma omp critical
        sink = sink + 1;
      }
    }
#pragma omp barrier
    double middle = omp_get_wtime();
    for (long i = 0; i < barriers; ++i) {
#pragma omp barrier
    }
    double end = omp_get_wtime();
    if (omp_get_thread_num() == 0) {
      critical_time = middle - start;
      barrier_time = end - middle;
    }
  }
  const double regions_start = omp_get_wtime();
  for (long i = 0; i < barriers; ++i) {
#pragma omp parallel num_threads(threads)
    {
      if (omp_get_thread_num() == 0) sink = sink + 1;
    }
  }
  const double region_time = omp_get_wtime() - regions_start;
  printf("%.2f ns per critical section\n", critical_time / (double)calls * 1e9);
  printf("%.2f ns per barrier\n", barrier_time / (double)barriers * 1e9);
  printf("%.2f ns per parallel region\n", region_time / (double)barriers * 1e9);
  MPI_Finalize();
  return 0;
}
