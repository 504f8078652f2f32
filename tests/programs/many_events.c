/* Records many events: ITERATIONS barriers (each Enter, CollectiveBegin, CollectiveEnd, Leave).
 * With a small buffer (causeway trace --buffer 4K) the tracer flushes hundreds of times; the
 * test asserts that no event is lost. Usage: many_events [ITERATIONS] */
#include <mpi.h>
#include <stdlib.h>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int iterations = argc > 1 ? atoi(argv[1]) : 10000;
  for (int i = 0; i < iterations; ++i) MPI_Barrier(MPI_COMM_WORLD);
  MPI_Finalize();
  return 0;
}
