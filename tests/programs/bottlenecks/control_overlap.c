/* A control program without a bottleneck: in each of ROUNDS rounds every rank posts a
 * non-blocking exchange of 32 KiB with every other rank, computes 20 ms while it proceeds,
 * completes it with MPI_Waitall and synchronises with an MPI_Barrier every fifth round.
 * Usage: control_overlap ROUNDS; run with 3 ranks. */
#include <mpi.h>

#include "bottleneck.h"

#define COUNT 4096
#define MAX_RANKS 8

int main(int argc, char** argv) {
  int rank, size;
  static double out[COUNT], in[MAX_RANKS][COUNT];
  MPI_Request requests[2 * MAX_RANKS];
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const int rounds = (int)arg_or(argc, argv, 1, 10);
  for (int round = 0; round < rounds && size <= MAX_RANKS; ++round) {
    int n = 0;
    for (int peer = 0; peer < size; ++peer) {
      if (peer == rank) continue;
      MPI_Irecv(in[peer], COUNT, MPI_DOUBLE, peer, 0, MPI_COMM_WORLD, &requests[n++]);
      MPI_Isend(out, COUNT, MPI_DOUBLE, peer, 0, MPI_COMM_WORLD, &requests[n++]);
    }
    work_ms(20);
    MPI_Waitall(n, requests, MPI_STATUSES_IGNORE);
    if (round % 5 == 4) MPI_Barrier(MPI_COMM_WORLD);
  }
  MPI_Finalize();
  return 0;
}
