// An append-only vector stored in fixed-size chunks.
//
// Growing never copies or over-allocates more than one chunk, so a table built by appending
// millions of elements costs its size in memory, not up to twice that as std::vector's doubling
// does, and never needs both the old and the new buffer at once. Random access is one extra
// indirection.
//
//   ChunkedVector<P2pPayload> payloads;
//   uint32_t index = payloads.push_back(p);
//   const P2pPayload& q = payloads[index];
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <new>
#include <type_traits>
#include <vector>

namespace cw {

// Elements must be trivially destructible (plain records): chunks are raw storage, constructed
// element by element as they are appended, so a new chunk is never written twice.
template <typename T, unsigned kShift = 12>
class ChunkedVector {
  static_assert(std::is_trivially_destructible_v<T>);
  static_assert(std::is_trivially_copyable_v<T>);

 public:
  static constexpr size_t kChunk = size_t{1} << kShift;

  ChunkedVector() = default;
  ChunkedVector(ChunkedVector&&) noexcept = default;
  ChunkedVector& operator=(ChunkedVector&&) noexcept = default;

  // Returns the index of the new element.
  uint32_t push_back(const T& value) {
    if ((size_ & (kChunk - 1)) == 0) {
      chunks_.emplace_back(static_cast<T*>(::operator new(kChunk * sizeof(T))));
    }
    new (chunks_.back().get() + (size_ & (kChunk - 1))) T(value);
    return static_cast<uint32_t>(size_++);
  }

  const T& operator[](size_t i) const { return chunks_[i >> kShift].get()[i & (kChunk - 1)]; }
  T& operator[](size_t i) { return chunks_[i >> kShift].get()[i & (kChunk - 1)]; }

  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  size_t MemoryBytes() const {
    return chunks_.size() * (kChunk * sizeof(T)) + chunks_.capacity() * sizeof(void*);
  }

 private:
  struct Release {
    void operator()(T* chunk) const { ::operator delete(chunk); }
  };
  std::vector<std::unique_ptr<T, Release>> chunks_;
  size_t size_ = 0;
};

}  // namespace cw
