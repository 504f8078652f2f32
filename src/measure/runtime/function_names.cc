#include "measure/runtime/function_names.h"

#include <cxxabi.h>
#include <dlfcn.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <gelf.h>
#include <libelf.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <sstream>
#include <utility>

namespace cw::measure {
namespace {

struct Symbol {
  uintptr_t begin;  // offset from the module's load base (or absolute for non-PIE executables)
  uintptr_t end;
  std::string name;
};

// The function symbols of one module, sorted by address.
std::vector<Symbol> ReadSymbols(const std::string& path) {
  std::vector<Symbol> symbols;
  if (elf_version(EV_CURRENT) == EV_NONE) return symbols;
  int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return symbols;
  Elf* elf = elf_begin(fd, ELF_C_READ, nullptr);
  Elf_Scn* section = nullptr;
  while (elf != nullptr && (section = elf_nextscn(elf, section)) != nullptr) {
    GElf_Shdr header;
    if (gelf_getshdr(section, &header) == nullptr) continue;
    if (header.sh_type != SHT_SYMTAB && header.sh_type != SHT_DYNSYM) continue;
    Elf_Data* data = elf_getdata(section, nullptr);
    if (data == nullptr || header.sh_entsize == 0) continue;
    const size_t count = header.sh_size / header.sh_entsize;
    for (size_t i = 0; i < count; ++i) {
      GElf_Sym sym;
      if (gelf_getsym(data, static_cast<int>(i), &sym) == nullptr) continue;
      if (GELF_ST_TYPE(sym.st_info) != STT_FUNC || sym.st_value == 0) continue;
      const char* name = elf_strptr(elf, header.sh_link, sym.st_name);
      if (name == nullptr || *name == '\0') continue;
      symbols.push_back(
          Symbol{sym.st_value, sym.st_value + std::max<uint64_t>(sym.st_size, 1), name});
    }
  }
  if (elf != nullptr) elf_end(elf);
  close(fd);
  std::sort(symbols.begin(), symbols.end(),
            [](const Symbol& a, const Symbol& b) { return a.begin < b.begin; });
  return symbols;
}

std::string Demangle(const char* name) {
  int status = 0;
  char* demangled = abi::__cxa_demangle(name, nullptr, nullptr, &status);
  if (status != 0 || demangled == nullptr) return name;
  std::string result = demangled;
  std::free(demangled);
  return result;
}

bool IsSharedObject(const std::string& path) {
  // ET_DYN (PIE executables and libraries) are relocated by their load base; ET_EXEC are not.
  int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return true;
  Elf* elf = elf_begin(fd, ELF_C_READ, nullptr);
  GElf_Ehdr header;
  bool shared = elf == nullptr || gelf_getehdr(elf, &header) == nullptr || header.e_type == ET_DYN;
  if (elf != nullptr) elf_end(elf);
  close(fd);
  return shared;
}

std::vector<std::string> SplitPatterns(const char* text) {
  std::vector<std::string> patterns;
  if (text == nullptr) return patterns;
  std::stringstream in(text);
  std::string pattern;
  while (std::getline(in, pattern, ',')) {
    if (!pattern.empty()) patterns.push_back(pattern);
  }
  return patterns;
}

bool MatchesAny(const std::vector<std::string>& patterns, const std::string& name) {
  for (const std::string& p : patterns) {
    if (fnmatch(p.c_str(), name.c_str(), 0) == 0) return true;
  }
  return false;
}

}  // namespace

std::string FunctionName(void* address) {
  Dl_info info{};
  if (dladdr(address, &info) == 0 || info.dli_fname == nullptr) {
    char text[32];
    std::snprintf(text, sizeof text, "%p", address);
    return text;
  }
  if (info.dli_sname != nullptr && info.dli_saddr == address) return Demangle(info.dli_sname);

  // Not in the dynamic symbol table: the module's full one.
  static std::mutex mutex;
  static std::map<std::string, std::pair<bool, std::vector<Symbol>>> modules;
  std::lock_guard<std::mutex> lock(mutex);
  std::string path = info.dli_fname;
  // The main executable may be named as it was invoked; /proc/self/exe is the file itself.
  if (access(path.c_str(), R_OK) != 0) path = "/proc/self/exe";
  auto [it, inserted] = modules.try_emplace(path);
  if (inserted) it->second = {IsSharedObject(path), ReadSymbols(path)};
  const auto& [shared, symbols] = it->second;
  const uintptr_t offset = reinterpret_cast<uintptr_t>(address) -
                           (shared ? reinterpret_cast<uintptr_t>(info.dli_fbase) : 0);
  auto next = std::upper_bound(symbols.begin(), symbols.end(), offset,
                               [](uintptr_t a, const Symbol& s) { return a < s.begin; });
  if (next != symbols.begin() && offset < std::prev(next)->end) {
    return Demangle(std::prev(next)->name.c_str());
  }
  char text[64];
  std::snprintf(text, sizeof text, "+0x%lx", static_cast<unsigned long>(offset));
  const char* base = std::strrchr(info.dli_fname, '/');
  return std::string(base != nullptr ? base + 1 : info.dli_fname) + text;
}

FunctionFilter FunctionFilter::FromEnvironment() {
  return FunctionFilter(SplitPatterns(std::getenv("CAUSEWAY_FILTER_INCLUDE")),
                        SplitPatterns(std::getenv("CAUSEWAY_FILTER_EXCLUDE")));
}

bool FunctionFilter::Accepts(const std::string& name) const {
  if (MatchesAny(exclude_, name)) return false;
  return include_.empty() || MatchesAny(include_, name);
}

}  // namespace cw::measure
