// Random replay programs for the tests of the distributed pass: one generator, and one routine
// that runs a rank's share of a program, used both by the in-process test (comm::LocalGroup)
// and by the check that runs under mpirun (comm::MpiSession).
#pragma once

#include <cstdint>
#include <vector>

#include "comm/communicator.h"
#include "replay/pass.h"

namespace cw::replay::testing {

// A random program over `locations`: a global sequence of steps, each consuming the values sent
// to its location so far and sending to others. With `contradictions`, some steps also wait for
// an edge that a later step produces (often a cycle through the waiting location) or that no
// step produces: only an inconsistent trace says such things, and the pass must break them the
// same way whatever the distribution.
struct Program {
  struct Step {
    uint32_t location;
    std::vector<uint32_t> inputs;
    std::vector<uint32_t> outputs;
  };
  uint32_t locations = 0;
  uint32_t edges = 0;
  std::vector<Step> steps;
  std::vector<uint32_t> consumer;  // per edge
};

Program MakeProgram(uint32_t seed, uint32_t locations, uint32_t steps, bool contradictions);

// What one rank's share of a run gives: the hashes of the locations it owns (0 elsewhere) and
// the program edges it broke.
struct RankOutcome {
  std::vector<uint64_t> hash;
  std::vector<uint32_t> broken;
  PassStats stats;
};

// Runs the share of `p` that `comm`'s rank owns (owner[location]), with `threads` workers.
// Every rank numbers the edges its own way (a rotation by the rank), as a per-rank edge table
// would: the remote consumer's number is what the producer must name.
RankOutcome RunShare(const Program& p, comm::Communicator* comm, const std::vector<uint32_t>& owner,
                     unsigned threads);

std::vector<uint32_t> Blocks(uint32_t locations, uint32_t ranks);
std::vector<uint32_t> RoundRobin(uint32_t locations, uint32_t ranks);

}  // namespace cw::replay::testing
