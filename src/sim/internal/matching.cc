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

uint32_t MessageTable::PublishSend(const ChannelKey& key, Moment send, uint64_t bytes,
                                   bool synchronous, uint32_t* wake) {
  Channel& ch = channels_[key];
  uint32_t id;
  if (!ch.receives.empty()) {
    id = ch.receives.front();
    ch.receives.pop_front();
  } else {
    id = NewSlot();
    ch.sends.push_back(id);
  }
  slots_[id].bytes = bytes;
  slots_[id].synchronous = synchronous;
  Fill(id, true, send, wake);
  if (ch.sends.empty() && ch.receives.empty() && ch.peeked == kNone) channels_.erase(key);
  return id;
}

uint32_t MessageTable::PublishReceive(const ChannelKey& key, Moment posted, uint32_t* wake) {
  Channel& ch = channels_[key];
  uint32_t id;
  if (ch.peeked != kNone) {
    id = ch.peeked;
    ch.peeked = kNone;
  } else if (!ch.sends.empty()) {
    id = ch.sends.front();
    ch.sends.pop_front();
  } else {
    id = NewSlot();
    ch.receives.push_back(id);
  }
  Fill(id, false, posted, wake);
  if (ch.sends.empty() && ch.receives.empty() && ch.peeked == kNone) channels_.erase(key);
  return id;
}

uint32_t MessageTable::PeekForReceive(const ChannelKey& key) {
  Channel& ch = channels_[key];
  if (ch.peeked != kNone) return ch.peeked;
  uint32_t id;
  if (!ch.sends.empty()) {
    id = ch.sends.front();
    ch.sends.pop_front();
  } else {
    id = NewSlot();
    ch.receives.push_back(id);  // the next send on the channel fills it
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
  for (const auto& [key, ch] : channels_) {
    if ((key.comm & kEpochChannel) == 0) n += ch.sends.size();
  }
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
