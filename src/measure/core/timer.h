// The timer events are stamped with.
//
// Reading CLOCK_MONOTONIC costs about 45 ns on the virtual machines causeway is developed on,
// the time-stamp counter about 12: on x86 processors whose counter runs at a constant rate in
// every power state (constant_tsc and nonstop_tsc), events are stamped with it, and the rank
// writes calibration points (counter, CLOCK_MONOTONIC) when it starts, at every flush and when
// it ends, however it ends. The exporter maps counter values to nanoseconds by the line through
// the first and last point. Elsewhere, or with CAUSEWAY_TIMER=monotonic, events are stamped with
// CLOCK_MONOTONIC nanoseconds directly.
#pragma once

#include <cstdint>

#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>
#endif

namespace cw::measure {

// Nanoseconds of CLOCK_MONOTONIC (async-signal-safe).
uint64_t MonotonicNow();

// True if events are stamped with the time-stamp counter (decided once, at library load).
bool TimerIsTsc();

// The timer's value when the library was loaded, before the program's main (0 if the library
// was loaded by dlopen before its constructors ran, which does not happen with LD_PRELOAD).
uint64_t LibraryLoadTime();

inline uint64_t TimerNow() {
#if defined(__x86_64__) || defined(__i386__)
  extern bool g_timer_is_tsc;
  if (g_timer_is_tsc) return __rdtsc();
#endif
  return MonotonicNow();
}

}  // namespace cw::measure
