#include "measure/core/scheduling.h"

#include <sched.h>
#include <unistd.h>

#include <cstdio>

namespace cw::measure {

namespace {

// The first line of /proc/stat: "cpu USER NICE SYSTEM IDLE IOWAIT IRQ SOFTIRQ STEAL GUEST
// GUEST_NICE" in clock ticks, summed over the CPUs. Guest time is already in USER and NICE, so
// the node's time is the sum of the first eight.
void ReadNodeCpuTime(ThreadSchedule& s) {
  std::FILE* file = std::fopen("/proc/stat", "r");
  if (file == nullptr) return;
  unsigned long long t[8] = {};
  const bool read = std::fscanf(file, "cpu %llu %llu %llu %llu %llu %llu %llu %llu", &t[0], &t[1],
                                &t[2], &t[3], &t[4], &t[5], &t[6], &t[7]) == 8;
  std::fclose(file);
  const long ticks_per_second = sysconf(_SC_CLK_TCK);
  if (!read || ticks_per_second <= 0) return;
  unsigned long long total = 0;
  for (unsigned long long ticks : t) total += ticks;
  const uint64_t ns_per_tick = 1000000000ULL / static_cast<uint64_t>(ticks_per_second);
  s.node_known = true;
  s.node_ns = total * ns_per_tick;
  s.node_stolen_ns = t[7] * ns_per_tick;
}

}  // namespace

ThreadSchedule ReadThreadSchedule() {
  ThreadSchedule s;
  ReadNodeCpuTime(s);
  std::FILE* file = std::fopen("/proc/thread-self/schedstat", "r");
  if (file == nullptr) return s;
  unsigned long long ran = 0, waited = 0;
  s.known = std::fscanf(file, "%llu %llu", &ran, &waited) == 2;
  std::fclose(file);
  s.ran_ns = ran;
  s.waited_ns = waited;
  return s;
}

std::string SchedulingLine(const ThreadSchedule& start) {
  cpu_set_t set;
  CPU_ZERO(&set);
  const int allowed = sched_getaffinity(0, sizeof set, &set) == 0 ? CPU_COUNT(&set) : -1;
  const long online = sysconf(_SC_NPROCESSORS_ONLN);
  const ThreadSchedule now = ReadThreadSchedule();
  const bool known =
      start.known && now.known && now.ran_ns >= start.ran_ns && now.waited_ns >= start.waited_ns;
  const bool node_known = start.node_known && now.node_known && now.node_ns >= start.node_ns &&
                          now.node_stolen_ns >= start.node_stolen_ns;
  char line[160];
  std::snprintf(
      line, sizeof line, "sched %d %ld %lld %lld %lld %lld", allowed, online,
      known ? static_cast<long long>(now.ran_ns - start.ran_ns) : -1LL,
      known ? static_cast<long long>(now.waited_ns - start.waited_ns) : -1LL,
      node_known ? static_cast<long long>(now.node_ns - start.node_ns) : -1LL,
      node_known ? static_cast<long long>(now.node_stolen_ns - start.node_stolen_ns) : -1LL);
  return line;
}

}  // namespace cw::measure
