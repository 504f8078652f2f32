#include "measure/runtime/event_log.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace cw::measure {

namespace {

// Formats an unsigned number without the C library's locale machinery (signal handlers).
char* AppendNumber(char* out, uint64_t value) {
  char digits[24];
  int n = 0;
  do {
    digits[n++] = static_cast<char>('0' + value % 10);
    value /= 10;
  } while (value > 0);
  while (n > 0) *out++ = digits[--n];
  return out;
}

}  // namespace

bool EventLog::Open(const std::string& events_path, const std::string& defs_path, size_t capacity) {
  // assign() writes every record: the pages are faulted in here, at MPI_Init, rather than one
  // per hundred events while the program runs.
  buffer_.assign(capacity < 16 ? 16 : capacity, RawEvent{});
  size_ = 0;
  events_fd_ = ::open(events_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  defs_fd_ = ::open(defs_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_APPEND | O_CLOEXEC, 0644);
  ok_ = events_fd_ >= 0 && defs_fd_ >= 0;
  if (ok_) {
    Define(TimerIsTsc() ? "timer tsc" : "timer monotonic");
    Calibrate();
  }
  return ok_;
}

void EventLog::Calibrate() {
  if (!TimerIsTsc() || defs_fd_ < 0) return;
  const uint64_t ticks = TimerNow();
  const uint64_t ns = MonotonicNow();
  char line[64] = "tick ";
  char* end = AppendNumber(line + 5, ticks);
  *end++ = ' ';
  end = AppendNumber(end, ns);
  *end++ = '\n';
  WriteAll(defs_fd_, line, static_cast<size_t>(end - line));
}

void EventLog::Close() {
  Calibrate();
  if (events_fd_ >= 0) ::close(events_fd_);
  if (defs_fd_ >= 0) ::close(defs_fd_);
  events_fd_ = defs_fd_ = -1;
}

bool EventLog::WriteAll(int fd, const void* data, size_t bytes) {
  const char* p = static_cast<const char*>(data);
  while (bytes > 0) {
    write_calls_.fetch_add(1, std::memory_order_relaxed);
    ssize_t n = ::write(fd, p, bytes);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    p += n;
    bytes -= static_cast<size_t>(n);
  }
  return true;
}

void EventLog::Flush() {
  const uint64_t begin = TimerNow();
  const uint64_t begin_ns = MonotonicNow();
  const size_t count = size_;
  if (events_fd_ >= 0 && count > 0 &&
      !WriteAll(events_fd_, buffer_.data(), count * sizeof(RawEvent)))
    ok_ = false;
  written_ += count;
  size_ = 0;
  ++flushes_;
  if (remaining_ != nullptr) {
    const auto bytes = static_cast<int64_t>(count * sizeof(RawEvent));
    if (remaining_->fetch_sub(bytes, std::memory_order_relaxed) <= bytes &&
        !spent_->load(std::memory_order_relaxed)) {
      spent_at_->store(TimerNow(), std::memory_order_relaxed);
      spent_->store(true, std::memory_order_release);
    }
  }
  Calibrate();
  flush_ns_ += MonotonicNow() - begin_ns;
  const uint64_t end = TimerNow();
  // The flush shows in the trace as a region of its own.
  buffer_[size_++] = RawEvent{begin, RawKind::kEnter, 0, 0, kFlushRegion, 0, 0, 0, 0};
  buffer_[size_++] = RawEvent{end, RawKind::kLeave, 0, 0, kFlushRegion, 0, 0, 0, 0};
  last_time_ = end;
}

void EventLog::FlushForCrash() {
  if (events_fd_ >= 0 && size_ > 0) WriteAll(events_fd_, buffer_.data(), size_ * sizeof(RawEvent));
  Calibrate();
  written_ += size_;
  size_ = 0;
}

bool EventLog::FoldRepeatedCall(size_t previous, size_t start, uint64_t leave_time,
                                uint64_t max_gap) {
  if (previous >= start || start >= size_ || size_ - start != start - previous - 1) return false;
  RawEvent& leave = buffer_[start - 1];
  if (leave.kind != RawKind::kLeave || buffer_[start].time - leave.time >= max_gap) return false;
  for (size_t i = 0; i < size_ - start; ++i) {
    const RawEvent& a = buffer_[previous + i];
    const RawEvent& b = buffer_[start + i];
    if (a.kind != b.kind || a.op != b.op || a.a != b.a || a.b != b.b || a.c != b.c || a.x != b.x ||
        a.y != b.y)
      return false;
  }
  leave.time = leave_time;
  leave.y = (leave.y == 0 ? 1 : leave.y) + 1;
  size_ = start;
  last_time_ = leave_time;
  return true;
}

void EventLog::Define(const std::string& line) {
  std::string with_newline = line + "\n";
  if (defs_fd_ >= 0 && !WriteAll(defs_fd_, with_newline.data(), with_newline.size())) ok_ = false;
}

void EventLog::DefineForCrash(const char* line) {
  if (defs_fd_ < 0) return;
  WriteAll(defs_fd_, line, std::strlen(line));
  WriteAll(defs_fd_, "\n", 1);
}

}  // namespace cw::measure
