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

#include <cstdint>
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
