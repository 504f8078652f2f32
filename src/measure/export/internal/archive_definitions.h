// The archive's definitions of a raw trace (private to measure/export): regions, the system tree,
// communicators, RMA and OpenSHMEM windows, process groups and MPI-IO files, each unified over
// the ranks, and every rank's local ids mapped to them.
//
// Definitions are made in one fixed order (regions, system tree, communicators, windows and
// groups, files), so that the same raw trace always becomes the same archive. OpenSHMEM's
// routines are left to ShmemRegions, which defines only those some rank entered: MPI programs
// do not carry a thousand region definitions they never use.
#pragma once

#include <cstdint>
#include <vector>

#include "measure/export/internal/raw_definitions.h"
#include "otf2_writer/archive_writer.h"

namespace cw::measure::internal {

// An archive id no definition has: a gap in a rank's local ids, or a damaged line.
inline constexpr uint32_t kNoDefinition = 0xFFFFFFFFu;

// One rank's local ids as the archive's, indexed by local id.
struct RankIds {
  std::vector<uint32_t> regions;  // by raw region index (OpenSHMEM's: kUndefinedRegion)
  std::vector<uint32_t> comms;
  std::vector<uint32_t> windows;
  std::vector<uint32_t> groups;
  std::vector<uint32_t> files;          // I/O handles
  std::vector<uint64_t> locations;      // the thread that initialised MPI, then the others by index
  uint32_t team = OTF2_UNDEFINED_COMM;  // its OpenMP threads' team communicator, if any
};

struct ArchiveIds {
  std::vector<RankIds> ranks;
  uint32_t world = 0;  // MPI_COMM_WORLD
};

ArchiveIds DefineArchive(otf2_writer::ArchiveWriter& archive, const std::vector<RankDefs>& defs);

}  // namespace cw::measure::internal
