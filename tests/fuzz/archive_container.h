// The fuzz target's input format: a whole OTF2 archive (anchor, global definitions, the
// per-location .def and .evt files) in one byte string, so that one mutation can hit any part.
//
//   container := flags:u8 (file)*
//   file      := name_length:u8 name content_length:u32le content
//
// Names are relative paths inside the archive directory ("traces.otf2", "traces.def",
// "traces/0.evt"). Unpacking is lenient: a cut-off file is kept as far as it goes, a name that
// could leave the directory is skipped. `pack_archive` (the corpus tool) writes the same format.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace cw::fuzz {

struct Container {
  uint8_t flags = 0;  // bit 0: read with --partial; bit 1: also run the root-cause analyses
  std::vector<std::pair<std::string, std::string>> files;
};

Container Unpack(const uint8_t* data, size_t size);
std::string Pack(const Container& container);

// The fuzz targets' work directory of this process (causeway-fuzz-PID in the temporary
// directory, which replay_main.cc removes at its end), emptied of the previous input's files
// and holding the container's. Returns its path.
std::string WriteToWorkDirectory(const Container& container);

}  // namespace cw::fuzz
