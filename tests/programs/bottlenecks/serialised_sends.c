/* Serialised blocking sends to many targets: in each of ROUNDS rounds rank 0 sends 256 KiB to
 * every other rank, one blocking MPI_Send after the other, while the others wait in MPI_Recv:
 * each receiver waits for the sends to the ranks before it. Non-blocking sends would let the
 * transfers overlap. Usage: serialised_sends ROUNDS (default 1000: the sends take a few percent of
 * the run even where MPI_Init takes 300 ms, as it does with 4 ranks on 2 cores); run with 4 ranks
 * (--transfer-run 3). */
#include <mpi.h>
#include <stdlib.h>

#include "bottleneck.h"

#define BYTES (256 * 1024)

int main(int argc, char** argv) {
  int rank, size;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const int rounds = (int)arg_or(argc, argv, 1, 1000);
  char* buffer = calloc(BYTES, 1);
  for (int round = 0; round < rounds; ++round) {
    if (rank == 0) {
      for (int to = 1; to < size; ++to) MPI_Send(buffer, BYTES, MPI_CHAR, to, 0, MPI_COMM_WORLD);
    } else {
      MPI_Recv(buffer, BYTES, MPI_CHAR, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
  }
  free(buffer);
  MPI_Finalize();
  return 0;
}
