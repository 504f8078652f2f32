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
// Distributed (an MPI analysis job, comm/communicator.h): each analysis rank runs a Pass over the
// schedule of the locations it owns, numbering its edges its own way. Every edge also has a name
// that all ranks agree on (SetEdgeNames); an edge whose consumer lives on another rank is declared
// with SetRemoteConsumer, and Mailbox::Send packs its value (ValueCodec) under the edge's name for
// that rank instead of storing it. Names travel as differences from the previous name sent to
// the same rank: a location's steps mostly send along edges whose names are close. The pass runs
// in rounds: every rank runs its locations until none can go on, then all ranks exchange the
// values packed during the round in one Communicator::Exchange, and the arrivals are published
// on their consumers' ranks. A round in which no value crossed anywhere
// is a stall of the whole job: the lowest parked location of all ranks gives up its input, as in
// one process, so results are identical for every rank and thread count. Analyses do not change.
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
#include <span>
#include <utility>
#include <vector>

#include "comm/communicator.h"
#include "comm/wire.h"
#include "replay/schedule.h"

namespace cw::replay {

struct PassStats {
  uint64_t steps = 0;                  // on this rank
  uint64_t rounds = 1;                 // exchange rounds (1 in one process)
  uint64_t values_sent = 0;            // to other ranks
  uint64_t bytes_sent = 0;             // their packed size
  uint64_t parks = 0;                  // times a location had to wait for an input
  uint64_t sleeps = 0;                 // times a worker found nothing to run and slept
  std::vector<uint32_t> broken_edges;  // given up to break a stall, in the order broken
  // Per broken edge: which stall of the whole pass it broke (0 for the first). Distributed, each
  // rank breaks the edges of its own locations; the stalls are counted the same on every rank.
  std::vector<uint64_t> broken_at_stall;
};

// How a value of type V travels to another rank. Plain values are copied; analyses specialise it
// for the values they send along edges that may cross ranks.
template <typename V>
struct ValueCodec {
  static void Write(comm::ByteWriter& out, const V& value) { out.Put(value); }
  static V Read(comm::ByteReader& in) { return in.Get<V>(); }
};

namespace internal {
// A Mailbox as the pass sees it: where values arriving from other ranks are unpacked.
class Channel {
 public:
  virtual ~Channel() = default;
  virtual void Unpack(uint32_t edge, comm::ByteReader& in) = 0;
};
}  // namespace internal

class Pass {
 public:
  // `comm` == nullptr (or a communicator of one rank): a pass of one process.
  explicit Pass(const Schedule& schedule, comm::Communicator* comm = nullptr);
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

  // Distributed: the name of every edge (names[edge]), the same on every rank, unique. The pass
  // keeps the span: it must outlive the pass. Call before Run, before SetRemoteConsumer.
  void SetEdgeNames(std::span<const uint64_t> names);
  // Distributed: `edge`'s consumer is the edge of the same name in rank `rank`'s pass. Call
  // before Run.
  void SetRemoteConsumer(uint32_t edge, uint32_t rank);
  bool remote(uint32_t edge) const {
    return !remote_rank_.empty() && remote_rank_[edge] != kNoRank;
  }

  // Called by Mailbox: its index, under which its values travel (every rank creates its
  // mailboxes in the same order).
  uint32_t AddChannel(internal::Channel* channel);
  // Called by Mailbox::Send for a remote edge: `write` appends the value to the round's buffer
  // for the consumer's rank. Thread-safe.
  template <typename Write>
  void SendRemote(uint32_t channel, uint32_t edge, Write write) {
    const uint32_t rank = remote_rank_[edge];
    const uint64_t name = names_[edge];
    std::lock_guard<std::mutex> lock(outbox_mutex_);
    comm::ByteWriter& out = outbox_[rank];
    const size_t before = out.size();
    if (channels_.size() > 1) out.PutVarint(channel);
    out.PutDelta(name, previous_name_[rank]);
    previous_name_[rank] = name;
    write(out);
    ++values_sent_;
    bytes_sent_ += out.size() - before;
  }

 private:
  static constexpr uint32_t kNoRank = 0xFFFFFFFFu;

  // Runs the workers until every location finished or, distributed, until none can go on.
  void RunWorkers(unsigned threads, const std::function<void(uint32_t, uint32_t)>& step);
  PassStats RunDistributed(unsigned threads, const std::function<void(uint32_t, uint32_t)>& step);
  // One exchange of the round's values; returns how many crossed between all ranks.
  uint64_t ExchangeRound();
  // The edge named `name` here.
  uint32_t EdgeNamed(uint64_t name) const;
  uint32_t LowestParked() const;
  void Worker(unsigned me, const std::function<void(uint32_t, uint32_t)>& step);
  uint32_t OwnerOf(uint32_t location) const;
  // Runs `location` until it finishes (true) or parks on a missing input (false).
  bool RunLocation(uint32_t location, const std::function<void(uint32_t, uint32_t)>& step);
  bool Park(uint32_t location, uint32_t edge);
  void BreakStall();              // with mutex_ held
  void Break(uint32_t location);  // with mutex_ held

  const Schedule& schedule_;
  comm::Communicator* comm_ = nullptr;
  std::span<const uint64_t> names_;    // per edge (distributed)
  std::vector<uint32_t> by_name_;      // edges in the order of their names (unless ascending)
  std::vector<uint32_t> remote_rank_;  // per edge, once SetRemoteConsumer was called
  std::vector<internal::Channel*> channels_;
  std::mutex outbox_mutex_;
  std::vector<comm::ByteWriter> outbox_;           // per rank; guarded by outbox_mutex_
  std::vector<uint64_t> previous_name_;            // per rank, this round; by outbox_mutex_
  uint64_t values_sent_ = 0;                       // guarded by outbox_mutex_
  uint64_t bytes_sent_ = 0;                        // guarded by outbox_mutex_
  uint64_t values_sent_before_round_ = 0;          // guarded by outbox_mutex_
  std::vector<uint32_t> worker_of_;                // per location: the worker whose queue it joins
  uint32_t active_ = 0;                            // locations with steps to run (on this rank)
  std::unique_ptr<std::atomic<uint8_t>[]> state_;  // per edge: 0 pending, 1 in, 2 broken
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
  std::vector<uint64_t> broken_at_stall_;       // guarded by mutex_
  uint64_t stalls_ = 0;                         // guarded by mutex_
  bool stop_at_stall_ = false;  // distributed: a stall ends the round instead of breaking
};

// The values that travel along the edges of a pass, one slot per edge.
template <typename V>
class Mailbox final : public internal::Channel {
 public:
  explicit Mailbox(Pass& pass)
      : pass_(pass), values_(pass.edge_count()), channel_(pass.AddChannel(this)) {}

  // Called by the producing step.
  void Send(uint32_t edge, V value) {
    if (pass_.remote(edge)) {
      pass_.SendRemote(channel_, edge,
                       [&](comm::ByteWriter& out) { ValueCodec<V>::Write(out, value); });
      return;
    }
    values_[edge] = std::move(value);
    pass_.Published(edge);
  }
  // Called by the consuming step (which declared `edge` as an input): the value, or nullptr if
  // the edge was broken. The consumer may move from it.
  V* Receive(uint32_t edge) { return pass_.broken(edge) ? nullptr : &values_[edge]; }

  // A value from another rank (called by the pass between rounds, on one thread).
  void Unpack(uint32_t edge, comm::ByteReader& in) override {
    values_[edge] = ValueCodec<V>::Read(in);
    pass_.Published(edge);
  }

 private:
  Pass& pass_;
  std::vector<V> values_;
  uint32_t channel_;
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
