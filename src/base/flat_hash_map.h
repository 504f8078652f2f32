// A small open-addressing hash map for hot loops (request ids, message channels).
//
// Linear probing in one flat array, deletion by backward shift (no tombstones), capacity a
// power of two kept at most half full. Several times faster than std::unordered_map for the
// integer-like keys causeway looks up per event, and it allocates once per growth, not per node.
// Keys need operator== and a hash functor; values are copied.
//
//   FlatHashMap<uint64_t, uint32_t> pending;
//   pending.Insert(request, event);
//   if (const uint32_t* e = pending.Find(request)) { ...; pending.Erase(request); }
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <utility>
#include <vector>

namespace cw {

// A 64-bit mixer (the finalizer of MurmurHash3), good enough to spread sequential ids.
inline uint64_t MixHash(uint64_t x) {
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdull;
  x ^= x >> 33;
  x *= 0xc4ceb9fe1a85ec53ull;
  x ^= x >> 33;
  return x;
}

struct IntegerHash {
  size_t operator()(uint64_t key) const { return static_cast<size_t>(MixHash(key)); }
};

template <typename Key, typename Value, typename Hash = IntegerHash>
class FlatHashMap {
 public:
  // Inserts or overwrites.
  void Insert(const Key& key, const Value& value) {
    if ((size_ + 1) * 2 > slots_.size()) Grow();
    size_t i = Home(key);
    while (slots_[i].used) {
      if (slots_[i].key == key) {
        slots_[i].value = value;
        return;
      }
      i = (i + 1) & mask_;
    }
    slots_[i] = Slot{key, value, true};
    ++size_;
  }

  // The value stored for `key`, inserted value-initialised if absent. The reference stays valid
  // until the next insertion or erasure.
  Value& FindOrInsert(const Key& key) {
    if (Value* v = Find(key)) return *v;
    if ((size_ + 1) * 2 > slots_.size()) Grow();
    size_t i = Home(key);
    while (slots_[i].used) i = (i + 1) & mask_;
    slots_[i] = Slot{key, Value{}, true};
    ++size_;
    return slots_[i].value;
  }

  // The value stored for `key`, or nullptr.
  Value* Find(const Key& key) {
    if (size_ == 0) return nullptr;
    for (size_t i = Home(key); slots_[i].used; i = (i + 1) & mask_) {
      if (slots_[i].key == key) return &slots_[i].value;
    }
    return nullptr;
  }
  const Value* Find(const Key& key) const { return const_cast<FlatHashMap*>(this)->Find(key); }

  // Removes `key`; returns whether it was present.
  bool Erase(const Key& key) {
    if (size_ == 0) return false;
    size_t i = Home(key);
    while (slots_[i].used && !(slots_[i].key == key)) i = (i + 1) & mask_;
    if (!slots_[i].used) return false;
    // Backward-shift deletion: move later entries of the probe run into the hole when their
    // home position allows it, so lookups never need tombstones.
    size_t hole = i;
    for (size_t j = (i + 1) & mask_; slots_[j].used; j = (j + 1) & mask_) {
      size_t home = Home(slots_[j].key);
      bool movable = hole <= j ? (home <= hole || home > j) : (home <= hole && home > j);
      if (movable) {
        slots_[hole] = slots_[j];
        hole = j;
      }
    }
    slots_[hole].used = false;
    --size_;
    return true;
  }

  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }

  // Calls fn(key, value) for every entry, in slot order (not insertion order).
  template <typename Fn>
  void ForEach(Fn&& fn) const {
    for (const Slot& s : slots_) {
      if (s.used) fn(s.key, s.value);
    }
  }

 private:
  struct Slot {
    Key key{};
    Value value{};
    bool used = false;
  };

  size_t Home(const Key& key) const { return Hash()(key) & mask_; }

  void Grow() {
    std::vector<Slot> old = std::move(slots_);
    size_t capacity = old.empty() ? 16 : old.size() * 2;
    slots_.assign(capacity, Slot{});
    mask_ = capacity - 1;
    size_ = 0;
    for (const Slot& s : old) {
      if (s.used) Insert(s.key, s.value);
    }
  }

  std::vector<Slot> slots_;
  size_t mask_ = 0;
  size_t size_ = 0;
};

}  // namespace cw
