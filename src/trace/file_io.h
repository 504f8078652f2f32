// What each location read and wrote, per file: the I/O operations of a trace (OTF2's
// IoOperationBegin/Complete, as causeway records MPI-IO and Score-P records MPI-IO, POSIX and
// ISO C I/O) summed by location and the file behind their handle.
//
// Operations count where they begin (mode read or write; syncs and flushes are not counted
// here), bytes where they complete (the bytes the operation moved, not those it asked for). An
// operation that never completes counts without bytes.
//
//   for (const trace::FileIoUse& use : trace::FileIoOf(trace, location)) ...
#pragma once

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

#include "trace/trace.h"

namespace cw::trace {

// An IoOperationBegin's mode and flags (GenericPayload::d: mode in the low byte, flags above),
// as OTF2 numbers them.
inline constexpr uint32_t kIoModeRead = 0;        // OTF2_IO_OPERATION_MODE_READ
inline constexpr uint32_t kIoModeWrite = 1;       // OTF2_IO_OPERATION_MODE_WRITE
inline constexpr uint32_t kIoFlagCollective = 2;  // OTF2_IO_OPERATION_FLAG_COLLECTIVE
inline uint32_t IoOperationMode(const GenericPayload& begin) { return begin.d & 0xFF; }
inline bool IoOperationCollective(const GenericPayload& begin) {
  return ((begin.d >> 8) & kIoFlagCollective) != 0;
}

// Pairs each IoOperationComplete of a location with its IoOperationBegin (same handle and
// matching id), so that a completion's bytes count under what its begin said. Few operations
// are open at a time: blocking ones complete right after they begin.
template <typename Begun>
class IoOperationPairing {
 public:
  void Begin(const GenericPayload& begin, Begun what) {
    open_.push_back(Open{begin.c, begin.b, std::move(what)});
  }
  // The begin's data for `complete`, or nullptr if none is open (it is then forgotten: call
  // once per completion, and use the result before the next call).
  const Begun* Complete(const GenericPayload& complete) {
    for (size_t k = open_.size(); k-- > 0;) {
      if (open_[k].handle != complete.c || open_[k].matching != complete.b) continue;
      done_ = std::move(open_[k].what);
      open_.erase(open_.begin() + static_cast<std::ptrdiff_t>(k));
      return &done_;
    }
    return nullptr;
  }

 private:
  struct Open {
    uint32_t handle;
    uint64_t matching;
    Begun what;
  };
  std::vector<Open> open_;
  Begun done_{};
};

// Plain data: an MPI analysis job gathers these from the ranks that hold the locations.
struct FileIoUse {
  uint32_t location = kNone;
  uint32_t file = kNone;  // IoFile definition; kNone: a handle that names no file
  uint64_t reads = 0;
  uint64_t writes = 0;
  uint64_t bytes_read = 0;
  uint64_t bytes_written = 0;
};

// One entry per file the location's operations touched, in order of file id.
std::vector<FileIoUse> FileIoOf(const Trace& trace, uint32_t location);

}  // namespace cw::trace
