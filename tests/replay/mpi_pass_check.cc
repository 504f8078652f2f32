// The distributed replay pass over real MPI (comm::MpiSession), run by ctest with
// `mpirun -np K`: random programs, with and without contradictions, each location placed
// round-robin on the K ranks. Rank 0 compares every location's result and every broken edge with
// the pass of one process and exits non-zero on any difference.
#include <algorithm>
#include <cstdio>
#include <string>

#include "comm/mpi_communicator.h"
#include "comm/wire.h"
#include "tests/replay/random_program.h"

namespace cw::replay::testing {
namespace {

int Check(comm::Communicator& comm) {
  int failures = 0;
  const uint32_t k = comm.size();
  for (uint32_t seed : {21u, 22u, 23u}) {
    for (bool contradictions : {false, true}) {
      Program p = MakeProgram(seed, 11, 1500, contradictions);
      RankOutcome share = RunShare(p, &comm, RoundRobin(11, k), 2);
      comm::ByteWriter out;
      out.PutVector(share.hash);
      out.PutVector(share.broken);
      std::vector<comm::Bytes> all = comm.Gather(out.Take(), 0);
      if (comm.rank() != 0) continue;
      RankOutcome single = RunShare(p, nullptr, Blocks(11, 1), 1);
      std::vector<uint64_t> hash(p.locations, 0);
      std::vector<uint32_t> broken;
      for (const comm::Bytes& bytes : all) {
        comm::ByteReader in(bytes);
        std::vector<uint64_t> h = in.GetVector<uint64_t>();
        for (uint32_t loc = 0; loc < p.locations; ++loc) hash[loc] |= h[loc];
        std::vector<uint32_t> b = in.GetVector<uint32_t>();
        broken.insert(broken.end(), b.begin(), b.end());
      }
      std::sort(broken.begin(), broken.end());
      std::sort(single.broken.begin(), single.broken.end());
      const bool same = hash == single.hash && broken == single.broken;
      std::printf(
          "seed %u%s on %u ranks: %s (%llu rounds, %zu broken, %llu values sent by rank 0)\n", seed,
          contradictions ? " with contradictions" : "", k, same ? "identical" : "DIFFERENT",
          static_cast<unsigned long long>(share.stats.rounds), broken.size(),
          static_cast<unsigned long long>(share.stats.values_sent));
      if (!same) ++failures;
    }
  }
  return failures;
}

}  // namespace
}  // namespace cw::replay::testing

int main() {
  auto session = cw::comm::MpiSession::Start();
  if (!session) {
    std::fprintf(stderr, "%s\n", session.error().message().c_str());
    return 2;
  }
  int failures = cw::replay::testing::Check((*session)->world());
  // Every rank exits with rank 0's verdict.
  uint64_t total =
      (*session)->world().AllReduce(static_cast<uint64_t>(failures), cw::comm::ReduceOp::kSum);
  return total == 0 ? 0 : 1;
}
