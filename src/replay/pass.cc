#include "replay/pass.h"

#include <algorithm>
#include <thread>

#include "base/check.h"

namespace cw::replay {

Pass::Pass(const Schedule& schedule, comm::Communicator* comm)
    : schedule_(schedule),
      comm_(comm != nullptr && comm->size() > 1 ? comm : nullptr),
      state_(new std::atomic<uint8_t>[schedule.edge_count()]),
      parked_on_(new std::atomic<uint32_t>[schedule.location_count()]),
      next_step_(schedule.location_count(), 0) {
  for (uint32_t e = 0; e < schedule.edge_count(); ++e) state_[e].store(0);
  for (uint32_t l = 0; l < schedule.location_count(); ++l) parked_on_[l].store(kNoLocation);
}

void Pass::SetEdgeNames(std::span<const uint64_t> names) {
  CW_CHECK(names.size() == schedule_.edge_count());
  names_ = names;
  by_name_.clear();
  if (std::is_sorted(names.begin(), names.end())) return;
  by_name_.resize(names.size());
  for (uint32_t e = 0; e < by_name_.size(); ++e) by_name_[e] = e;
  std::sort(by_name_.begin(), by_name_.end(),
            [&](uint32_t a, uint32_t b) { return names[a] < names[b]; });
}

void Pass::SetRemoteConsumer(uint32_t edge, uint32_t rank) {
  CW_CHECK(comm_ != nullptr && rank < comm_->size() && rank != comm_->rank());
  CW_CHECK(names_.size() == schedule_.edge_count());
  if (remote_rank_.empty()) remote_rank_.assign(schedule_.edge_count(), kNoRank);
  remote_rank_[edge] = rank;
}

uint32_t Pass::EdgeNamed(uint64_t name) const {
  if (by_name_.empty()) {
    auto it = std::lower_bound(names_.begin(), names_.end(), name);
    CW_CHECK(it != names_.end() && *it == name);
    return static_cast<uint32_t>(it - names_.begin());
  }
  auto it = std::lower_bound(by_name_.begin(), by_name_.end(), name,
                             [&](uint32_t e, uint64_t n) { return names_[e] < n; });
  CW_CHECK(it != by_name_.end() && names_[*it] == name);
  return *it;
}

uint32_t Pass::AddChannel(internal::Channel* channel) {
  channels_.push_back(channel);
  return static_cast<uint32_t>(channels_.size() - 1);
}

PassStats Pass::Run(unsigned threads, const std::function<void(uint32_t, uint32_t)>& step) {
  const uint32_t n = schedule_.location_count();
  // Workers share out the locations that have steps (distributed, the ones this rank owns).
  active_ = 0;
  for (uint32_t l = 0; l < n; ++l) {
    if (schedule_.step_count(l) > 0) ++active_;
  }
  threads = std::max(1u, std::min(threads, std::max(1u, active_)));
  {
    std::lock_guard<std::mutex> lock(mutex_);
    workers_ = threads;
    queues_.assign(threads, {});
    wakes_ = std::vector<std::condition_variable>(threads);
    worker_of_.assign(n, 0);
    uint32_t index = 0;
    for (uint32_t l = 0; l < n; ++l) {
      if (schedule_.step_count(l) == 0) continue;
      worker_of_[l] = static_cast<uint32_t>(uint64_t{index++} * workers_ / active_);
    }
    // Reversed, so that each worker starts with its first location.
    for (uint32_t l = n; l > 0; --l) {
      if (schedule_.step_count(l - 1) > 0) queues_[OwnerOf(l - 1)].push_back(l - 1);
    }
  }
  PassStats stats;
  if (comm_ != nullptr) {
    stats = RunDistributed(threads, step);
  } else {
    RunWorkers(threads, step);
  }
  stats.steps = steps_run_.load();
  stats.parks = parks_.load();
  stats.sleeps = sleeps_;
  stats.broken_edges = broken_;
  stats.broken_at_stall = broken_at_stall_;
  return stats;
}

void Pass::RunWorkers(unsigned threads, const std::function<void(uint32_t, uint32_t)>& step) {
  std::vector<std::thread> pool;
  pool.reserve(threads - 1);
  for (unsigned t = 1; t < threads; ++t) pool.emplace_back([&, t] { Worker(t, step); });
  Worker(0, step);
  for (std::thread& thread : pool) thread.join();
}

PassStats Pass::RunDistributed(unsigned threads,
                               const std::function<void(uint32_t, uint32_t)>& step) {
  stop_at_stall_ = true;
  outbox_.assign(comm_->size(), {});
  previous_name_.assign(comm_->size(), 0);
  PassStats stats;
  stats.rounds = 0;
  while (true) {
    RunWorkers(threads, step);
    ++stats.rounds;
    const uint64_t crossed = ExchangeRound();
    const uint64_t unfinished = comm_->AllReduce(active_ - finished_, comm::ReduceOp::kSum);
    if (unfinished == 0) break;
    if (crossed > 0) continue;
    // Nothing crossed and nothing can run: the whole job is stalled, in the same state a single
    // process would stall in. The lowest parked location of all gives up its input.
    const uint64_t lowest = comm_->AllReduce(LowestParked(), comm::ReduceOp::kMin);
    CW_CHECK(lowest < kNoLocation);
    std::lock_guard<std::mutex> lock(mutex_);
    if (parked_on_[lowest].load() != kNoLocation) Break(static_cast<uint32_t>(lowest));
    ++stalls_;
  }
  std::lock_guard<std::mutex> lock(outbox_mutex_);
  stats.values_sent = values_sent_;
  stats.bytes_sent = bytes_sent_;
  return stats;
}

uint64_t Pass::ExchangeRound() {
  std::vector<comm::Bytes> out(comm_->size());
  uint64_t sent = 0;
  {
    std::lock_guard<std::mutex> lock(outbox_mutex_);
    sent = values_sent_ - values_sent_before_round_;
    values_sent_before_round_ = values_sent_;
    for (uint32_t r = 0; r < comm_->size(); ++r) out[r] = outbox_[r].Take();
    previous_name_.assign(comm_->size(), 0);
  }
  std::vector<comm::Bytes> in = comm_->Exchange(std::move(out));
  for (const comm::Bytes& bytes : in) {
    comm::ByteReader reader(bytes);
    uint64_t name = 0;
    while (!reader.done()) {
      const auto channel = channels_.size() > 1 ? static_cast<uint32_t>(reader.GetVarint()) : 0;
      name = reader.GetDelta(name);
      CW_CHECK(channel < channels_.size());
      channels_[channel]->Unpack(EdgeNamed(name), reader);
    }
  }
  return comm_->AllReduce(sent, comm::ReduceOp::kSum);
}

uint32_t Pass::LowestParked() const {
  for (uint32_t l = 0; l < schedule_.location_count(); ++l) {
    if (parked_on_[l].load() != kNoLocation) return l;
  }
  return kNoLocation;
}

// Each worker owns a contiguous block of locations and runs them while it can: a value that
// crosses from one worker to another costs a transfer between CPU caches, and in most programs
// locations exchange most with their neighbours. A worker with nothing of its own to run takes
// work from the fullest other queue.
uint32_t Pass::OwnerOf(uint32_t location) const { return worker_of_[location]; }

void Pass::Worker(unsigned me, const std::function<void(uint32_t, uint32_t)>& step) {
  std::unique_lock<std::mutex> lock(mutex_);
  bool spun = false;  // spun since the last run or sleep
  while (true) {
    std::vector<uint32_t>* queue = &queues_[me];
    if (queue->empty()) {
      for (std::vector<uint32_t>& other : queues_) {
        if (other.size() > queue->size()) queue = &other;
      }
    }
    if (!queue->empty()) {
      uint32_t location = queue->back();
      queue->pop_back();
      ++running_;
      spun = false;
      lock.unlock();
      bool finished = RunLocation(location, step);
      lock.lock();
      --running_;
      if (finished) ++finished_;
      if (running_ == 0) {
        for (std::condition_variable& wake : wakes_) wake.notify_all();
      }
      continue;
    }
    if (finished_ == active_) {
      for (std::condition_variable& wake : wakes_) wake.notify_all();
      return;
    }
    if (running_ == 0) {
      // Every unfinished location waits for a value nobody here will send: distributed, the
      // round ends (the value may come from another rank); in one process, the pass is stuck.
      if (stop_at_stall_) {
        for (std::condition_variable& wake : wakes_) wake.notify_all();
        return;
      }
      BreakStall();
      continue;
    }
    // Before sleeping, spin a little: the location another worker is about to publish for is
    // usually runnable within microseconds, and a sleep and wake-up through the kernel costs
    // tens of them (more on a virtual machine).
    // Everything is checked again under the lock after spinning, so no wake-up is lost.
    if (!spun) {
      const uint64_t generation = queued_.load(std::memory_order_relaxed);
      lock.unlock();
      for (int spin = 0; spin < kSpinsBeforeSleep; ++spin) {
        if (queued_.load(std::memory_order_relaxed) != generation) break;
        std::this_thread::yield();
      }
      lock.lock();
      spun = true;
      continue;
    }
    spun = false;
    ++sleeps_;
    wakes_[me].wait(lock);
  }
}

bool Pass::RunLocation(uint32_t location, const std::function<void(uint32_t, uint32_t)>& step) {
  // Counters live in locals while the location runs: next_step_ and steps_run_ are shared with
  // the other workers, and writing them per step would bounce their cache lines between CPUs.
  const uint32_t count = schedule_.step_count(location);
  const uint32_t first = next_step_[location];
  uint32_t next = first;
  bool finished = true;
  while (next < count) {
    bool parked = false;
    for (uint32_t edge : schedule_.inputs(location, next)) {
      if (state_[edge].load(std::memory_order_acquire) != 0) continue;
      // Store the position before parking: once parked, another worker may resume the location
      // (the mutex in Park orders this store before that worker's read).
      next_step_[location] = next;
      if (Park(location, edge)) {
        parked = true;
        break;
      }
    }
    if (parked) {
      finished = false;
      break;
    }
    step(location, next);
    ++next;
  }
  steps_run_.fetch_add(next - first, std::memory_order_relaxed);
  if (finished) next_step_[location] = next;
  return finished;
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
  parks_.fetch_add(1, std::memory_order_relaxed);
  return true;
}

void Pass::Published(uint32_t edge) {
  state_[edge].store(1);
  uint32_t consumer = schedule_.consumer(edge);
  if (consumer == kNoLocation || parked_on_[consumer].load() != edge) return;
  std::lock_guard<std::mutex> lock(mutex_);
  if (parked_on_[consumer].load() != edge) return;
  parked_on_[consumer].store(kNoLocation);
  uint32_t owner = OwnerOf(consumer);
  queues_[owner].push_back(consumer);
  queued_.fetch_add(1, std::memory_order_relaxed);
  wakes_[owner].notify_one();
}

void Pass::BreakStall() {
  uint32_t lowest = LowestParked();
  if (lowest == kNoLocation) CW_UNREACHABLE("a stalled pass has no parked location");
  Break(lowest);
  ++stalls_;
}

void Pass::Break(uint32_t location) {
  uint32_t edge = parked_on_[location].load();
  state_[edge].store(2);
  parked_on_[location].store(kNoLocation);
  broken_.push_back(edge);
  broken_at_stall_.push_back(stalls_);
  queues_[OwnerOf(location)].push_back(location);
}

}  // namespace cw::replay
