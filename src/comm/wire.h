// Byte buffers for what crosses between analysis ranks: plain values and vectors of them, written
// and read back in the same order. Both ends are the same causeway binary on machines of the
// same kind, so values travel in their in-memory form.
//
//   ByteWriter w;  w.Put(uint32_t{7});  w.PutVector(times);
//   ByteReader r(w.bytes());  uint32_t x = r.Get<uint32_t>();  auto t = r.GetVector<uint64_t>();
#pragma once

#include <cstring>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "base/check.h"
#include "comm/communicator.h"

namespace cw::comm {

// The difference value - base, signed, as an unsigned number that is small when the difference
// is (0, -1, 1, -2 ... become 0, 1, 2, 3 ...), and back. For codecs that pack flags beside it.
inline uint64_t ZigZag(uint64_t value, uint64_t base) {
  const auto d = static_cast<int64_t>(value - base);
  return (static_cast<uint64_t>(d) << 1) ^ static_cast<uint64_t>(d >> 63);
}
inline uint64_t UnZigZag(uint64_t z, uint64_t base) { return base + ((z >> 1) ^ (0 - (z & 1))); }

class ByteWriter {
 public:
  template <typename T>
  void Put(const T& value) {
    static_assert(std::is_trivially_copyable_v<T>);
    size_t at = bytes_.size();
    bytes_.resize(at + sizeof(T));
    std::memcpy(bytes_.data() + at, &value, sizeof(T));
  }
  template <typename T>
  void PutVector(const std::vector<T>& values) {
    static_assert(std::is_trivially_copyable_v<T>);
    Put(static_cast<uint64_t>(values.size()));
    size_t at = bytes_.size();
    bytes_.resize(at + values.size() * sizeof(T));
    if (!values.empty()) std::memcpy(bytes_.data() + at, values.data(), values.size() * sizeof(T));
  }
  void PutString(std::string_view text) {
    Put(static_cast<uint64_t>(text.size()));
    size_t at = bytes_.size();
    bytes_.resize(at + text.size());
    if (!text.empty()) std::memcpy(bytes_.data() + at, text.data(), text.size());
  }
  // Small numbers in few bytes (LEB128: 7 bits per byte): counts, ids and time deltas.
  void PutVarint(uint64_t value) {
    while (value >= 0x80) {
      bytes_.push_back(static_cast<std::byte>((value & 0x7F) | 0x80));
      value >>= 7;
    }
    bytes_.push_back(static_cast<std::byte>(value));
  }
  // A difference that may be negative (zigzag: 0, -1, 1, -2 ... become 0, 1, 2, 3 ...).
  void PutDelta(uint64_t value, uint64_t base) { PutVarint(ZigZag(value, base)); }
  size_t size() const { return bytes_.size(); }
  Bytes& bytes() { return bytes_; }
  Bytes Take() { return std::move(bytes_); }

 private:
  Bytes bytes_;
};

// Reading past the end is a bug of the sender's and receiver's agreement, not bad input: the
// buffers never come from a file.
class ByteReader {
 public:
  explicit ByteReader(const Bytes& bytes) : data_(bytes.data()), size_(bytes.size()) {}

  template <typename T>
  T Get() {
    static_assert(std::is_trivially_copyable_v<T>);
    CW_CHECK(at_ + sizeof(T) <= size_);
    T value;
    std::memcpy(&value, data_ + at_, sizeof(T));
    at_ += sizeof(T);
    return value;
  }
  template <typename T>
  std::vector<T> GetVector() {
    static_assert(std::is_trivially_copyable_v<T>);
    uint64_t n = Get<uint64_t>();
    CW_CHECK(n <= (size_ - at_) / sizeof(T));
    std::vector<T> values(n);
    if (n > 0) std::memcpy(values.data(), data_ + at_, n * sizeof(T));
    at_ += n * sizeof(T);
    return values;
  }
  std::string GetString() {
    const std::vector<char> chars = GetVector<char>();
    return std::string(chars.begin(), chars.end());
  }
  uint64_t GetVarint() {
    uint64_t value = 0;
    for (int shift = 0;; shift += 7) {
      CW_CHECK(at_ < size_ && shift < 64);
      const auto byte = static_cast<uint8_t>(data_[at_++]);
      value |= static_cast<uint64_t>(byte & 0x7F) << shift;
      if ((byte & 0x80) == 0) return value;
    }
  }
  uint64_t GetDelta(uint64_t base) { return UnZigZag(GetVarint(), base); }
  uint32_t GetDelta32(uint32_t base) { return static_cast<uint32_t>(GetDelta(base)); }
  bool done() const { return at_ == size_; }

 private:
  const std::byte* data_;
  size_t size_;
  size_t at_ = 0;
};

// The buffers of one writer per rank, ready for Communicator::Exchange.
inline std::vector<Bytes> TakeAll(std::vector<ByteWriter>& writers) {
  std::vector<Bytes> buffers;
  buffers.reserve(writers.size());
  for (ByteWriter& w : writers) buffers.push_back(w.Take());
  return buffers;
}

}  // namespace cw::comm
