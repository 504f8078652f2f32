// A growable array of plain values for the per-event columns of a trace.
//
// Like std::vector, but its storage is never value-initialised: reserving room for millions of
// events costs no memset, and each slot is written once, when its event is appended. Appending
// is a compare, a store and an increment, which matters at tens of millions of events.
//
//   Column<uint32_t> refs;
//   refs.reserve(expected_events);
//   refs.push_back(7);
//   std::span<const uint32_t> all = refs.span();
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstring>
#include <memory>
#include <span>
#include <type_traits>

namespace cw {

template <typename T>
class Column {
  static_assert(std::is_trivially_copyable_v<T> && std::is_trivially_destructible_v<T>);

 public:
  Column() = default;
  Column(Column&& other) noexcept { *this = std::move(other); }
  Column& operator=(Column&& other) noexcept {
    data_ = std::move(other.data_);
    size_ = other.size_;
    capacity_ = other.capacity_;
    other.size_ = other.capacity_ = 0;
    return *this;
  }

  void reserve(size_t n) {
    if (n > capacity_) Reallocate(n);
  }

  void push_back(T value) {
    if (size_ == capacity_) [[unlikely]]
      Reallocate(std::max<size_t>(16, capacity_ * 2));
    data_[size_++] = value;
  }

  // For builders that append to several columns in lockstep: room for `n` more elements, then
  // raw writes through data() and one commit of the new size.
  void EnsureRoom(size_t n) {
    if (size_ + n > capacity_) Reallocate(std::max(size_ + n, capacity_ * 2));
  }
  T* data() { return data_.get(); }
  void CommitSize(size_t size) { size_ = size; }
  size_t capacity() const { return capacity_; }

  T operator[](size_t i) const { return data_[i]; }
  T& operator[](size_t i) { return data_[i]; }
  T back() const { return data_[size_ - 1]; }
  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  std::span<const T> span() const { return {data_.get(), size_}; }
  size_t MemoryBytes() const { return capacity_ * sizeof(T); }

 private:
  void Reallocate(size_t capacity) {
    std::unique_ptr<T[]> data(new T[capacity]);  // default-initialised: no memset
    if (size_ > 0) std::memcpy(data.get(), data_.get(), size_ * sizeof(T));
    data_ = std::move(data);
    capacity_ = capacity;
  }

  std::unique_ptr<T[]> data_;
  size_t size_ = 0;
  size_t capacity_ = 0;
};

}  // namespace cw
