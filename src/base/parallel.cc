#include "base/parallel.h"

#include <sched.h>

namespace cw {

unsigned MachineCpuCount() {
  const unsigned n = std::thread::hardware_concurrency();
  return n == 0 ? 1 : n;
}

unsigned UsableCpuCount() {
  cpu_set_t set;
  CPU_ZERO(&set);
  // Fails on machines with more CPUs than a cpu_set_t holds (1024): then all of them.
  if (sched_getaffinity(0, sizeof(set), &set) == 0) {
    const int n = CPU_COUNT(&set);
    if (n > 0) return static_cast<unsigned>(n);
  }
  return MachineCpuCount();
}

unsigned DefaultThreadCount() { return UsableCpuCount(); }

}  // namespace cw
