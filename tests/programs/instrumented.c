/* Compiled with -finstrument-functions (no source changes): causeway names the functions from
 * the symbol tables. Each of 3 iterations: compute_forces (rank 0 computes 100 ms, rank 1
 * 20 ms), then exchange, which holds an MPI_Sendrecv with the other rank, and helper_noise,
 * which a filter excludes in the tests. The static function compute_forces is in no dynamic
 * symbol table. Expected: rank 1 waits ~80 ms per iteration in exchange/MPI_Sendrecv, caused
 * by compute_forces on rank 0. Run with 2 ranks; further ranks only compute (the invariant
 * test runs every program on 3: rank 2's exchange with rank -1, MPI_ANY_SOURCE, was an invalid
 * rank that aborted the job at a random point). */
#include <mpi.h>
#include <time.h>

static void compute(long ns) {
  struct timespec ts = {ns / 1000000000L, ns % 1000000000L};
  nanosleep(&ts, NULL);
}

static __attribute__((noinline)) void compute_forces(int rank) {
  compute(rank == 0 ? 100000000L : 20000000L);
}

__attribute__((noinline)) void helper_noise(void) { compute(1000000L); }

__attribute__((noinline)) void exchange(int rank) {
  int out = rank, in = -1;
  MPI_Sendrecv(&out, 1, MPI_INT, 1 - rank, 0, &in, 1, MPI_INT, 1 - rank, 0, MPI_COMM_WORLD,
               MPI_STATUS_IGNORE);
}

int main(int argc, char** argv) {
  int rank;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  for (int i = 0; i < 3; ++i) {
    compute_forces(rank);
    if (rank < 2) exchange(rank);
    helper_noise();
  }
  MPI_Finalize();
  return 0;
}
