/* Local group calls around communicator creation, as CP2K makes them: 50 times, MPI_Comm_group,
 * MPI_Group_incl of the even ranks, MPI_Comm_create (collective), MPI_Group_free twice and
 * MPI_Comm_free of the new communicator where one was made; then a barrier. Rank 0 prints the
 * number of communicators it made. */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size, made = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int evens[64], n = 0;
  for (int r = 0; r < size && n < 64; r += 2) evens[n++] = r;
  for (int i = 0; i < 50; ++i) {
    MPI_Group world, even;
    MPI_Comm comm;
    MPI_Comm_group(MPI_COMM_WORLD, &world);
    MPI_Group_incl(world, n, evens, &even);
    MPI_Comm_create(MPI_COMM_WORLD, even, &comm);
    MPI_Group_free(&even);
    MPI_Group_free(&world);
    if (comm != MPI_COMM_NULL) {
      ++made;
      MPI_Comm_free(&comm);
    }
  }
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 0) printf("made %d communicators\n", made);
  MPI_Finalize();
  return 0;
}
