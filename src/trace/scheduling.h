// Whether a run had more processes and threads than CPUs: ranks then wait for the scheduler,
// which a trace shows as wait states, slow operations and a low transfer efficiency that no
// change to the program or the network would remove. From the tracer's notes of where each rank
// ran (Definitions::rank_schedules) and the trace's threads of each rank.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "trace/definitions.h"

namespace cw::trace {

struct HostLoad {
  std::string host;
  uint32_t processes = 0;
  uint32_t threads = 0;    // the processes' CPU threads (locations)
  int cpus = 0;            // the node's online CPUs
  uint64_t waited_ns = 0;  // its ranks' main threads, runnable but waiting for a CPU (known ones)
  bool oversubscribed() const { return cpus > 0 && threads > static_cast<uint32_t>(cpus); }
};

// Per host, in order of first appearance; empty for traces without the tracer's notes.
std::vector<HostLoad> HostLoads(const Definitions& defs);

// Whether any host ran more threads than it has CPUs.
bool Oversubscribed(const Definitions& defs);

// "host vm: 4 processes with 4 threads on 2 CPUs" for the oversubscribed hosts.
std::string OversubscriptionText(const Definitions& defs);

}  // namespace cw::trace
