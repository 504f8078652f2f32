// One parallel region in a function that two functions call, for the call paths of OpenMP
// teams (tests/measure/traced_openmp_test.cc): each team runs below the functions that forked
// it, on every thread, as Scalasca's call trees have it.
//
// Each of 3 rounds on every rank: solve() and then setup() call spread(), whose team of 2
// threads (t = 0, 1) sleeps scale * (t + 1) ms: thread 0 then waits scale ms in the implicit
// barrier closing the region for thread 1 (scale 20 from solve, 40 from setup). An MPI_Barrier
// separates the rounds. Rank 0 prints a result that must not change when the program is traced.
#include <mpi.h>
#include <omp.h>
#include <stdio.h>
#include <unistd.h>

static int threads_seen = 0;

__attribute__((noinline)) static void spread(int scale) {
#pragma omp parallel num_threads(2)
  {
    const int t = omp_get_thread_num();
    usleep((useconds_t)(scale * (t + 1)) * 1000u);
#pragma omp atomic
    ++threads_seen;
  }
}

__attribute__((noinline)) static void solve(void) { spread(20); }
__attribute__((noinline)) static void setup(void) { spread(40); }

int main(int argc, char** argv) {
  int provided = 0;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  for (int round = 0; round < 3; ++round) {
    solve();
    setup();
    MPI_Barrier(MPI_COMM_WORLD);
  }
  if (rank == 0) printf("threads seen %d\n", threads_seen);
  MPI_Finalize();
  return 0;
}
