// Synthetic MPI traces with the structure of a real stencil code, written through the OTF2
// writer: every iteration each rank computes (with a static and a rotating load imbalance),
// exchanges halos with its four neighbours on a periodic 2-D grid (MPI_Irecv, MPI_Isend,
// MPI_Waitall) and joins an MPI_Allreduce. Timestamps come from a small simulation of that
// program (latency + bytes / bandwidth per message, a logarithmic allreduce), so the trace obeys
// the clock condition and its wait states are known in advance: the generator computes them with
// the same definitions (docs/metrics.md) from its own timeline, which lets tests cross-check the
// analysis on large traces.
//
//   SyntheticTraceOptions o;
//   o.ranks = 64;
//   o.target_events = 20'000'000;
//   CW_ASSIGN_OR_RETURN(SyntheticTraceFacts facts, WriteSyntheticTrace("/tmp/big", o));
#pragma once

#include <cstdint>
#include <string>

#include "base/status.h"

namespace cw::bench {

struct SyntheticTraceOptions {
  uint32_t ranks = 16;
  uint64_t iterations = 100;
  uint64_t target_events = 0;  // if set, the number of iterations is chosen to reach it
  double imbalance = 0.3;      // extra compute of the slowest ranks, as a fraction
  uint64_t message_bytes = 64 * 1024;
  uint64_t seed = 1;
};

// What the generator knows about the trace it wrote (times in seconds).
struct SyntheticTraceFacts {
  std::string anchor;
  uint64_t events = 0;
  uint64_t iterations = 0;
  uint64_t messages = 0;
  uint64_t allreduces = 0;
  double late_sender = 0;  // sum over all Waitalls of the Late Sender definition
  double late_receiver = 0;
  double wait_nxn = 0;
  double nxn_completion = 0;
};

Result<SyntheticTraceFacts> WriteSyntheticTrace(const std::string& directory,
                                                const SyntheticTraceOptions& options);

}  // namespace cw::bench
