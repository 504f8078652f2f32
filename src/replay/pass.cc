#include "replay/pass.h"

#include <algorithm>
#include <thread>

#include "base/check.h"

namespace cw::replay {

Pass::Pass(const Schedule& schedule)
    : schedule_(schedule),
      state_(new std::atomic<uint8_t>[schedule.edge_count()]),
      parked_on_(new std::atomic<uint32_t>[schedule.location_count()]),
      next_step_(schedule.location_count(), 0) {
  for (uint32_t e = 0; e < schedule.edge_count(); ++e) state_[e].store(0);
  for (uint32_t l = 0; l < schedule.location_count(); ++l) parked_on_[l].store(kNoLocation);
}

PassStats Pass::Run(unsigned threads, const std::function<void(uint32_t, uint32_t)>& step) {
  const uint32_t n = schedule_.location_count();
  {
    std::lock_guard<std::mutex> lock(mutex_);
    runnable_.clear();
    // Reversed, so that location 0 is taken first: the order does not change results, but a
    // predictable start makes single-threaded runs easy to follow in a debugger.
    for (uint32_t l = n; l > 0; --l) runnable_.push_back(l - 1);
  }
  threads = std::max(1u, std::min(threads, std::max(1u, n)));
  std::vector<std::thread> pool;
  pool.reserve(threads - 1);
  for (unsigned t = 1; t < threads; ++t) pool.emplace_back([&] { Worker(step); });
  Worker(step);
  for (std::thread& thread : pool) thread.join();

  PassStats stats;
  stats.steps = steps_run_.load();
  stats.broken_edges = broken_;
  return stats;
}

void Pass::Worker(const std::function<void(uint32_t, uint32_t)>& step) {
  const uint32_t n = schedule_.location_count();
  std::unique_lock<std::mutex> lock(mutex_);
  while (true) {
    if (!runnable_.empty()) {
      uint32_t location = runnable_.back();
      runnable_.pop_back();
      ++running_;
      lock.unlock();
      bool finished = RunLocation(location, step);
      lock.lock();
      --running_;
      if (finished) ++finished_;
      if (running_ == 0 && runnable_.empty()) wake_.notify_all();
      continue;
    }
    if (finished_ == n) {
      wake_.notify_all();
      return;
    }
    if (running_ == 0) {
      // Every unfinished location waits for a value nobody will send.
      BreakStall();
      continue;
    }
    wake_.wait(lock);
  }
}

bool Pass::RunLocation(uint32_t location, const std::function<void(uint32_t, uint32_t)>& step) {
  const uint32_t count = schedule_.step_count(location);
  uint32_t& next = next_step_[location];
  while (next < count) {
    for (uint32_t edge : schedule_.inputs(location, next)) {
      if (state_[edge].load(std::memory_order_acquire) == 0 && Park(location, edge)) return false;
    }
    step(location, next);
    ++next;
    steps_run_.fetch_add(1, std::memory_order_relaxed);
  }
  return true;
}

// Parks `location` on `edge` unless the value arrived meanwhile. The publisher sets the edge's
// state before it looks at parked_on_, and we set parked_on_ before we look at the state, so at
// least one of the two sees the other (sequentially consistent atomics); the mutex decides who
// wakes the location.
bool Pass::Park(uint32_t location, uint32_t edge) {
  std::lock_guard<std::mutex> lock(mutex_);
  parked_on_[location].store(edge);
  if (state_[edge].load() != 0) {
    parked_on_[location].store(kNoLocation);
    return false;
  }
  return true;
}

void Pass::Published(uint32_t edge) {
  state_[edge].store(1);
  uint32_t consumer = schedule_.consumer(edge);
  if (consumer == kNoLocation || parked_on_[consumer].load() != edge) return;
  std::lock_guard<std::mutex> lock(mutex_);
  if (parked_on_[consumer].load() != edge) return;
  parked_on_[consumer].store(kNoLocation);
  runnable_.push_back(consumer);
  wake_.notify_one();
}

void Pass::BreakStall() {
  for (uint32_t l = 0; l < schedule_.location_count(); ++l) {
    uint32_t edge = parked_on_[l].load();
    if (edge == kNoLocation) continue;
    state_[edge].store(2);
    parked_on_[l].store(kNoLocation);
    broken_.push_back(edge);
    runnable_.push_back(l);
    return;
  }
  CW_UNREACHABLE("a stalled pass has no parked location");
}

}  // namespace cw::replay
