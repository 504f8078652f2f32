// One location's state in the what-if replay: its event stream with read-ahead, where its
// measured and simulated clocks stand, and the MPI call it is in.
#pragma once

#include <cstdint>
#include <memory>
#include <random>
#include <vector>

#include "base/flat_hash_map.h"
#include "sim/internal/clock_changes.h"
#include "sim/internal/matching.h"
#include "sim/internal/omp_plan.h"
#include "sim/internal/one_sided_plan.h"
#include "sim/replay.h"
#include "sim/sim_event.h"
#include "trace/mpi_function.h"

namespace cw::sim::internal {

inline constexpr size_t kReadChunk = 4096;

// The event stream of a lane, with read-ahead: an MPI call is taken whole, and a probe looks
// for the receive after it. Events before `head` are done and dropped on the next refill.
class EventWindow {
 public:
  explicit EventWindow(std::unique_ptr<EventSource> source) : source_(std::move(source)) {}

  // The event `k` places after the head, reading on as needed; nullptr past the end.
  const SimEvent* Peek(size_t k) {
    while (head_ + k >= events_.size()) {
      if (!Refill()) return nullptr;
    }
    return &events_[head_ + k];
  }
  void Pop(size_t n) { head_ += n; }
  size_t buffered() const { return events_.size() - head_; }
  const EventSource& source() const { return *source_; }

 private:
  bool Refill() {
    if (done_) return false;
    if (head_ > 0 && head_ * 2 >= events_.size()) {
      events_.erase(events_.begin(), events_.begin() + static_cast<ptrdiff_t>(head_));
      head_ = 0;
    }
    if (source_->Read(events_, kReadChunk) == 0) done_ = true;
    return !done_;
  }

  std::unique_ptr<EventSource> source_;
  std::vector<SimEvent> events_;
  size_t head_ = 0;
  bool done_ = false;
};

enum class DependencyKind : uint8_t {
  kReceive,     // a receive completes: needs its message's send
  kProbe,       // a blocking probe: needs the send of the message the next receive takes
  kSend,        // a send completes: needs its receive's posting if it is a rendezvous
  kCollective,  // a collective member: needs the arrivals its family waits for
  kNotify,      // an RMA epoch call: needs its partner's notification (a post or a complete)
  kStart,       // MPI_Win_start: needs its target's post, if the measured call waited for it
};

struct Dependency {
  DependencyKind kind = DependencyKind::kReceive;
  CollectiveFamily family = CollectiveFamily::kAllToAll;
  bool is_root = false;
  bool dropped = false;  // given up to break a stall (ReplayStats says which rule)
  // Between threads of a process (OpenMP): in shared memory, the network model does not apply.
  bool local = false;
  uint32_t id = 0;           // message slot or collective instance
  uint32_t partner = kNone;  // p2p: the partner location
  uint32_t rank = 0;         // collectives: rank in the communicator
  trace::CollectiveOp op = trace::CollectiveOp::kBarrier;
  uint32_t members = 0;
  uint64_t bytes = 0;  // collectives: the member's volume
};

// The MPI call a lane is in: its events are window positions [0, leave]. A point (leave 0) is
// one record that waits (an OpenMP worker's team begin, a lock acquisition): its `enter` is the
// lane's previous event, so the measured gap before it counts as waiting, not as computation.
struct OpenCall {
  bool active = false;
  size_t leave = 0;
  // A point that is its location's first record: the thread did not exist before its partner
  // (a worker's first team begin), so only the dependency decides when it is ready.
  bool starts_at_partner = false;
  Moment enter;
  uint32_t callpath = kNone;
  trace::MpiFunction function;
  std::vector<Dependency> deps;
  int64_t overhead = 0;  // added per-message overhead
  // An OpenSHMEM routine (no MPI function): one that communicates (the network model changes its
  // cost) or one that manages (init, allocation, queries: its cost is kept).
  bool shmem = false;
  bool shmem_communication = false;
  int64_t transfer_delta = 0;  // the network change of its blocking one-sided transfers
  // Perturbation::calls: removed (no dependencies, no cost), or its own cost capped (ticks).
  bool removed = false;
  int64_t max_cost = INT64_MAX;
};

struct Request {
  uint32_t slot = kNone;  // Isend: its message
  Moment posted;          // IrecvRequest: when the receive was posted
  bool is_send = false;
  bool is_collective = false;
  Dependency collective;  // a non-blocking collective: what its completion waits for
};

enum class LaneState : uint8_t { kRunnable, kBlocked, kDone };

struct Lane {
  explicit Lane(std::unique_ptr<EventSource> source) : window(std::move(source)) {}

  uint32_t id = 0;
  uint32_t rank = kNone;  // MPI rank of its process
  EventWindow window;
  LaneState state = LaneState::kRunnable;
  bool queued = false;
  bool started = false;
  int64_t measured = 0;  // last event, relative ticks
  int64_t simulated = 0;
  bool computed = false;  // time passed outside MPI since the last MPI call (noise is due)
  bool noisy = false;
  std::mt19937_64 rng;
  double base_factor = 1;
  // Per open region: the compute factor of its own computation, and the one the regions it calls
  // inherit (they differ under a rule for its call path alone).
  struct Factors {
    double own = 1;
    double inherited = 1;
  };
  std::vector<Factors> factors;
  // Perturbation::windows on this location, relative ticks, by begin; the first one that can
  // still overlap the next gap (a lane's time only moves forward).
  using Window = ComputeWindowTicks;
  std::vector<Window> windows;
  size_t next_window = 0;
  std::vector<uint32_t> callpaths;  // open regions' call paths
  int64_t last_injection = INT64_MIN / 2;
  FlatHashMap<uint64_t, Request> requests;
  FlatHashMap<uint64_t, uint32_t> collective_sequence;  // per communicator or window
  // One-sided records counted as OneSidedPlan counts them, and how far its MPI lock hand-overs
  // (sorted by ordinal) have been taken.
  OneSidedOrdinals one_sided;
  size_t next_lock_wait = 0;
  size_t next_unlock_notice = 0;
  OmpOrdinals omp;  // OpenMP records counted as OmpPlan counts them
  OpenCall call;
  size_t blocked_dep = 0;  // index into call.deps while blocked
  LocationOutcome outcome;
  // Events done this turn, for the observer.
  std::vector<SimEvent> done_events;
  std::vector<uint64_t> done_times;
};

}  // namespace cw::sim::internal
