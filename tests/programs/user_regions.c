/* User regions through causeway's C API. Each rank runs 3 iterations of region "solve"
 * (50 ms of computing, within which region "inner" takes 20 ms) and then region "exchange",
 * which holds one MPI_Barrier. An unmatched end (of "nothing") is ignored.
 * Expected per rank: solve 3 x 30 ms exclusive, inner 3 x 20 ms, the barrier inside exchange.
 * Run with 2 ranks. */
#include <causeway/causeway.h>
#include <mpi.h>
#include <time.h>

static void compute(long ns) {
  struct timespec ts = {ns / 1000000000L, ns % 1000000000L};
  nanosleep(&ts, NULL);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  for (int i = 0; i < 3; ++i) {
    CAUSEWAY_REGION_BEGIN("solve");
    compute(30000000L);
    CAUSEWAY_REGION_BEGIN("inner");
    compute(20000000L);
    CAUSEWAY_REGION_END("inner");
    CAUSEWAY_REGION_END("solve");
    CAUSEWAY_REGION_BEGIN("exchange");
    MPI_Barrier(MPI_COMM_WORLD);
    CAUSEWAY_REGION_END("exchange");
  }
  CAUSEWAY_REGION_END("nothing");
  MPI_Finalize();
  return 0;
}
