// Sampled computation (causeway trace --callpaths sampled): what a thread computes between two
// recorded calls, found by a timer that walks its stack every few milliseconds of its CPU time.
//
// Each recording thread has a timer on its own CPU-time clock (CLOCK_THREAD_CPUTIME_ID, SIGPROF
// to that thread alone): it fires only while the thread runs, so that a thread blocked or
// asleep is never interrupted (a sleep cut short would change the program) and the samples fall
// in proportion to the computation. The handler does what is safe in a signal handler: inside
// a recorded call, while the recorder works on the thread, or in the dynamic loader or the C++
// unwinder (whose lock a walk would take again), it does nothing; otherwise it
// stamps the time and walks the stack into the thread's preallocated buffer, skipping a walk
// equal to the one before. The next recorded call (or region, or the end) writes the buffered
// samples as kSample records with their calling-context nodes (calling_contexts.h), in time
// order before its own records. A full buffer drops further samples and counts them.
//
// The samples also measure how long the thread's computation was descheduled: each one reads
// the kernel's count of the thread's time runnable without a CPU (schedstat's run delay). Two
// samples with no record of the thread between them (no call, region or OpenMP event: each
// drains the samples first, DrainSamples) span computation alone, and the run delay that grew
// between them is computation the scheduler kept off a CPU. Only such spans
// count (the handler does not know when a call began or ended); `computation_measured_ns`
// says how much computation they cover.
#pragma once

#include <atomic>
#include <csignal>
#include <cstdint>
#include <string>

#include "measure/raw/tracer_defaults.h"
#include "measure/runtime/calling_contexts.h"

namespace cw::measure::hook {

struct ThreadState;

// A thread buffers up to kSampleSlots samples between two recorded calls (consecutive equal
// walks take one), each of at most kMaxSampleDepth frames (the innermost): 256 KiB a thread.
inline constexpr uint32_t kSampleSlots = 256;
inline constexpr uint32_t kMaxSampleDepth = 128;

struct SampleBuffer {
  struct Slot {
    uint64_t time;
    uint32_t depth;
    uintptr_t pcs[kMaxSampleDepth];  // innermost first
  };
  volatile uint32_t count = 0;
  uint64_t taken = 0;
  uint64_t lost = 0;     // the buffer was full
  uint64_t inside = 0;   // left out: taken inside a user region or instrumented function
  uint64_t cost_ns = 0;  // spent in the handler and in writing the samples
  // Spans of computation between two samples: their length and the run delay that grew in them.
  uint64_t computation_measured_ns = 0;
  uint64_t computation_descheduled_ns = 0;
  // The previous sample's reading: the thread's drain count then (ThreadState::pauses; a
  // different count now means the thread recorded something in between), its time and run
  // delay.
  bool has_reading = false;
  uint32_t reading_pauses = 0;
  uint64_t reading_time = 0;
  uint64_t reading_delay = 0;
  int schedstat_fd = -1;  // /proc/thread-self/schedstat, -1 where the kernel does not keep it
  // The counters as last added to the process's (DrainSamples, StopThreadSampling): a thread of
  // the OpenMP runtime's pool never ends before MPI_Finalize, so its counts go in as it drains.
  uint64_t folded_taken = 0;
  uint64_t folded_lost = 0;
  uint64_t folded_inside = 0;
  uint64_t folded_cost_ns = 0;
  uint64_t folded_measured_ns = 0;
  uint64_t folded_descheduled_ns = 0;
  Slot slots[kSampleSlots];
};

// Reads CAUSEWAY_SAMPLING_INTERVAL (nanoseconds of CPU time) when the recorder starts; sampling
// is on if CAUSEWAY_CALLPATHS is "sampled" (its default) and the interval is not 0.
void StartSamplingProcess();

// Starts (at a thread's first recorded call) and stops (at its end, or MPI_Finalize) the
// calling thread's sampling.
void StartThreadSampling(ThreadState& t);
void StopThreadSampling(ThreadState& t);

// "samples TAKEN LOST NANOSECONDS INSIDE MEASURED DESCHEDULED" for the rank's definitions: what
// the threads took, dropped, spent on them and left out inside user regions and instrumented
// functions, and the computation their samples spanned and the part of it they were
// descheduled (-1 -1 where the kernel keeps no run delay), as far as their samples were drained
// or their sampling stopped; empty when sampling is off.
std::string SamplesLine();

// Writes the thread's buffered samples into its log.
void DrainSamples(ThreadState& t);

// Marks the recorder's work on the calling thread (nested marks count): the sampling handler
// leaves the thread alone until the last one ends.
void PauseSampling(ThreadState& t);
void ResumeSampling(ThreadState& t);

class SamplingPause {
 public:
  explicit SamplingPause(ThreadState& t) : t_(t) { PauseSampling(t_); }
  ~SamplingPause() { ResumeSampling(t_); }
  SamplingPause(const SamplingPause&) = delete;
  SamplingPause& operator=(const SamplingPause&) = delete;

 private:
  ThreadState& t_;
};

}  // namespace cw::measure::hook
