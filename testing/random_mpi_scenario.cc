#include "testing/random_mpi_scenario.h"

#include <algorithm>
#include <array>
#include <random>
#include <vector>

namespace cw::testing {

Scenario RandomMpiScenario(uint32_t seed) {
  std::mt19937 rng(seed);
  auto pick = [&rng](uint32_t n) { return static_cast<uint32_t>(rng() % n); };
  const uint32_t ranks = 2 + pick(3);
  Scenario s(static_cast<int>(ranks));
  auto rank = [&s](uint32_t r) -> RankScript& { return s.rank(static_cast<int>(r)); };
  std::vector<uint64_t> now(ranks);  // when each rank is free
  auto latest = [&now] { return *std::max_element(now.begin(), now.end()); };

  for (uint32_t r = 0; r < ranks; ++r) {
    rank(r).Enter(0, "main");
    now[r] = 1 + pick(3);
  }
  uint64_t all_in = latest();
  for (uint32_t r = 0; r < ranks; ++r) {
    rank(r).Call(now[r], all_in + 1, "MPI_Init");
    now[r] = all_in + 1;
  }

  constexpr std::array<const char*, 3> kWork = {"w0", "w1", "w2"};
  const uint32_t steps = 6 + pick(10);
  for (uint32_t step = 0; step < steps; ++step) {
    const uint32_t kind = pick(10);
    if (kind < 4) {
      for (uint32_t r = 0; r < ranks; ++r) {
        if (pick(3) == 0) continue;
        const uint64_t length = 1 + pick(5);
        rank(r).Call(now[r], now[r] + length, kWork[pick(3)]);
        now[r] += length;
      }
    } else if (kind < 7) {
      const uint32_t from = pick(ranks);
      uint32_t to = pick(ranks - 1);
      if (to >= from) ++to;
      const uint64_t sent = now[from];
      rank(from).Send(sent, sent + 1, static_cast<int>(to), 0, 8);
      now[from] = sent + 1;
      const uint64_t received = std::max(now[to], sent) + 1 + pick(2);
      rank(to).Recv(now[to], received, static_cast<int>(from), 0, 8);
      now[to] = received;
    } else {
      const uint32_t op = pick(4);
      const uint32_t root = pick(ranks);
      const uint64_t last = latest();
      for (uint32_t r = 0; r < ranks; ++r) {
        const uint64_t leave = last + 1 + pick(2);
        const bool is_root = r == root;
        switch (op) {
          case 0:
            rank(r).Collective(now[r], leave, "MPI_Barrier", OTF2_COLLECTIVE_OP_BARRIER, 0, 0);
            break;
          case 1:
            rank(r).Collective(now[r], leave, "MPI_Allreduce", OTF2_COLLECTIVE_OP_ALLREDUCE, 8, 8);
            break;
          case 2:
            rank(r).Collective(now[r], leave, "MPI_Bcast", OTF2_COLLECTIVE_OP_BCAST,
                               is_root ? 8 : 0, is_root ? 0 : 8, root);
            break;
          default:
            rank(r).Collective(now[r], leave, "MPI_Reduce", OTF2_COLLECTIVE_OP_REDUCE, 8,
                               is_root ? 8 * uint64_t{ranks} : 0, root);
            break;
        }
        now[r] = leave;
      }
    }
  }
  const uint64_t end = latest();
  for (uint32_t r = 0; r < ranks; ++r) {
    rank(r).Call(now[r], end + 1, "MPI_Finalize").Leave(end + 2 + pick(2), "main");
  }
  return s;
}

}  // namespace cw::testing
