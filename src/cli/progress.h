// A progress line on standard error, shown only when stderr is a terminal and the work has
// already taken more than a second (so scripts and quick runs see nothing).
//
//   std::atomic<uint64_t> done{0};
//   ProgressLine progress("reading", total_events, &done);
//   ... workers add to `done` ...
//   progress.SetPhase("matching");
//   progress.Finish();
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <string>
#include <thread>

namespace cw::cli {

class ProgressLine {
 public:
  ProgressLine(std::string phase, uint64_t total, const std::atomic<uint64_t>* done);
  ~ProgressLine();
  ProgressLine(const ProgressLine&) = delete;
  ProgressLine& operator=(const ProgressLine&) = delete;

  // A phase without a measurable amount of work.
  void SetPhase(std::string phase);
  void Finish();

 private:
  void Loop();
  void Draw(bool final_line);

  std::mutex mutex_;
  std::condition_variable wake_;
  std::string phase_;
  uint64_t total_;
  const std::atomic<uint64_t>* done_;
  bool enabled_;
  bool stop_ = false;
  bool drawn_ = false;
  std::thread thread_;
};

}  // namespace cw::cli
