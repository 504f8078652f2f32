// CompareClockWithRankZero over real MPI, run by ctest with `mpirun -np 3`: ranks that share
// rank 0's clock identity take offset 0 without a round trip; the others, and every rank when
// no identity is compared or rank 0's is unknown, are measured by ping-pong. All ranks run on
// this machine and read CLOCK_MONOTONIC, so a measured offset is within a round trip of 0.
// Rank 0 prints each failure and the program exits non-zero on any.
#include <mpi.h>
#include <time.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string>

#include "measure/core/clock_offset.h"

namespace {

uint64_t Monotonic() {
  timespec t{};
  clock_gettime(CLOCK_MONOTONIC, &t);
  return static_cast<uint64_t>(t.tv_sec) * 1'000'000'000u + static_cast<uint64_t>(t.tv_nsec);
}

int failures = 0;

void Expect(bool ok, const char* what, int rank) {
  if (ok) return;
  ++failures;
  std::fprintf(stderr, "rank %d: %s\n", rank, what);
}

// A measured offset of the same clock: within 100 ms of 0 even on an oversubscribed node (a
// wrong sign or unit gives the clock's whole value, ~1e15 ns).
bool NearZero(int64_t offset) { return std::llabs(offset) < 100'000'000; }

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  using cw::measure::ClockComparison;
  using cw::measure::CompareClockWithRankZero;
  const std::string identity = cw::measure::SystemClockIdentity();
  Expect(!identity.empty(), "this machine's clock identity cannot be read", rank);

  // No identities compared: every rank but 0 is measured.
  ClockComparison c = CompareClockWithRankZero(MPI_COMM_WORLD, rank, size, Monotonic);
  Expect(c.measured == (rank != 0), "without identities, every other rank is measured", rank);
  Expect(NearZero(c.offset), "a measured offset of the same clock is near 0", rank);

  // Every rank shares rank 0's identity: none is measured, every offset is 0.
  c = CompareClockWithRankZero(MPI_COMM_WORLD, rank, size, Monotonic, identity);
  Expect(!c.measured && c.offset == 0, "the same identity takes offset 0 unmeasured", rank);

  // The last rank claims another clock: it alone is measured.
  const bool other = rank == size - 1 && rank != 0;
  c = CompareClockWithRankZero(MPI_COMM_WORLD, rank, size, Monotonic,
                               other ? std::string("another machine") : identity);
  Expect(c.measured == other, "only the rank with another identity is measured", rank);
  Expect(NearZero(c.offset), "its offset is measured near 0", rank);

  // Rank 0's identity is unknown (""): nobody can share it, every other rank is measured.
  c = CompareClockWithRankZero(MPI_COMM_WORLD, rank, size, Monotonic,
                               rank == 0 ? std::string() : identity);
  Expect(c.measured == (rank != 0), "an unknown identity on rank 0 measures every rank", rank);

  int total = 0;
  MPI_Allreduce(&failures, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0)
    std::printf("%s: %d failures on %d ranks\n", total == 0 ? "ok" : "FAILED", total, size);
  MPI_Finalize();
  return total == 0 ? 0 : 1;
}
