/* A program built to scale badly in one place, for `causeway compare` (tests/compare): in each
 * of STEPS steps every rank computes WORK_MS / size milliseconds (its share of a fixed amount of
 * work, which scales perfectly), then all exchange data with every other rank in MPI_Alltoall:
 * BYTES x size / 2 per pair (BYTES on 2 processes), data that grow with the process count.
 * Each rank sends (size - 1) x size / 2 x BYTES, so the exchange's time grows with the square of
 * the process count, and on a fixed number of cores faster still. A barrier first takes the
 * waiting for late ranks, which on an oversubscribed machine is scheduling noise, so that the
 * exchange's time is its transfer.
 * Usage: scaling STEPS WORK_MS BYTES */
#include <mpi.h>
#include <stdlib.h>
#include <time.h>

int main(int argc, char** argv) {
  int size;
  MPI_Init(&argc, &argv);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const int steps = argc > 1 ? atoi(argv[1]) : 10;
  const double work_ms = argc > 2 ? atof(argv[2]) : 40;
  const int bytes = (argc > 3 ? atoi(argv[3]) : 262144) / 2 * size;
  char* out = calloc((size_t)bytes * (size_t)size, 1);
  char* in = calloc((size_t)bytes * (size_t)size, 1);
  for (int step = 0; step < steps; ++step) {
    const long ns = (long)(work_ms / size * 1e6);
    struct timespec ts = {ns / 1000000000L, ns % 1000000000L};
    nanosleep(&ts, NULL);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Alltoall(out, bytes, MPI_CHAR, in, bytes, MPI_CHAR, MPI_COMM_WORLD);
  }
  free(out);
  free(in);
  MPI_Finalize();
  return 0;
}
