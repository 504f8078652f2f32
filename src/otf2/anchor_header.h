// Checks an OTF2 anchor file before the OTF2 library loads it.
//
// libotf2 3.0.2 trusts the anchor's counts: a corrupted property count (0x80000005) makes it
// allocate too little and then free what it never allocated, and glibc aborts the process. The
// anchor is a few hundred bytes in a fixed layout (magic, format, versions, chunk sizes,
// substrate, compression, location and definition counts, three strings, properties, trace id,
// snapshot and thumbnail counts, end-of-file marker), so causeway reads it itself first and
// refuses one the library could not read safely, saying what is wrong.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "base/status.h"

namespace cw::otf2 {

struct AnchorHeader {
  uint8_t anchor_format = 0;
  uint8_t version_major = 0, version_minor = 0, version_bugfix = 0;
  uint64_t chunk_size_events = 0, chunk_size_definitions = 0;
  uint64_t locations = 0;           // declared number of locations
  uint64_t global_definitions = 0;  // declared number of global definition records
  std::string machine, creator, description;
  std::vector<std::pair<std::string, std::string>> properties;
  uint64_t trace_id = 0;
};

// Parses the anchor file's bytes; an error names what is malformed.
Result<AnchorHeader> ParseAnchorHeader(const std::string& bytes);

// Reads and parses the anchor file `path` (at most 1 MiB: anchors are a few hundred bytes), and
// refuses an archive written by an OTF2 major version newer than the library's.
Result<AnchorHeader> ReadAnchorHeader(const std::string& path);

}  // namespace cw::otf2
