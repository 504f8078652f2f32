// User regions through causeway's C++ API: causeway::ScopedRegion ends with its scope, also
// when the scope is left early. Each rank enters "phase" 4 times, each time computing 25 ms,
// and returns from the scope early in the last iteration.
// Expected per rank: 4 visits of main/phase, 100 ms in it. Run with 2 ranks.
#include <causeway/causeway.h>
#include <mpi.h>

#include <chrono>
#include <thread>

namespace {

int Phase(int i) {
  causeway::ScopedRegion region("phase");
  std::this_thread::sleep_for(std::chrono::milliseconds(25));
  if (i == 3) return 1;  // leaves the region through the early return
  MPI_Barrier(MPI_COMM_WORLD);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int done = 0;
  for (int i = 0; i < 4; ++i) done += Phase(i);
  MPI_Finalize();
  return done == 1 ? 0 : 1;
}
