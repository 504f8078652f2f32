/* Call-path discrimination (Sikora et al. 2016 §3.3): rank 0 reaches one MPI_Send (in foo) through f
 * twice (8 and 16 bytes) and through g once (1024 bytes); rank 1 receives all three in main.
 * Rank 0's graph has two send nodes, main/f/foo/MPI_Send (count 2) and main/g/foo/MPI_Send
 * (count 1); rank 1's receive node has one incoming edge per sending node. Run with 2 ranks. */
#include <mpi.h>

#include "tag_work.h"

static char buffer[1024];

__attribute__((noinline)) void foo(int bytes) {
  MPI_Send(buffer, bytes, MPI_CHAR, 1, 0, MPI_COMM_WORLD);
}
__attribute__((noinline)) void f(int bytes) { foo(bytes); }
__attribute__((noinline)) void g(int bytes) { foo(bytes); }

int main(int argc, char** argv) {
  int rank;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 0) {
    f(8);
    work_ms(2);
    f(16);
    work_ms(2);
    g(1024);
  } else if (rank == 1) {
    for (int i = 0; i < 3; ++i) {
      MPI_Recv(buffer, 1024, MPI_CHAR, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
  }
  MPI_Finalize();
  return 0;
}
