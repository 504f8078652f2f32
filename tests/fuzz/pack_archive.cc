// Packs an OTF2 archive directory into the fuzz target's input format, for seeding the corpus:
//   pack_archive TRACE_DIR FLAGS OUTPUT
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
    const bool wanted = name == "traces.otf2" || name == "traces.def" ||
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
