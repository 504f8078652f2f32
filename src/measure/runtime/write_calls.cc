#include "measure/runtime/write_calls.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <string>

#include "measure/runtime/event_log.h"
#include "measure/runtime/recorder.h"

namespace cw::measure::hook {
namespace {

inline constexpr uint64_t kUnknown = UINT64_MAX;
inline constexpr char kRegionName[] = "write system calls";

std::atomic<bool> g_counting{false};
std::atomic<int> g_proc_io{-1};
std::atomic<uint64_t> g_last{kUnknown};
std::once_flag g_region_once;
uint32_t g_region = 0;

// The program's write system calls so far (the process's, less the tracer's own through its
// event logs), or kUnknown. The tracer's count is read first: a flush of another thread in
// between makes one write too many, a mark too many, never one too few.
uint64_t WriteCalls() {
  const uint64_t own = EventLog::WriteCalls();
  const int fd = g_proc_io.load(std::memory_order_relaxed);
  if (fd < 0) return kUnknown;
  char text[512];
  const ssize_t n = ::pread(fd, text, sizeof(text) - 1, 0);
  if (n <= 0) return kUnknown;
  text[n] = '\0';
  const char* at = std::strstr(text, "syscw:");
  if (at == nullptr) return kUnknown;
  char* end = nullptr;
  const unsigned long long calls = std::strtoull(at + 6, &end, 10);
  return end == at + 6 ? kUnknown : static_cast<uint64_t>(calls) - std::min<uint64_t>(own, calls);
}

// The marker's region, defined on first use (its file-I/O role makes it file I/O to the
// analysis and to other tools).
uint32_t MarkerRegion() {
  std::call_once(g_region_once, [] {
    State& s = S();
    g_region = s.next_region.fetch_add(1);
    s.log.Define("region " + std::to_string(g_region) + " " + kRegionName);
    s.log.Define("region_role " + std::to_string(g_region) + " file_io");
  });
  return g_region;
}

}  // namespace

void StartCountingWrites() {
  const char* marks = std::getenv("CAUSEWAY_WRITE_MARKS");
  if (marks != nullptr && std::strcmp(marks, "0") == 0) return;  // causeway trace --write-marks off
  g_proc_io.store(::open("/proc/self/io", O_RDONLY | O_CLOEXEC), std::memory_order_relaxed);
  g_last.store(WriteCalls(), std::memory_order_relaxed);
  g_counting.store(true, std::memory_order_relaxed);
}

void MarkWritesBeforeBarrier(uint32_t context) {
  if (!g_counting.load(std::memory_order_relaxed)) return;
  const uint64_t now = WriteCalls();
  const uint64_t before = g_last.exchange(now, std::memory_order_relaxed);
  if (now != kUnknown && before != kUnknown && now == before) return;
  const uint32_t region = MarkerRegion();
  Record(RawKind::kEnter, region, context);
  Record(RawKind::kLeave, region);
}

}  // namespace cw::measure::hook
