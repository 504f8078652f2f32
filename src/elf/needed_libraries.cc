#include "elf/needed_libraries.h"

#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <unistd.h>

#include <cstdlib>
#include <deque>
#include <filesystem>
#include <sstream>

#include "elf/elf_module.h"

namespace cw::elf {
namespace {

namespace fs = std::filesystem;

// "a:b:c" as its non-empty parts, $ORIGIN (or ${ORIGIN}) replaced by `origin`.
void AddPaths(const std::string& list, const std::string& origin, std::vector<std::string>& out) {
  std::istringstream parts(list);
  std::string part;
  while (std::getline(parts, part, ':')) {
    for (const std::string token : {"${ORIGIN}", "$ORIGIN"}) {
      for (size_t at = part.find(token); at != std::string::npos; at = part.find(token))
        part.replace(at, token.size(), origin);
    }
    if (!part.empty()) out.push_back(part);
  }
}

// The system's library directories, as Debian's loader searches them on x86-64 and others.
const std::vector<std::string>& SystemPaths() {
  static const std::vector<std::string> kPaths = {"/lib/x86_64-linux-gnu",
                                                  "/usr/lib/x86_64-linux-gnu",
                                                  "/lib/aarch64-linux-gnu",
                                                  "/usr/lib/aarch64-linux-gnu",
                                                  "/usr/local/lib",
                                                  "/lib64",
                                                  "/usr/lib64",
                                                  "/lib",
                                                  "/usr/lib"};
  return kPaths;
}

std::string Find(const std::string& name, const std::vector<std::string>& paths) {
  std::error_code ec;
  if (name.find('/') != std::string::npos) return fs::is_regular_file(name, ec) ? name : "";
  for (const std::string& dir : paths) {
    const fs::path candidate = fs::path(dir) / name;
    if (fs::exists(candidate, ec)) return candidate.string();
  }
  return "";
}

}  // namespace

DynamicNeeds ReadDynamicNeeds(const std::string& path) {
  DynamicNeeds needs;
  if (elf_version(EV_CURRENT) == EV_NONE || !IsModuleFile(path)) return needs;
  const int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return needs;
  const std::string origin = fs::path(path).parent_path().string();
  std::string runpath;
  std::string rpath;
  Elf* elf = elf_begin(fd, ELF_C_READ, nullptr);
  Elf_Scn* section = nullptr;
  while (elf != nullptr && (section = elf_nextscn(elf, section)) != nullptr) {
    GElf_Shdr sh;
    if (gelf_getshdr(section, &sh) == nullptr || sh.sh_type != SHT_DYNAMIC) continue;
    Elf_Data* data = elf_getdata(section, nullptr);
    if (data == nullptr || sh.sh_entsize == 0) continue;
    const size_t count = sh.sh_size / sh.sh_entsize;
    for (size_t i = 0; i < count; ++i) {
      GElf_Dyn entry;
      if (gelf_getdyn(data, static_cast<int>(i), &entry) == nullptr || entry.d_tag == DT_NULL)
        break;
      if (entry.d_tag != DT_NEEDED && entry.d_tag != DT_RUNPATH && entry.d_tag != DT_RPATH)
        continue;
      const char* text = elf_strptr(elf, sh.sh_link, entry.d_un.d_val);
      if (text == nullptr) continue;
      if (entry.d_tag == DT_NEEDED) needs.needed.emplace_back(text);
      if (entry.d_tag == DT_RUNPATH) runpath = text;
      if (entry.d_tag == DT_RPATH) rpath = text;
    }
  }
  if (elf != nullptr) elf_end(elf);
  close(fd);
  AddPaths(runpath.empty() ? rpath : runpath, origin, needs.search_paths);
  return needs;
}

std::set<std::string> AllNeededLibraries(const std::string& path, size_t limit) {
  std::vector<std::string> environment;
  if (const char* ld = std::getenv("LD_LIBRARY_PATH")) AddPaths(ld, ".", environment);
  std::set<std::string> names;
  std::set<std::string> read;
  std::deque<std::string> files = {path};
  while (!files.empty() && read.size() < limit) {
    const std::string file = files.front();
    files.pop_front();
    if (!read.insert(file).second) continue;
    const DynamicNeeds needs = ReadDynamicNeeds(file);
    std::vector<std::string> paths = needs.search_paths;
    paths.insert(paths.end(), environment.begin(), environment.end());
    paths.insert(paths.end(), SystemPaths().begin(), SystemPaths().end());
    for (const std::string& name : needs.needed) {
      if (!names.insert(name).second) continue;
      if (const std::string found = Find(name, paths); !found.empty()) files.push_back(found);
    }
  }
  return names;
}

}  // namespace cw::elf
