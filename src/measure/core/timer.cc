#include "measure/core/timer.h"

#include <cstdlib>
#include <cstring>
#include <ctime>
#include <fstream>
#include <string>

namespace cw::measure {

bool g_timer_is_tsc = false;

namespace {

uint64_t g_load_time = 0;

// The counter is usable if it ticks at one rate whatever the core's frequency and sleep state.
bool CounterIsInvariant() {
#if defined(__x86_64__) || defined(__i386__)
  std::ifstream cpuinfo("/proc/cpuinfo");
  std::string line;
  while (std::getline(cpuinfo, line)) {
    if (line.rfind("flags", 0) != 0) continue;
    return line.find(" constant_tsc") != std::string::npos &&
           line.find(" nonstop_tsc") != std::string::npos;
  }
#endif
  return false;
}

__attribute__((constructor)) void ChooseTimer() {
  const char* choice = std::getenv("CAUSEWAY_TIMER");
  const bool monotonic = choice != nullptr && std::strcmp(choice, "monotonic") == 0;
  if (!monotonic) g_timer_is_tsc = CounterIsInvariant();
  g_load_time = TimerNow();
}

}  // namespace

uint64_t MonotonicNow() {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<uint64_t>(ts.tv_sec) * 1'000'000'000u + static_cast<uint64_t>(ts.tv_nsec);
}

bool TimerIsTsc() { return g_timer_is_tsc; }

uint64_t LibraryLoadTime() { return g_load_time; }

}  // namespace cw::measure
