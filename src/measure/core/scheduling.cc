#include "measure/core/scheduling.h"

#include <sched.h>
#include <unistd.h>

#include <cstdio>

namespace cw::measure {

ThreadSchedule ReadThreadSchedule() {
  ThreadSchedule s;
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
  char line[128];
  std::snprintf(line, sizeof line, "sched %d %ld %lld %lld", allowed, online,
                known ? static_cast<long long>(now.ran_ns - start.ran_ns) : -1LL,
                known ? static_cast<long long>(now.waited_ns - start.waited_ns) : -1LL);
  return line;
}

}  // namespace cw::measure
