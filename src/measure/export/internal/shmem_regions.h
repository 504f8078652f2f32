// The OpenSHMEM routines' regions of an exported trace (private to measure/export): defined
// only for the routines some rank entered, so that MPI programs do not carry a thousand region
// definitions they never use, and in routine order before any rank's events are written, so
// that the ranks can be written in parallel and the same raw files always give the same trace.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "otf2_writer/archive_writer.h"

namespace cw::measure::internal {

class ShmemRegions {
 public:
  // `definitions` guards the archive's definitions (other threads may add some meanwhile).
  ShmemRegions(otf2_writer::ArchiveWriter& archive, std::mutex& definitions);

  // Defines the regions of the routines the raw event files `paths` enter (read on up to
  // `threads` threads).
  void DefineEntered(const std::vector<std::string>& paths, unsigned threads);

  // The region of `routine` (an index into kShmemFunctions). Safe to call from several threads:
  // a routine DefineEntered did not see (a file it could not read) is defined here, once.
  uint32_t Get(uint32_t routine);

 private:
  uint32_t DefineLocked(uint32_t routine);

  otf2_writer::ArchiveWriter& archive_;
  std::mutex& definitions_;
  std::unique_ptr<std::atomic<uint32_t>[]> ids_;
};

}  // namespace cw::measure::internal
