// Packs an OTF2 archive directory into the fuzz targets' input format, for seeding the corpus:
//   pack_archive TRACE_DIR FLAGS OUTPUT
// A traced run's directory kept with --keep-raw contributes its raw files (raw/rank-<r>.*,
// raw/complete), which export_raw_fuzzer reads.
// A directory of a run recorded online contributes its rank segments and memory maps
// (tag/rank-<r>.seg, tag/rank-<r>.maps) where they are compact copies (snapshots: a live
// segment file is mostly holes and megabytes long).
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "tests/fuzz/archive_container.h"

int main(int argc, char** argv) {
  namespace fs = std::filesystem;
  if (argc != 4) {
    std::fprintf(stderr, "usage: pack_archive TRACE_DIR FLAGS OUTPUT\n");
    return 1;
  }
  const fs::path root = argv[1];
  cw::fuzz::Container c;
  c.flags = static_cast<uint8_t>(std::stoi(argv[2]));
  for (const fs::directory_entry& e : fs::recursive_directory_iterator(root)) {
    const std::string name = fs::relative(e.path(), root).string();
    const bool segment = name.rfind("tag/rank-", 0) == 0 &&
                         (e.path().extension() == ".seg" || e.path().extension() == ".maps") &&
                         e.is_regular_file() && e.file_size() < (1u << 20);
    // A traced run's raw files (the export's fuzz target), where they are small.
    const bool raw =
        name.rfind("raw/", 0) == 0 && e.is_regular_file() && e.file_size() < (1u << 20);
    const bool wanted = name == "traces.otf2" || name == "traces.def" || segment || raw ||
                        (name.rfind("traces/", 0) == 0 &&
                         (e.path().extension() == ".evt" || e.path().extension() == ".def"));
    if (!e.is_regular_file() || !wanted) continue;
    std::ifstream in(e.path(), std::ios::binary);
    std::stringstream bytes;
    bytes << in.rdbuf();
    c.files.emplace_back(name, bytes.str());
  }
  std::ofstream(argv[3], std::ios::binary) << cw::fuzz::Pack(c);
  return 0;
}
