// How many event records a location's file may yield (private to otf2/; apart from
// reader_support.h so that location_stream.h can hold one without the library's headers).
#pragma once

#include <cstdint>

namespace cw::otf2::internal {

// The most event records a location's file can be trusted to hold. libotf2 does not always stop
// at the end of a damaged file: cut at a chunk boundary, it replays the records of an earlier
// chunk forever. So no more records are read than the definitions declare, nor (when they do
// not say, or say more) than the file has bytes, each record taking at least one byte.
struct RecordBound {
  uint64_t records = UINT64_MAX;
  bool by_file_size = false;  // the file's size, not the declared count, sets the bound
  uint64_t file_bytes = 0;

  // Lets `flushes` more records through: BUFFER_FLUSH records, which libotf2 writes but leaves
  // out of the declared count. Never beyond one record per byte of the file.
  void AllowBufferFlushes(uint64_t flushes) {
    if (by_file_size || records == UINT64_MAX) return;
    const uint64_t most = file_bytes > 0 ? file_bytes : UINT64_MAX;
    records = flushes >= most || records >= most - flushes ? most : records + flushes;
    by_file_size = records == file_bytes && file_bytes > 0;
  }
};

}  // namespace cw::otf2::internal
