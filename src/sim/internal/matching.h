// Streaming matching for the what-if replay: messages paired in order on their channel, and
// collective instances assembled from their members' arrivals.
//
// The replay cannot match a whole trace first (it never holds one), so it pairs events as it
// reaches them, with the rules of match/: the k-th send on a channel (communicator, sender,
// receiver, tag) pairs with the k-th receive on it, and the k-th collective of a location on a
// communicator (or RMA window) is its part in instance k. Only what is still unpaired is kept,
// so memory follows the messages in flight, not the trace length.
#pragma once

#include <algorithm>
#include <cstdint>
#include <unordered_map>
#include <vector>

#include "base/flat_hash_map.h"
#include "trace/enums.h"

namespace cw::sim::internal {

using trace::kNone;

// A moment of the replay: the simulated time and the measured time of the same event, both in
// ticks relative to the trace's clock offset.
struct Moment {
  int64_t sim = 0;
  int64_t measured = 0;
};

struct MessageSlot {
  Moment send;    // when the sender entered the call that sent it
  Moment posted;  // when the receiver entered the call that posted the receive
  uint64_t bytes = 0;
  bool send_known = false;
  bool recv_known = false;
  bool synchronous = false;  // MPI_Ssend/Issend: completes only once the receive is posted
  uint32_t waiter = kNone;   // the lane blocked until the other side is known
  uint8_t holders = 0;       // sides that still refer to the slot
  // The next slot in its channel's queue of unpaired sends or receives (a slot waits in one
  // queue at most), so that a channel is a few indices and queuing a message allocates nothing.
  uint32_t next_queued = kNone;
};

// ChannelKey::comm of the channels that carry RMA epoch notifications (MPI_Win_post to the
// origins' MPI_Win_complete, MPI_Win_complete to the target's MPI_Win_wait), with the window id
// in the low bits: communicator ids never reach it.
inline constexpr uint32_t kEpochChannel = 1u << 31;
// The channels of OpenSHMEM's paired calls (sim/internal/one_sided_plan.h), also notifications:
// a write to the wait for a value it ends, a lock's release to its next holder (tag: the lock).
inline constexpr uint32_t kValueChannel = kEpochChannel | (1u << 30);
inline constexpr uint32_t kLockChannel = kEpochChannel | (1u << 29);
// The channels between threads of a process (sim/internal/omp_plan.h): a master's fork to each
// worker's team begin, an OpenMP lock's release to its next holder (tag: the lock).
inline constexpr uint32_t kOmpTeamChannel = kEpochChannel | (1u << 28);
inline constexpr uint32_t kOmpLockChannel = kOmpTeamChannel | 1u;

struct ChannelKey {
  uint32_t comm, sender, receiver, tag;
  bool operator==(const ChannelKey& o) const {
    return comm == o.comm && sender == o.sender && receiver == o.receiver && tag == o.tag;
  }
};
struct ChannelKeyHash {
  size_t operator()(const ChannelKey& k) const;
};

class MessageTable {
 public:
  // Publishes a send (or a receive posting) on its channel and returns the slot it took: the
  // oldest unpaired receive (send) there, or a fresh slot queued for the partner. `*wake` is set
  // to a lane that was waiting for this side, else kNone.
  uint32_t PublishSend(const ChannelKey& key, Moment send, uint64_t bytes, bool synchronous,
                       uint32_t* wake);
  uint32_t PublishReceive(const ChannelKey& key, Moment posted, uint32_t* wake);
  // The slot the next receive on `key` will take, creating it (both sides still unknown) if no
  // send is queued: a probe sees its message before the receive that follows takes it, and
  // that receive's PublishReceive takes this slot.
  uint32_t PeekForReceive(const ChannelKey& key);

  MessageSlot& slot(uint32_t id) { return slots_[id]; }
  // One holder is done with the slot; the last one frees it.
  void Release(uint32_t id);

  uint64_t unpaired_sends() const;  // messages only, not epoch notifications
  size_t live_slots() const { return slots_.size() - free_.size(); }

 private:
  // A queue of slots, oldest first, linked through MessageSlot::next_queued.
  struct SlotQueue {
    uint32_t head = kNone;
    uint32_t tail = kNone;
    bool empty() const { return head == kNone; }
  };
  struct Channel {
    SlotQueue sends;          // slots whose receive side is unknown
    SlotQueue receives;       // slots whose send side is unknown
    uint32_t peeked = kNone;  // a slot taken by a probe for the next receive
    bool idle() const { return sends.empty() && receives.empty() && peeked == kNone; }
  };
  uint32_t NewSlot();
  void Fill(uint32_t id, bool send_side, Moment when, uint32_t* wake);
  void Push(SlotQueue& queue, uint32_t id);
  uint32_t Pop(SlotQueue& queue);

  std::vector<MessageSlot> slots_;
  std::vector<uint32_t> free_;
  // Only channels with unpaired messages are kept: most channels empty again at once.
  FlatHashMap<ChannelKey, Channel, ChannelKeyHash> channels_;
};

// What a collective member waits for.
enum class CollectiveFamily : uint8_t {
  kAllToAll,  // barrier, allreduce, allgather, alltoall, reduce_scatter, window handles: all
  kOneToAll,  // bcast, scatter: non-roots wait for the root
  kAllToOne,  // reduce, gather: the root waits for all
  kPrefix,    // scan, exscan: rank i waits for ranks 0..i
};
CollectiveFamily FamilyOf(trace::CollectiveOp op);

struct CollectiveInstance {
  uint32_t size = 0;     // members expected
  uint32_t arrived = 0;  // members that entered
  uint32_t finished = 0;
  // The latest arrival, measured and simulated (not necessarily of the same member).
  Moment latest;
  bool any = false;
  Moment root;
  bool root_arrived = false;
  std::vector<Moment> by_rank;  // prefix operations only
  std::vector<uint8_t> rank_arrived;
  std::vector<uint32_t> waiters;

  void Arrive(const Moment& arrival) {
    latest.measured = any ? std::max(latest.measured, arrival.measured) : arrival.measured;
    latest.sim = any ? std::max(latest.sim, arrival.sim) : arrival.sim;
    any = true;
    ++arrived;
  }
};

class CollectiveTable {
 public:
  // Instance `sequence` of the communicator (or window) `key`; created on first arrival.
  uint32_t Join(uint64_t key, uint32_t sequence, uint32_t size);
  CollectiveInstance& instance(uint32_t id) { return instances_[id]; }
  // A member's call finished; the last one frees the instance.
  void Finish(uint32_t id);

 private:
  struct Key {
    uint64_t key;
    uint32_t sequence;
    bool operator==(const Key& o) const { return key == o.key && sequence == o.sequence; }
  };
  struct KeyHash {
    size_t operator()(const Key& k) const;
  };
  std::vector<CollectiveInstance> instances_;
  std::vector<uint32_t> free_;
  std::unordered_map<Key, uint32_t, KeyHash> by_key_;
  std::vector<Key> key_of_;  // by instance id
};

}  // namespace cw::sim::internal
