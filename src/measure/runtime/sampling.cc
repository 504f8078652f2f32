#include "measure/runtime/sampling.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/syscall.h>
#include <time.h>
#include <ucontext.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>

#include "measure/core/timer.h"
#include "measure/runtime/hooks.h"
#include "measure/runtime/recorder.h"
#include "measure/stack_walk/stack_walker.h"

namespace cw::measure::hook {
namespace {

// Code where a sample must not walk: the dynamic loader and the C++ unwinder hold the loader's
// lock that a stack walk takes (dl_iterate_phdr) to find unwind tables.
constexpr const char* kUnsafeModules[] = {"ld-linux", "libgcc_s"};
constexpr size_t kUnsafeCount = sizeof kUnsafeModules / sizeof kUnsafeModules[0];

struct SamplingSettings {
  bool on = false;
  uint64_t interval_ns = kDefaultSamplingNs;
  // Over the threads, as far as their counters were folded in (FoldCounters): samples taken,
  // dropped (their buffer was full), the time spent on them, and those left out.
  std::atomic<uint64_t> taken{0};
  std::atomic<uint64_t> lost{0};
  std::atomic<uint64_t> cost_ns{0};
  std::atomic<uint64_t> inside{0};
  std::atomic<uint64_t> measured_ns{0};
  std::atomic<uint64_t> descheduled_ns{0};
  std::atomic<bool> delay_known{true};  // every sampling thread could read its run delay
  stack_walk::CodeRange unsafe[kUnsafeCount];
};

SamplingSettings& Settings() {
  static SamplingSettings settings;
  return settings;
}

bool SameWalk(const SampleBuffer::Slot& a, const uintptr_t* pcs, uint32_t depth) {
  return a.depth == depth && std::memcmp(a.pcs, pcs, depth * sizeof(uintptr_t)) == 0;
}

// The instruction the signal interrupted, 0 where the architecture is not known here.
uintptr_t InterruptedPc(void* context) {
  const auto* uc = static_cast<const ucontext_t*>(context);
#if defined(__x86_64__)
  return static_cast<uintptr_t>(uc->uc_mcontext.gregs[REG_RIP]);
#elif defined(__aarch64__)
  return static_cast<uintptr_t>(uc->uc_mcontext.pc);
#else
  (void)uc;
  return 0;
#endif
}

// The walk from the signal handler holds the handler's frames and the signal trampoline before
// the interrupted instruction: they are cut, and the interrupted instruction is stored as the
// address after it, as a return address is (the exporter looks up the byte before each address:
// the interrupted instruction itself may begin a function).
uint32_t FromInterruptedFrame(uintptr_t* pcs, uint32_t depth, uintptr_t interrupted) {
  if (interrupted == 0) return depth;
  for (uint32_t i = 0; i < depth; ++i) {
    if (pcs[i] != interrupted) continue;
    pcs[0] = interrupted + 1;
    for (uint32_t k = 1; i > 0 && k < depth - i; ++k) pcs[k] = pcs[i + k];
    return depth - i;
  }
  return depth;
}

// Adds what the thread's counters gained since they were last folded to the process's. Called
// by the thread itself, while the handler is paused or its sampling stopped.
void FoldCounters(SampleBuffer& b) {
  SamplingSettings& s = Settings();
  s.taken.fetch_add(b.taken - b.folded_taken, std::memory_order_relaxed);
  s.lost.fetch_add(b.lost - b.folded_lost, std::memory_order_relaxed);
  s.inside.fetch_add(b.inside - b.folded_inside, std::memory_order_relaxed);
  s.cost_ns.fetch_add(b.cost_ns - b.folded_cost_ns, std::memory_order_relaxed);
  s.measured_ns.fetch_add(b.computation_measured_ns - b.folded_measured_ns,
                          std::memory_order_relaxed);
  s.descheduled_ns.fetch_add(b.computation_descheduled_ns - b.folded_descheduled_ns,
                             std::memory_order_relaxed);
  b.folded_taken = b.taken;
  b.folded_lost = b.lost;
  b.folded_inside = b.inside;
  b.folded_cost_ns = b.cost_ns;
  b.folded_measured_ns = b.computation_measured_ns;
  b.folded_descheduled_ns = b.computation_descheduled_ns;
}

// The thread's run delay, the second number of "RAN_NS DELAY_NS SLICES" in schedstat, read
// with a system call and digits alone, as a signal handler may. False if it cannot be read.
bool ReadRunDelay(int fd, uint64_t& delay) {
  char text[96];
  const ssize_t n = pread(fd, text, sizeof text - 1, 0);
  if (n <= 0) return false;
  ssize_t i = 0;
  while (i < n && text[i] >= '0' && text[i] <= '9') ++i;  // the time it ran
  if (i == 0 || i >= n || text[i] != ' ') return false;
  ++i;
  const ssize_t first = i;
  uint64_t value = 0;
  for (; i < n && text[i] >= '0' && text[i] <= '9'; ++i)
    value = value * 10 + static_cast<uint64_t>(text[i] - '0');
  if (i == first) return false;
  delay = value;
  return true;
}

// Adds the span since the previous sample to the thread's measured computation if the recorder
// did not work on the thread in between, and keeps this sample's reading for the next.
void MeasureDescheduling(const ThreadState& t, SampleBuffer& b, uint64_t now) {
  uint64_t delay = 0;
  if (b.schedstat_fd < 0 || !ReadRunDelay(b.schedstat_fd, delay)) return;
  const uint32_t pauses = t.pauses;
  if (b.has_reading && b.reading_pauses == pauses && now >= b.reading_time &&
      delay >= b.reading_delay) {
    b.computation_measured_ns += now - b.reading_time;
    // The run delay cannot exceed the span; a clamp keeps a coarse kernel count in range.
    b.computation_descheduled_ns += std::min(delay - b.reading_delay, now - b.reading_time);
  }
  b.has_reading = true;
  b.reading_pauses = pauses;
  b.reading_time = now;
  b.reading_delay = delay;
}

void OnSample(int, siginfo_t*, void* context) {
  ThreadState* t = CurrentThread();
  if (t == nullptr || t->samples == nullptr || t->busy != 0) return;
  const int saved_errno = errno;
  const uint64_t start = MonotonicNow();
  SampleBuffer& b = *t->samples;
  ++b.taken;
  MeasureDescheduling(*t, b, start);
  const uint32_t n = b.count;
  if (n == kSampleSlots) {
    ++b.lost;
  } else {
    const uintptr_t interrupted = InterruptedPc(context);
    for (const stack_walk::CodeRange& r : Settings().unsafe) {
      if (r.Holds(interrupted)) {
        errno = saved_errno;
        return;
      }
    }
    SampleBuffer::Slot& slot = b.slots[n];
    slot.time = Now();
    slot.depth =
        FromInterruptedFrame(slot.pcs, WalkForSample(slot.pcs, kMaxSampleDepth), interrupted);
    if (!(n > 0 && SameWalk(b.slots[n - 1], slot.pcs, slot.depth))) b.count = n + 1;
  }
  b.cost_ns += MonotonicNow() - start;
  errno = saved_errno;
}

}  // namespace

void StartSamplingProcess() {
  SamplingSettings& s = Settings();
  const char* mode = std::getenv("CAUSEWAY_CALLPATHS");
  s.on = mode == nullptr || std::strcmp(mode, "sampled") == 0;
  if (const char* interval = std::getenv("CAUSEWAY_SAMPLING_INTERVAL"); interval != nullptr) {
    s.interval_ns = std::strtoull(interval, nullptr, 10);
    if (s.interval_ns == 0) s.on = false;
  }
  if (!s.on || !WalkingCalls()) {
    s.on = false;
    return;
  }
  // A program that handles SIGPROF itself (a profiler of its own) keeps it: no samples then.
  struct sigaction old {};
  if (sigaction(SIGPROF, nullptr, &old) == 0 && old.sa_handler != SIG_DFL &&
      old.sa_handler != SIG_IGN) {
    s.on = false;
    return;
  }
  for (size_t i = 0; i < kUnsafeCount; ++i)
    s.unsafe[i] = stack_walk::ModuleNamed(kUnsafeModules[i]);
  struct sigaction action {};
  action.sa_sigaction = OnSample;
  action.sa_flags = SA_SIGINFO | SA_RESTART;
  sigemptyset(&action.sa_mask);
  if (sigaction(SIGPROF, &action, nullptr) != 0) s.on = false;
}

void StartThreadSampling(ThreadState& t) {
  const SamplingSettings& s = Settings();
  if (!s.on || t.samples != nullptr) return;
  t.samples = new SampleBuffer();
  struct sigevent event {};
  event.sigev_notify = SIGEV_THREAD_ID;
  event.sigev_signo = SIGPROF;
  event._sigev_un._tid = static_cast<pid_t>(syscall(SYS_gettid));
  if (timer_create(CLOCK_THREAD_CPUTIME_ID, &event, &t.sampling_timer) != 0) return;
  struct itimerspec every {};
  every.it_interval.tv_sec = static_cast<time_t>(s.interval_ns / 1'000'000'000);
  every.it_interval.tv_nsec = static_cast<long>(s.interval_ns % 1'000'000'000);
  every.it_value = every.it_interval;
  if (timer_settime(t.sampling_timer, 0, &every, nullptr) != 0) {
    timer_delete(t.sampling_timer);
    return;
  }
  // The handler measures nothing until the file is open (a sample may come first).
  t.samples->schedstat_fd = open("/proc/thread-self/schedstat", O_RDONLY | O_CLOEXEC);
  if (t.samples->schedstat_fd < 0) Settings().delay_known = false;
  t.sampling = true;
}

void StopThreadSampling(ThreadState& t) {
  if (!t.sampling) return;
  t.sampling = false;
  timer_delete(t.sampling_timer);
  FoldCounters(*t.samples);
  if (t.samples->schedstat_fd >= 0) close(t.samples->schedstat_fd);
  t.samples->schedstat_fd = -1;
}

std::string SamplesLine() {
  const SamplingSettings& s = Settings();
  if (!s.on) return "";
  const bool known = s.delay_known.load();
  return "samples " + std::to_string(s.taken.load()) + " " + std::to_string(s.lost.load()) + " " +
         std::to_string(s.cost_ns.load()) + " " + std::to_string(s.inside.load()) + " " +
         (known ? std::to_string(s.measured_ns.load()) : "-1") + " " +
         (known ? std::to_string(s.descheduled_ns.load()) : "-1");
}

void DrainSamples(ThreadState& t) {
  // Every record the thread makes (a call, a region, an OpenMP event) drains first: it ends the
  // span of computation that the samples before it measure, buffered samples or not.
  t.pauses = t.pauses + 1;
  if (t.samples == nullptr || t.samples->count == 0) return;
  SamplingPause pause(t);
  const uint64_t start = MonotonicNow();
  SampleBuffer& b = *t.samples;
  EventLog& log = *t.log;
  // Samples taken while a user region or an instrumented function is open on the thread that
  // initialised MPI are left out, as its calls are not walked then (calling_contexts.h): the
  // region is the finest path there, and a walked path inside it would repeat its function
  // (main/solve/solve). The recorder drains before every such frame opens or closes, so the
  // frames open now are the ones open when these samples were taken.
  if (t.index == 0 && !S().frames.empty()) {
    b.inside += b.count;
    b.count = 0;
  }
  for (uint32_t i = 0; i < b.count; ++i) {
    const SampleBuffer::Slot& slot = b.slots[i];
    const uint32_t node = InternWalk(t, slot.pcs, slot.depth);
    if (node == 0) continue;
    log.Append(
        RawEvent{std::max(slot.time, log.last_time()), RawKind::kSample, 0, 0, node, 0, 0, 0, 0});
  }
  b.count = 0;
  b.cost_ns += MonotonicNow() - start;
  FoldCounters(b);
}

// The counter is only read by a signal handler on the same thread: a compiler fence keeps the
// recorder's work between the two marks.
void PauseSampling(ThreadState& t) {
  t.busy = t.busy + 1;
  std::atomic_signal_fence(std::memory_order_seq_cst);
}

void ResumeSampling(ThreadState& t) {
  std::atomic_signal_fence(std::memory_order_seq_cst);
  t.busy = t.busy - 1;
}

}  // namespace cw::measure::hook
