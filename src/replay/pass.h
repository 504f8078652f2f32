// Runs a replay pass: every step of a Schedule, each as soon as the values of its inputs are in.
//
// This is causeway's counterpart of Scalasca's parallel replay. Scalasca runs one analysis
// process per traced process and re-enacts each message to carry values between them; here the
// locations of a trace are tasks on worker threads, and values travel along edges through a
// Mailbox. A location that reaches a step whose input has not arrived is parked and resumes when
// the value is published, so a pass follows the dependencies of the synchronisation graph in
// either direction, whatever the timestamps say.
//
// Results are identical for every thread count: a step sees only its own location's state and
// the values of its inputs, each produced by exactly one step, and the steps of one location
// always run in order. Analyses keep per-location accumulators and merge them in location order.
//
// A trace whose synchronisations contradict each other (A's step waits for B's, which waits for
// A's) would stall. The pass then gives up the input that the lowest parked location waits for
// (its Mailbox value reads as absent), records it in PassStats::broken_edges, and goes on; the
// choice does not depend on the thread count.
//
// The seam for an MPI back end (one analysis rank owning a set of locations) is Mailbox::Send
// and Pass::Published: a value for a remote consumer becomes an MPI message, and its arrival calls
// Published on the consumer's rank. Analyses do not change.
//
//   replay::Pass pass(schedule);
//   replay::Mailbox<Message> mail(pass);
//   pass.Run(threads, [&](uint32_t loc, uint32_t step) { ... mail.Send(e, v); mail.Receive(e) ...
//   });
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <utility>
#include <vector>

#include "replay/schedule.h"

namespace cw::replay {

struct PassStats {
  uint64_t steps = 0;
  uint64_t parks = 0;                  // times a location had to wait for an input
  uint64_t sleeps = 0;                 // times a worker found nothing to run and slept
  std::vector<uint32_t> broken_edges;  // given up to break a stall, in the order broken
};

class Pass {
 public:
  explicit Pass(const Schedule& schedule);
  Pass(const Pass&) = delete;
  Pass& operator=(const Pass&) = delete;

  // Runs `step(location, index)` once for every step. Steps of one location run in order and
  // never concurrently; a step runs after every one of its inputs was published or broken.
  PassStats Run(unsigned threads, const std::function<void(uint32_t, uint32_t)>& step);

  // The value of `edge` is in place (called by Mailbox::Send). Thread-safe.
  void Published(uint32_t edge);
  // The edge was given up to break a stall: its consumer runs without its value.
  bool broken(uint32_t edge) const { return state_[edge].load(std::memory_order_acquire) == 2; }

  uint32_t edge_count() const { return schedule_.edge_count(); }

 private:
  void Worker(unsigned me, const std::function<void(uint32_t, uint32_t)>& step);
  uint32_t OwnerOf(uint32_t location) const;
  // Runs `location` until it finishes (true) or parks on a missing input (false).
  bool RunLocation(uint32_t location, const std::function<void(uint32_t, uint32_t)>& step);
  bool Park(uint32_t location, uint32_t edge);
  void BreakStall();  // with mutex_ held

  const Schedule& schedule_;
  std::unique_ptr<std::atomic<uint8_t>[]> state_;       // per edge: 0 pending, 1 in, 2 broken
  std::unique_ptr<std::atomic<uint32_t>[]> parked_on_;  // per location: an edge or kNoLocation
  std::vector<uint32_t> next_step_;                     // per location
  std::atomic<uint64_t> steps_run_{0};
  std::atomic<uint64_t> parks_{0};
  uint64_t sleeps_ = 0;  // guarded by mutex_
  // Counts the locations made runnable by Published; a worker about to sleep spins while it
  // stays unchanged.
  std::atomic<uint64_t> queued_{0};
  static constexpr int kSpinsBeforeSleep = 200;

  std::mutex mutex_;
  unsigned workers_ = 1;
  std::vector<std::vector<uint32_t>> queues_;   // per worker: runnable locations; by mutex_
  std::vector<std::condition_variable> wakes_;  // per worker
  uint32_t running_ = 0;                        // guarded by mutex_
  uint32_t finished_ = 0;                       // guarded by mutex_
  std::vector<uint32_t> broken_;                // guarded by mutex_
};

// The values that travel along the edges of a pass, one slot per edge.
template <typename V>
class Mailbox {
 public:
  explicit Mailbox(Pass& pass) : pass_(pass), values_(pass.edge_count()) {}

  // Called by the producing step.
  void Send(uint32_t edge, V value) {
    values_[edge] = std::move(value);
    pass_.Published(edge);
  }
  // Called by the consuming step (which declared `edge` as an input): the value, or nullptr if
  // the edge was broken. The consumer may move from it.
  V* Receive(uint32_t edge) { return pass_.broken(edge) ? nullptr : &values_[edge]; }

 private:
  Pass& pass_;
  std::vector<V> values_;
};

// Values sent back along edges during a pass and read by the other end after it: results that
// belong to a partner (the share of its wait that propagated, say) but that nothing in the pass
// depends on. The MPI back end exchanges them once, after the pass.
template <typename V>
class ReturnBox {
 public:
  explicit ReturnBox(uint32_t edges, V initial = V()) : values_(edges, initial) {}
  void Send(uint32_t edge, V value) { values_[edge] = std::move(value); }
  const V& Read(uint32_t edge) const { return values_[edge]; }

 private:
  std::vector<V> values_;
};

}  // namespace cw::replay
