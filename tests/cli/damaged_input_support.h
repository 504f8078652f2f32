// What the damaged-input tests share (damaged_traces_test.cc, damaged_inputs_test.cc): running
// the causeway command as users run it, under a timeout, an address-space limit (release builds)
// and a measurement of its peak memory, and what its outcome must show.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "testing/scenario.h"

namespace cw::test {

struct Outcome {
  int code = 0;
  std::string out;
  uint64_t peak_kib = 0;
};

// AddressSanitizer's shadow memory and quarantine add a few hundred megabytes to every run, and
// its unoptimised build runs 20 times slower: the memory allowance of a run grows (the
// program's own share of a run's peak), and the largest inputs shrink, in sanitized builds.
#if CW_SANITIZED
inline constexpr uint64_t kProgramBytes = 600ull << 20;
inline constexpr uint64_t kManyRegions = 10000;
#else
inline constexpr uint64_t kProgramBytes = 100ull << 20;
inline constexpr uint64_t kManyRegions = 100000;
#endif

// Runs `causeway ARGS` (ARGS already quoted for the shell) under the timeout and limit.
Outcome Causeway(const std::string& args);
// Neither crashed nor hung: an exit code causeway chose (timeout exits 124, a signal > 128).
void ExpectNoCrash(const Outcome& o);
// Refused as bad input (exit 2), saying each of `says`.
void ExpectBadInput(const Outcome& o, const std::vector<std::string>& says);

// A writable copy of the shared trace `shared_trace` in a fresh folder named after `name`.
std::string Copy(const std::string& shared_trace, const std::string& name);
std::string ReadFile(const std::string& path);
void WriteFile(const std::string& path, const std::string& bytes);
// A fresh folder for a report.
std::string Out(const std::string& name);

// Two ranks, a late sender: rank 0 sends at 5 s what rank 1 waits for from 1 s.
testing::Scenario LateSender(uint64_t ticks_per_second = 1);

}  // namespace cw::test
