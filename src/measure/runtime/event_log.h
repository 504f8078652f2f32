// The bounded per-rank event buffer of libcauseway-mpi and the two files it fills.
//
// Events go into a fixed array; when it is full it is written to the rank's events file with
// write(2) and reused, so memory stays bounded however long the program runs, and nothing is
// dropped. Each flush is itself recorded as a region (it perturbs the program). Everything a
// signal handler needs is preallocated: FlushForCrash only calls write(2).
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "measure/core/timer.h"
#include "measure/raw/raw_format.h"

namespace cw::measure {

class EventLog {
 public:
  // The write system calls every log of the process made so far (the tracer's own, which
  // write_calls.h leaves out of the program's).
  static uint64_t WriteCalls() { return write_calls_.load(std::memory_order_relaxed); }

  // Opens (truncates) both files. False if they cannot be created.
  bool Open(const std::string& events_path, const std::string& defs_path, size_t capacity);
  void Close();

  // The event goes in before a flush it makes necessary: it was stamped before the flush began,
  // and the flush's own two records follow it, so a rank's timestamps never go back. (Placing
  // it after the flush would move it, in the exported trace, to the flush's end: a send could
  // then look later than its receive.)
  void Append(const RawEvent& e) {
    buffer_[size_++] = e;
    last_time_ = e.time;
    if (size_ + 2 > buffer_.size()) Flush();
  }
  // The time of the latest record (a flush's end, after a flush).
  uint64_t last_time() const { return last_time_; }
  // Writes the buffered events (normal operation: recorded as a flush region).
  void Flush();
  // Writes a timer calibration point ("tick COUNTER NANOSECONDS") if the timer is the
  // time-stamp counter (async-signal-safe).
  void Calibrate();
  // Writes what is buffered without recording anything: for a crash, from a signal handler.
  void FlushForCrash();
  // Appends one line (without its newline) to the definitions file.
  void Define(const std::string& line);
  void DefineForCrash(const char* line);  // async-signal-safe

  // Polling compaction. The index the next record takes in the buffer; a position stays valid
  // while flushes() does not change.
  size_t position() const { return size_; }
  // Folds the call recorded from `start` on (its Enter and what followed it, not yet its Leave)
  // into the call recorded from `previous` up to `start` (which ends with its Leave), if both
  // have the same records (times apart) and the gap between them is below `max_gap` timer
  // units: the earlier Leave then ends at `leave_time` and counts one call more (its `y`, see
  // raw_format.h), and the later call's records are dropped. False, changing nothing, otherwise.
  bool FoldRepeatedCall(size_t previous, size_t start, uint64_t leave_time, uint64_t max_gap);

  // The bytes the logs of this rank may still write, shared by them, and the flag a flush raises
  // once they are spent (causeway trace --max-size). Unlimited unless set.
  void LimitBytes(std::atomic<int64_t>* remaining, std::atomic<bool>* spent,
                  std::atomic<uint64_t>* spent_at) {
    remaining_ = remaining;
    spent_ = spent;
    spent_at_ = spent_at;
  }

  uint64_t events() const { return written_ + size_; }
  uint64_t flushes() const { return flushes_; }
  uint64_t flush_nanoseconds() const { return flush_ns_; }
  bool ok() const { return ok_; }

 private:
  bool WriteAll(int fd, const void* data, size_t bytes);
  static inline std::atomic<uint64_t> write_calls_{0};

  std::vector<RawEvent> buffer_;
  size_t size_ = 0;
  uint64_t last_time_ = 0;
  int events_fd_ = -1;
  int defs_fd_ = -1;
  uint64_t written_ = 0;
  uint64_t flushes_ = 0;
  uint64_t flush_ns_ = 0;
  bool ok_ = true;  // false after a failed write: events are lost and the trace says so
  std::atomic<int64_t>* remaining_ = nullptr;
  std::atomic<bool>* spent_ = nullptr;
  std::atomic<uint64_t>* spent_at_ = nullptr;  // the time the flag was raised
};

}  // namespace cw::measure
