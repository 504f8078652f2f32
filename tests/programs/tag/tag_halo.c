/* A 1-D halo exchange with non-blocking sends, N iterations (argument 1, default 20), in a
 * marked loop: each rank posts MPI_Isend of 800 bytes to each neighbour it has (one call site),
 * receives from each (one call site), computes 3 ms and completes its sends with MPI_Waitall.
 * Inner ranks send twice in a row and receive twice; the border ranks once. Completion edges
 * lead from MPI_Waitall to MPI_Isend; the application graph has six inter-process edges on 4
 * ranks; ranks 1 and 2 behave alike (relative neighbours -1 and +1). Run with 4 ranks. */
#include <causeway/causeway.h>
#include <mpi.h>
#include <stdlib.h>

#include "tag_work.h"

static double halo[2][100], incoming[100];

__attribute__((noinline)) void post_send(int side, int neighbour, MPI_Request* request) {
  MPI_Isend(halo[side], 100, MPI_DOUBLE, neighbour, 0, MPI_COMM_WORLD, request);
}

__attribute__((noinline)) void receive(int neighbour) {
  MPI_Recv(incoming, 100, MPI_DOUBLE, neighbour, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
}

int main(int argc, char** argv) {
  int rank, size;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const int n = argc > 1 ? atoi(argv[1]) : 20;
  const int neighbours[2] = {rank - 1, rank + 1};
  CAUSEWAY_LOOP_BEGIN("halo");
  for (int i = 0; i < n; ++i) {
    CAUSEWAY_LOOP_ITERATION("halo");
    MPI_Request requests[2];
    int posted = 0;
    for (int side = 0; side < 2; ++side) {
      if (neighbours[side] >= 0 && neighbours[side] < size) {
        post_send(side, neighbours[side], &requests[posted++]);
      }
    }
    for (int side = 0; side < 2; ++side) {
      if (neighbours[side] >= 0 && neighbours[side] < size) receive(neighbours[side]);
    }
    work_ms(3);
    MPI_Waitall(posted, requests, MPI_STATUSES_IGNORE);
  }
  CAUSEWAY_LOOP_END("halo");
  MPI_Finalize();
  return 0;
}
