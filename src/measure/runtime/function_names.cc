#include "measure/runtime/function_names.h"

#include <dlfcn.h>
#include <fnmatch.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <sstream>
#include <utility>

#include "elf/elf_module.h"
#include "measure/core/patterns.h"

namespace cw::measure {
namespace {

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
  if (info.dli_sname != nullptr && info.dli_saddr == address) return elf::Demangle(info.dli_sname);

  // Not in the dynamic symbol table: the module's full one.
  static std::mutex mutex;
  static std::map<std::string, elf::ElfModule> modules;
  std::lock_guard<std::mutex> lock(mutex);
  std::string path = info.dli_fname;
  // The main executable may be named as it was invoked; /proc/self/exe is the file itself.
  if (access(path.c_str(), R_OK) != 0) path = "/proc/self/exe";
  auto [it, inserted] = modules.try_emplace(path);
  if (inserted) it->second = elf::ReadElfModule(path);
  const elf::ElfModule& module = it->second;
  // ET_DYN modules are relocated by their load base; ET_EXEC ones (and unreadable files) not.
  const uintptr_t offset = reinterpret_cast<uintptr_t>(address) -
                           (module.shared ? reinterpret_cast<uintptr_t>(info.dli_fbase) : 0);
  if (const elf::ElfSymbol* symbol = module.SymbolAt(offset)) return elf::Demangle(symbol->name);
  char text[64];
  std::snprintf(text, sizeof text, "+0x%lx", static_cast<unsigned long>(offset));
  const char* base = std::strrchr(info.dli_fname, '/');
  return std::string(base != nullptr ? base + 1 : info.dli_fname) + text;
}

FunctionFilter FunctionFilter::FromEnvironment() {
  return FunctionFilter(SplitPatterns(std::getenv("CAUSEWAY_FILTER_INCLUDE")),
                        SplitPatterns(std::getenv("CAUSEWAY_FILTER_EXCLUDE")));
}

bool FunctionFilter::Excludes(const std::string& name) const { return MatchesAny(exclude_, name); }

bool FunctionFilter::Accepts(const std::string& name) const {
  if (MatchesAny(exclude_, name)) return false;
  return include_.empty() || MatchesAny(include_, name);
}

}  // namespace cw::measure
