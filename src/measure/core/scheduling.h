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
  // The node's CPU time so far, summed over its CPUs (/proc/stat), and the part of it that a
  // hypervisor gave to other virtual machines while this one's CPUs had work (steal time): on
  // a shared virtual node, the waiting no process of this node can show.
  bool node_known = false;
  uint64_t node_ns = 0;
  uint64_t node_stolen_ns = 0;
};

// The calling thread's figures so far, and the node's.
ThreadSchedule ReadThreadSchedule();

// "sched ALLOWED ONLINE RAN_NS WAITED_NS NODE_NS STOLEN_NS" for a rank's definitions: its CPUs,
// the node's, what its main thread ran and waited for a CPU, and the node's CPU time and the
// part of it stolen, between `start` and now (each pair -1 if unknown).
std::string SchedulingLine(const ThreadSchedule& start);

}  // namespace cw::measure
