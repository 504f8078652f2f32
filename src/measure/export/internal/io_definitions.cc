#include "measure/export/internal/io_definitions.h"

#include <otf2/OTF2_GeneralDefinitions.h>

namespace cw::measure::internal {

std::vector<uint32_t> DefineRankFiles(otf2_writer::ArchiveWriter& archive, const RankDefs& rank,
                                      const std::vector<uint32_t>& comms, uint32_t machine) {
  std::vector<uint32_t> handles;
  handles.reserve(rank.files.size());
  for (const FileDef& f : rank.files) {
    const bool known_comm = f.comm >= 0 && static_cast<size_t>(f.comm) < comms.size();
    const uint32_t comm = known_comm ? comms[static_cast<size_t>(f.comm)] : OTF2_UNDEFINED_COMM;
    // A handle whose open was not seen (a Fortran program's) has no file to name.
    const uint32_t file =
        f.name.empty() ? OTF2_UNDEFINED_IO_FILE : archive.DefineIoFile(f.name, machine);
    handles.push_back(archive.DefineMpiIoHandle(f.name, file, comm));
  }
  return handles;
}

}  // namespace cw::measure::internal
