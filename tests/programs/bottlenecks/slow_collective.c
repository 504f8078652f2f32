/* A collective far slower than its baseline, with no waiting: every rank enters MPI_Allreduce
 * at the same time in each of ROUNDS rounds, but its user-defined sum takes OP_MS per call (a
 * reduction written badly). No member enters late: the collective itself is slow.
 * Usage: slow_collective ROUNDS OP_MS; run with 2 ranks. */
#include <mpi.h>

#include "bottleneck.h"

static double op_ms = 5;

static void slow_sum(void* in, void* inout, int* len, MPI_Datatype* type) {
  (void)type;
  work_ms(op_ms);
  for (int i = 0; i < *len; ++i) ((double*)inout)[i] += ((double*)in)[i];
}

int main(int argc, char** argv) {
  double in = 1, out = 0;
  MPI_Op op;
  MPI_Init(&argc, &argv);
  const int rounds = (int)arg_or(argc, argv, 1, 20);
  op_ms = arg_or(argc, argv, 2, 5);
  MPI_Op_create(slow_sum, 1, &op);
  for (int round = 0; round < rounds; ++round) {
    work_ms(5);
    MPI_Allreduce(&in, &out, 1, MPI_DOUBLE, op, MPI_COMM_WORLD);
  }
  MPI_Op_free(&op);
  MPI_Finalize();
  return 0;
}
