// Computation inside a parallel region, for the sampled call paths of OpenMP threads
// (tests/measure/traced_openmp_test.cc): with `causeway trace --callpaths sampled` each thread's
// samples in kernel() nest below the parallel region, in the function the compiler outlined the
// region's body to (GCC: spread._omp_fn.0), on the master as on the worker.
//
// Each of 3 rounds: spread() forks a team of 2 threads; thread t runs kernel() for 30 (t + 1)
// million iterations of a dependent floating-point sum (tens of milliseconds of CPU time), then
// waits in the implicit barrier. Rank 0 prints a result that must not change when traced.
#include <mpi.h>
#include <omp.h>
#include <stdio.h>

__attribute__((noinline)) static double kernel(long n) {
  double s = 0;
  for (long i = 0; i < n; ++i) s += (double)(i % 7) * 1e-9;
  return s;
}

__attribute__((noinline)) static double spread(long n) {
  double total = 0;
#pragma omp parallel num_threads(2) reduction(+ : total)
  total += kernel(n * (omp_get_thread_num() + 1));
  return total;
}

int main(int argc, char** argv) {
  int provided = 0;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  double result = 0;
  for (int round = 0; round < 3; ++round) {
    result += spread(30000000);
    MPI_Barrier(MPI_COMM_WORLD);
  }
  if (rank == 0) printf("result %.6f\n", result);
  MPI_Finalize();
  return 0;
}
