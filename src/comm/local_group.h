// K analysis ranks as threads of one process: the distributed algorithms run exactly as under
// MPI (same calls, same data crossing), so tests can compare K = 1..8 with the single-process
// result quickly and under the sanitizers.
//
//   comm::LocalGroup::Run(4, [&](comm::Communicator& comm) { ... comm.rank() ... });
#pragma once

#include <functional>

#include "comm/communicator.h"

namespace cw::comm {

class LocalGroup {
 public:
  // Runs `body` on `ranks` threads, each with its own Communicator of the group, and returns
  // when all have returned.
  static void Run(uint32_t ranks, const std::function<void(Communicator&)>& body);
};

}  // namespace cw::comm
