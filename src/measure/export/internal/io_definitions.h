// The MPI-IO definitions of a raw trace as OTF2's (private to measure/export): each rank's file
// handles become I/O handles of the "MPI-IO" paradigm, and the files they name regular files,
// one per name for all ranks (MPI-IO files are shared, so their scope is the whole machine).
#pragma once

#include <cstdint>
#include <vector>

#include "measure/export/internal/raw_definitions.h"
#include "otf2_writer/archive_writer.h"

namespace cw::measure::internal {

// The archive's I/O handle of each of the rank's files, by local id (kNoIoHandle for a gap in
// the local ids). `comms` maps the rank's local communicator ids to the archive's.
inline constexpr uint32_t kNoIoHandle = 0xFFFFFFFFu;
std::vector<uint32_t> DefineRankFiles(otf2_writer::ArchiveWriter& archive, const RankDefs& rank,
                                      const std::vector<uint32_t>& comms, uint32_t machine);

}  // namespace cw::measure::internal
