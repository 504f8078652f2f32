// The timestamps of one location, stored in 4 bytes per event instead of 8.
//
// Events are grouped in blocks of 4096; a block stores its first timestamp in full and every
// event as a 32-bit offset from it. A block whose events span more than 2^32 ticks (over four
// seconds at nanosecond resolution between 4096 consecutive events: rare) is stored in full
// instead. Timestamps must not decrease (LocationBuilder guarantees it).
//
//   TimeColumn t;
//   t.push_back(1'000'000'000'123);
//   uint64_t first = t[0];
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "base/column.h"

namespace cw::trace {

class TimeColumn {
 public:
  static constexpr unsigned kShift = 12;
  static constexpr size_t kBlock = size_t{1} << kShift;

  void reserve(size_t n) {
    offsets_.reserve(n);
    bases_.reserve((n >> kShift) + 1);
  }

  void push_back(uint64_t time) {
    size_t i = offsets_.size();
    if ((i & (kBlock - 1)) == 0) [[unlikely]]
      StartBlock(time);
    uint64_t offset = time - base_;
    if (offset > UINT32_MAX || wide_block_) [[unlikely]] {
      PushWide(time);
      return;
    }
    offsets_.push_back(static_cast<uint32_t>(offset));
  }

  uint64_t operator[](size_t i) const {
    size_t block = i >> kShift;
    uint32_t wide = wide_index_[block];
    if (wide != kNarrow) [[unlikely]]
      return wide_[wide + (i & (kBlock - 1))];
    return bases_[block] + offsets_[i];
  }

  size_t size() const { return offsets_.size(); }
  bool empty() const { return offsets_.empty(); }
  uint64_t front() const { return (*this)[0]; }
  uint64_t back() const { return (*this)[size() - 1]; }

  size_t MemoryBytes() const {
    return offsets_.MemoryBytes() + bases_.capacity() * sizeof(uint64_t) +
           wide_index_.capacity() * sizeof(uint32_t) + wide_.capacity() * sizeof(uint64_t);
  }

 private:
  static constexpr uint32_t kNarrow = UINT32_MAX;

  [[gnu::noinline]] void StartBlock(uint64_t time) {
    bases_.push_back(time);
    wide_index_.push_back(kNarrow);
    base_ = time;
    wide_block_ = false;
  }

  // Stores the current block in full from now on (and the offsets it already has).
  [[gnu::noinline]] void PushWide(uint64_t time) {
    size_t i = offsets_.size();
    size_t block = i >> kShift;
    if (!wide_block_) {
      wide_index_[block] = static_cast<uint32_t>(wide_.size());
      size_t first = block << kShift;
      wide_.resize(wide_.size() + kBlock, 0);
      for (size_t j = first; j < i; ++j) {
        wide_[wide_index_[block] + (j - first)] = bases_[block] + offsets_[j];
      }
      wide_block_ = true;
    }
    wide_[wide_index_[block] + (i & (kBlock - 1))] = time;
    offsets_.push_back(0);
  }

  Column<uint32_t> offsets_;
  std::vector<uint64_t> bases_;       // first time of each block
  std::vector<uint32_t> wide_index_;  // kNarrow, or where the block starts in wide_
  std::vector<uint64_t> wide_;
  uint64_t base_ = 0;        // first time of the current block
  bool wide_block_ = false;  // the current block is stored in full
};

}  // namespace cw::trace
