/* Sikora et al. 2016's single process without loops: one rank, two MPI_Barrier calls from two call
 * sites of main, 5 ms apart. Recorded online, the graph is start -> MPI_Init -> MPI_Barrier
 * (first site) -> MPI_Barrier (second site) -> MPI_Finalize -> end: six nodes, five flow
 * edges, each taken once. */
#include <mpi.h>

#include "tag_work.h"

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Barrier(MPI_COMM_WORLD);
  work_ms(5);
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Finalize();
  return 0;
}
