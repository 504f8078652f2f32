// Teams of one thread and the locks of a process with one OpenMP thread, which `causeway trace`
// leaves out of the trace unless asked (--openmp-serial record; tests/measure/
// traced_openmp_test.cc), and what it records all the same.
//
// Each rank, in four phases:
//   1. alone: 40 parallel regions of one thread (num_threads(1)), each with an explicit barrier,
//      a worksharing loop of 4 iterations, a critical section, omp_set_lock and omp_unset_lock,
//      and an MPI_Barrier; then 20 pairs of omp_set_lock and omp_unset_lock outside any region,
//      and 10 times a barrier and a single construct outside any region (orphaned: they bind to
//      the initial task's implicit team, of one thread). The process has one OpenMP thread:
//      40 + 40 + 20 = 100 lock acquisitions.
//   2. a second thread, a POSIX thread of the program's own (an OpenMP initial thread of its
//      own for the runtime), sets and unsets the lock 5 times: 5 acquisitions.
//   3. 30 parallel regions of one thread, each with a critical section and a lock: 60.
//   4. one parallel region of 2 threads, each entering the critical section once: 2.
// Rank 0 prints what it counted, which must not change when the program is traced.
#include <mpi.h>
#include <omp.h>
#include <pthread.h>
#include <stdio.h>

static omp_lock_t lock;
static int criticals = 0;
static int locks = 0;
static int iterations = 0;
static int singles = 0;

__attribute__((noinline)) static void lock_and_count(void) {
  omp_set_lock(&lock);
  ++locks;
  omp_unset_lock(&lock);
}

__attribute__((noinline)) static void orphaned(void) {
#pragma omp barrier
#pragma omp single
  ++singles;
}

__attribute__((noinline)) static void alone(void) {
  for (int region = 0; region < 40; ++region) {
#pragma omp parallel num_threads(1)
    {
#pragma omp barrier
#pragma omp for
      for (int i = 0; i < 4; ++i) ++iterations;
#pragma omp critical
      ++criticals;
      lock_and_count();
      MPI_Barrier(MPI_COMM_WORLD);
    }
  }
  for (int i = 0; i < 20; ++i) lock_and_count();
  for (int i = 0; i < 10; ++i) orphaned();
}

static void* second_thread(void* unused) {
  (void)unused;
  for (int i = 0; i < 5; ++i) lock_and_count();
  return NULL;
}

__attribute__((noinline)) static void serial_after(void) {
  for (int region = 0; region < 30; ++region) {
#pragma omp parallel num_threads(1)
    {
#pragma omp critical
      ++criticals;
      lock_and_count();
    }
  }
}

__attribute__((noinline)) static void two_threads(void) {
#pragma omp parallel num_threads(2)
  {
#pragma omp critical
    ++criticals;
  }
}

int main(int argc, char** argv) {
  int provided = 0;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  omp_init_lock(&lock);
  alone();
  pthread_t thread;
  pthread_create(&thread, NULL, second_thread, NULL);
  pthread_join(thread, NULL);
  serial_after();
  two_threads();
  omp_destroy_lock(&lock);
  if (rank == 0)
    printf("critical sections %d, locks %d, iterations %d, singles %d\n", criticals, locks,
           iterations, singles);
  MPI_Finalize();
  return 0;
}
