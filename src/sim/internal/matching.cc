#include "sim/internal/matching.h"

#include "base/flat_hash_map.h"

namespace cw::sim::internal {

size_t ChannelKeyHash::operator()(const ChannelKey& k) const {
  uint64_t a = (uint64_t{k.comm} << 32) | k.tag;
  uint64_t b = (uint64_t{k.sender} << 32) | k.receiver;
  return static_cast<size_t>(MixHash(a ^ MixHash(b)));
}

uint32_t MessageTable::NewSlot() {
  uint32_t id;
  if (!free_.empty()) {
    id = free_.back();
    free_.pop_back();
    slots_[id] = MessageSlot{};
  } else {
    id = static_cast<uint32_t>(slots_.size());
    slots_.emplace_back();
  }
  slots_[id].holders = 2;  // the sender until its send completes, the receiver until it receives
  return id;
}

void MessageTable::Fill(uint32_t id, bool send_side, Moment when, uint32_t* wake) {
  MessageSlot& s = slots_[id];
  if (send_side) {
    s.send = when;
    s.send_known = true;
  } else {
    s.posted = when;
    s.recv_known = true;
  }
  *wake = s.waiter;
  s.waiter = kNone;
}

void MessageTable::Push(SlotQueue& queue, uint32_t id) {
  slots_[id].next_queued = kNone;
  if (queue.empty()) {
    queue.head = id;
  } else {
    slots_[queue.tail].next_queued = id;
  }
  queue.tail = id;
}

uint32_t MessageTable::Pop(SlotQueue& queue) {
  const uint32_t id = queue.head;
  queue.head = slots_[id].next_queued;
  if (queue.head == kNone) queue.tail = kNone;
  slots_[id].next_queued = kNone;
  return id;
}

uint32_t MessageTable::PublishSend(const ChannelKey& key, Moment send, uint64_t bytes,
                                   bool synchronous, uint32_t* wake) {
  Channel& ch = channels_.FindOrInsert(key);
  uint32_t id;
  if (!ch.receives.empty()) {
    id = Pop(ch.receives);
  } else {
    id = NewSlot();
    Push(ch.sends, id);
  }
  const bool idle = ch.idle();
  slots_[id].bytes = bytes;
  slots_[id].synchronous = synchronous;
  Fill(id, true, send, wake);
  if (idle) channels_.Erase(key);
  return id;
}

uint32_t MessageTable::PublishReceive(const ChannelKey& key, Moment posted, uint32_t* wake) {
  Channel& ch = channels_.FindOrInsert(key);
  uint32_t id;
  if (ch.peeked != kNone) {
    id = ch.peeked;
    ch.peeked = kNone;
  } else if (!ch.sends.empty()) {
    id = Pop(ch.sends);
  } else {
    id = NewSlot();
    Push(ch.receives, id);
  }
  const bool idle = ch.idle();
  Fill(id, false, posted, wake);
  if (idle) channels_.Erase(key);
  return id;
}

uint32_t MessageTable::PeekForReceive(const ChannelKey& key) {
  Channel& ch = channels_.FindOrInsert(key);
  if (ch.peeked != kNone) return ch.peeked;
  uint32_t id;
  if (!ch.sends.empty()) {
    id = Pop(ch.sends);
  } else {
    id = NewSlot();
    Push(ch.receives, id);  // the next send on the channel fills it
  }
  ch.peeked = id;
  return id;
}

void MessageTable::Release(uint32_t id) {
  MessageSlot& s = slots_[id];
  if (s.holders > 0 && --s.holders == 0) free_.push_back(id);
}

uint64_t MessageTable::unpaired_sends() const {
  uint64_t n = 0;
  channels_.ForEach([&](const ChannelKey& key, const Channel& ch) {
    if ((key.comm & kEpochChannel) != 0) return;
    for (uint32_t id = ch.sends.head; id != kNone; id = slots_[id].next_queued) ++n;
  });
  return n;
}

CollectiveFamily FamilyOf(trace::CollectiveOp op) {
  using trace::CollectiveOp;
  switch (op) {
    case CollectiveOp::kBcast:
    case CollectiveOp::kScatter:
    case CollectiveOp::kScatterv:
      return CollectiveFamily::kOneToAll;
    case CollectiveOp::kGather:
    case CollectiveOp::kGatherv:
    case CollectiveOp::kReduce:
      return CollectiveFamily::kAllToOne;
    case CollectiveOp::kScan:
    case CollectiveOp::kExscan:
      return CollectiveFamily::kPrefix;
    default:
      return CollectiveFamily::kAllToAll;
  }
}

size_t CollectiveTable::KeyHash::operator()(const Key& k) const {
  return static_cast<size_t>(MixHash(k.key ^ MixHash(k.sequence)));
}

uint32_t CollectiveTable::Join(uint64_t key, uint32_t sequence, uint32_t size) {
  auto [it, inserted] = by_key_.try_emplace(Key{key, sequence}, 0);
  if (!inserted) return it->second;
  uint32_t id;
  if (!free_.empty()) {
    id = free_.back();
    free_.pop_back();
    instances_[id] = CollectiveInstance{};
    key_of_[id] = Key{key, sequence};
  } else {
    id = static_cast<uint32_t>(instances_.size());
    instances_.emplace_back();
    key_of_.push_back(Key{key, sequence});
  }
  instances_[id].size = size;
  it->second = id;
  return id;
}

void CollectiveTable::Finish(uint32_t id) {
  CollectiveInstance& inst = instances_[id];
  if (++inst.finished < inst.size) return;
  by_key_.erase(key_of_[id]);
  inst = CollectiveInstance{};
  free_.push_back(id);
}

}  // namespace cw::sim::internal
