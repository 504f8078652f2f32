// The shared libraries an ELF file needs (its DT_NEEDED entries, e.g. "libgomp.so.1"), directly
// or through the libraries it needs: what `causeway trace` reads to tell which OpenMP runtime a
// program was built for (LAMMPS' lmp needs libgomp only through liblammps.so.0).
#pragma once

#include <set>
#include <string>
#include <vector>

namespace cw::elf {

// What a file's dynamic section says: the libraries it needs, and where it asks the loader to
// look for them (DT_RUNPATH, or DT_RPATH, with $ORIGIN replaced by the file's directory).
struct DynamicNeeds {
  std::vector<std::string> needed;
  std::vector<std::string> search_paths;
};
// Empty if `path` is no readable ELF file or needs nothing (a static executable).
DynamicNeeds ReadDynamicNeeds(const std::string& path);

// The names of every library `path` needs directly or through others, as far as they are found
// where the loader would look (the file's search paths, LD_LIBRARY_PATH, the system's library
// directories). At most `limit` files are read.
std::set<std::string> AllNeededLibraries(const std::string& path, size_t limit = 256);

}  // namespace cw::elf
