/* Collectives (Sikora et al. 2016 §4.5) on 3 ranks: MPI_Bcast of 8 bytes from root 1, MPI_Reduce of one
 * double to root 2, MPI_Allreduce and MPI_Barrier. Each non-root of the broadcast links to the
 * root's node; the reduce's root, and rank 0 of the rootless operations, list the other
 * members: 2 links and 2 + 2 + 2 list entries. Run with 3 ranks. */
#include <mpi.h>

int main(int argc, char** argv) {
  int rank;
  double x = 1, y = 0;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Bcast(&x, 1, MPI_DOUBLE, 1, MPI_COMM_WORLD);
  MPI_Reduce(&x, &y, 1, MPI_DOUBLE, MPI_SUM, 2, MPI_COMM_WORLD);
  MPI_Allreduce(&x, &y, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Finalize();
  return 0;
}
