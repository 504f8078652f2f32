// A hybrid MPI + OpenMP program whose threads wait for each other as programmed, for the
// OpenMP tracing through OMPT (tests/measure/traced_openmp_test.cc). Built by GCC with -fopenmp:
// `causeway trace` runs it on LLVM's OpenMP runtime.
//
// Each of 3 rounds on every rank, in a team of 3 threads (t = 0, 1, 2), all sleeping:
//   1. thread t sleeps 20 (t + 1) ms, then the explicit barrier B1: threads 0 and 1 wait 40
//      and 20 ms for thread 2;
//   2. a critical section held 10 ms each: the second thread in waits 10 ms, the third 20 ms;
//      they leave it 10, 20 and 30 ms after B1;
//   3. the explicit barrier B2: the first two out wait 20 and 10 ms;
//   4. an OpenMP lock held 10 ms each: waits of 10 and 20 ms, left 10, 20, 30 ms after B2;
//   5. a worksharing loop without a barrier (nowait), too short to wait anywhere;
//   6. the implicit barrier closing the parallel region: waits of 20 and 10 ms.
// The first thread into the critical section and the lock holds it until the other two have
// announced that they are about to ask for it: a thread descheduled for longer than a hold on a
// busy machine would otherwise find it free, and wait nowhere.
// An MPI_Barrier separates the rounds. Rank 0 prints the source line of each construct and a
// result that must not change when the program is traced. Built by clang too (omp_teams_clang),
// which links LLVM's runtime itself and reports the loop as a worksharing construct.
#include <mpi.h>
#include <omp.h>
#include <stdio.h>
#include <unistd.h>

static void SleepMs(int ms) { usleep((useconds_t)ms * 1000u); }

// Announces that the calling thread is about to ask for a critical section or lock.
static void Announce(int* requests) {
#pragma omp atomic
  ++*requests;
}

// Waits until all `n` threads of the team have announced (Announce).
static void AwaitRequests(int* requests, int n) {
  for (;;) {
    int seen = 0;
#pragma omp atomic read
    seen = *requests;
    if (seen >= n) return;
    usleep(100);
  }
}

int main(int argc, char** argv) {
  int provided = 0;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  omp_lock_t lock;
  omp_init_lock(&lock);
  int entries = 0;  // critical sections entered
  int locked = 0;   // lock acquisitions
  int sums[3][3] = {{0}};
  for (int round = 0; round < 3; ++round) {
    int critical_requests = 0;
    int lock_requests = 0;
    enum { kParallelLine = __LINE__ + 1 };
#pragma omp parallel num_threads(3)
    {
      const int t = omp_get_thread_num();
      SleepMs(20 * (t + 1));
      enum { kBarrierLine = __LINE__ + 1 };
#pragma omp barrier
      Announce(&critical_requests);
      enum { kCriticalLine = __LINE__ + 1 };
#pragma omp critical
      {
        if (++entries % 3 == 1) AwaitRequests(&critical_requests, 3);
        SleepMs(10);
      }
#pragma omp barrier
      Announce(&lock_requests);
      omp_set_lock(&lock);
      if (++locked % 3 == 1) AwaitRequests(&lock_requests, 3);
      SleepMs(10);
      omp_unset_lock(&lock);
      enum { kLoopLine = __LINE__ + 1 };
#pragma omp for schedule(static) nowait
      for (int i = 0; i < 3; ++i) sums[round][i] = i * round;
      if (rank == 0 && round == 0 && t == 0) {
        printf("parallel line %d\nbarrier line %d\ncritical line %d\nloop line %d\n",
               (int)kParallelLine, (int)kBarrierLine, (int)kCriticalLine, (int)kLoopLine);
      }
    }
    MPI_Barrier(MPI_COMM_WORLD);
  }
  omp_destroy_lock(&lock);
  if (rank == 0) {
    printf("threads %d, critical sections %d, locks %d, loop %d\n", 3, entries, locked,
           sums[2][0] + sums[2][1] + sums[2][2]);
  }
  MPI_Finalize();
  return 0;
}
