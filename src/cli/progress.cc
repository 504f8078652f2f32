#include "cli/progress.h"

#include <unistd.h>
#include <chrono>
#include <cstdio>

namespace cw::cli {

ProgressLine::ProgressLine(std::string phase, uint64_t total, const std::atomic<uint64_t>* done)
    : phase_(std::move(phase)), total_(total), done_(done), enabled_(isatty(STDERR_FILENO) != 0) {
  if (enabled_) thread_ = std::thread([this] { Loop(); });
}

ProgressLine::~ProgressLine() { Finish(); }

void ProgressLine::SetPhase(std::string phase) {
  std::lock_guard<std::mutex> lock(mutex_);
  phase_ = std::move(phase);
  done_ = nullptr;
}

void ProgressLine::Finish() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (stop_) return;
    stop_ = true;
  }
  wake_.notify_all();
  if (thread_.joinable()) thread_.join();
  if (drawn_) std::fprintf(stderr, "\r\033[K");
}

void ProgressLine::Loop() {
  using namespace std::chrono_literals;
  std::unique_lock<std::mutex> lock(mutex_);
  if (wake_.wait_for(lock, 1s, [this] { return stop_; })) return;
  while (!stop_) {
    Draw(false);
    wake_.wait_for(lock, 200ms, [this] { return stop_; });
  }
}

void ProgressLine::Draw(bool) {
  constexpr int kWidth = 30;
  if (done_ != nullptr && total_ > 0) {
    double fraction =
        static_cast<double>(done_->load(std::memory_order_relaxed)) / static_cast<double>(total_);
    if (fraction > 1) fraction = 1;
    int filled = static_cast<int>(fraction * kWidth);
    std::fprintf(stderr, "\r\033[K%s [%.*s%*s] %3.0f%%", phase_.c_str(), filled,
                 "==============================", kWidth - filled, "", fraction * 100);
  } else {
    std::fprintf(stderr, "\r\033[K%s ...", phase_.c_str());
  }
  std::fflush(stderr);
  drawn_ = true;
}

}  // namespace cw::cli
