// Where a rank may run and how long it could not: the CPUs it may run on, the node's online
// CPUs, and the kernel's account of its main thread (/proc/thread-self/schedstat: the time it
// ran, and the time it was runnable but waited for a CPU). More processes and threads than CPUs
// make ranks wait for the scheduler, which a trace shows as wait states and slow operations;
// these figures let the analysis tell that from the program (measure/core: shared by the
// tracing libraries).
#pragma once

#include <cstdint>
#include <string>

namespace cw::measure {

struct ThreadSchedule {
  bool known = false;      // the kernel gives schedstat (CONFIG_SCHEDSTATS)
  uint64_t ran_ns = 0;     // on a CPU
  uint64_t waited_ns = 0;  // runnable, waiting for a CPU
};

// The calling thread's figures so far.
ThreadSchedule ReadThreadSchedule();

// "sched ALLOWED ONLINE RAN_NS WAITED_NS" for a rank's definitions: its CPUs, the node's, and
// what its main thread ran and waited for a CPU between `start` and now (both -1 if unknown).
std::string SchedulingLine(const ThreadSchedule& start);

}  // namespace cw::measure
