#include "elf/address_names.h"

#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <sstream>

namespace cw::elf {

const ElfModule& ModuleCache::Get(const std::string& path) {
  std::lock_guard<std::mutex> lock(mutex_);
  auto [it, inserted] = modules_.try_emplace(path);
  if (inserted) it->second = ReadElfModule(path);
  return it->second;
}

bool IsProgramStart(const FrameName& f) {
  return f.function == "_start" || f.function.rfind("__libc_start", 0) == 0 ||
         f.module.rfind("libc.so", 0) == 0 || f.module.rfind("libc-", 0) == 0;
}

const DebugInfo& ModuleCache::Debug(const std::string& path) {
  std::lock_guard<std::mutex> lock(mutex_);
  auto [it, inserted] = debug_.try_emplace(path);
  if (inserted) it->second = std::make_unique<DebugInfo>(path);
  return *it->second;
}

AddressNames::AddressNames(const std::string& maps, ModuleCache& modules) : modules_(modules) {
  std::istringstream lines(maps);
  std::string line;
  while (std::getline(lines, line)) {
    // "begin-end perms offset dev inode path": only mappings of files name code.
    uint64_t begin = 0, end = 0, offset = 0;
    char perms[8] = {};
    int path_at = 0;
    if (std::sscanf(line.c_str(), "%" SCNx64 "-%" SCNx64 " %7s %" SCNx64 " %*s %*s %n", &begin,
                    &end, perms, &offset, &path_at) < 4 ||
        path_at <= 0 || static_cast<size_t>(path_at) >= line.size()) {
      continue;
    }
    const char first = line[static_cast<size_t>(path_at)];
    // Files name code; of the kernel's mappings only the vDSO holds code a stack walk meets.
    if (first != '/' && line.compare(static_cast<size_t>(path_at), 6, "[vdso]") != 0) continue;
    mappings_.push_back({begin, end, offset, line.substr(static_cast<size_t>(path_at))});
  }
  std::sort(mappings_.begin(), mappings_.end(),
            [](const Mapping& a, const Mapping& b) { return a.begin < b.begin; });
}

FrameName AddressNames::Name(uint64_t return_address) const {
  char text[64];
  FrameName result;
  auto next = std::upper_bound(mappings_.begin(), mappings_.end(), return_address,
                               [](uint64_t a, const Mapping& m) { return a < m.begin; });
  if (next == mappings_.begin() || return_address >= std::prev(next)->end) {
    std::snprintf(text, sizeof text, "0x%" PRIx64, return_address);
    result.function = result.site = text;
    return result;
  }
  const Mapping& m = *std::prev(next);
  const size_t slash = m.path.rfind('/');
  result.module = m.path.substr(slash == std::string::npos ? 0 : slash + 1);
  if (m.path[0] == '[') {
    result.system = true;
    result.function = result.site = m.path;
    return result;
  }
  // The call instruction ends at the return address: the byte before it is the call's, which
  // matters when a call is a function's last instruction.
  const uint64_t file_offset = return_address - m.begin + m.offset;
  const ElfModule& module = modules_.Get(m.path);
  const uint64_t address = module.AddressOfFileOffset(file_offset);
  const ElfSymbol* symbol =
      address == UINT64_MAX ? nullptr : module.SymbolAt(address == 0 ? 0 : address - 1);
  if (symbol == nullptr && address != UINT64_MAX && !module.InPlt(address == 0 ? 0 : address - 1)) {
    // A stripped file: its separate debug file may hold the symbol table.
    const std::string name = modules_.Debug(m.path).Function(address == 0 ? 0 : address - 1);
    if (!name.empty()) {
      result.function = Demangle(name);
      result.site = result.function;
      result.named = true;
      return result;
    }
  }
  if (symbol == nullptr && address != UINT64_MAX && module.InPlt(address == 0 ? 0 : address - 1)) {
    result.plt = true;
    result.function = result.site = result.module + "@plt";
    return result;
  }
  if (symbol == nullptr && address != UINT64_MAX) {
    // No symbol anywhere: the function is still one range of the call-frame information, named
    // by its module and start, so that its call sites share it.
    const uint64_t start = modules_.Debug(m.path).FunctionStart(address == 0 ? 0 : address - 1);
    if (start != UINT64_MAX) {
      std::snprintf(text, sizeof text, "+0x%" PRIx64, start);
      result.function = result.module + text;
      std::snprintf(text, sizeof text, "+0x%" PRIx64, address - start);
      result.site = result.function + text;
      return result;
    }
  }
  if (symbol == nullptr) {
    std::snprintf(text, sizeof text, "+0x%" PRIx64, file_offset);
    result.function = result.site = result.module + text;
    return result;
  }
  result.function = Demangle(symbol->name);
  std::snprintf(text, sizeof text, "+0x%" PRIx64, address - symbol->begin);
  result.site = result.function + text;
  result.named = true;
  return result;
}

std::string AddressNames::Module(uint64_t return_address) const {
  auto next = std::upper_bound(mappings_.begin(), mappings_.end(), return_address,
                               [](uint64_t a, const Mapping& m) { return a < m.begin; });
  if (next == mappings_.begin() || return_address >= std::prev(next)->end) return "";
  const std::string& path = std::prev(next)->path;
  const size_t slash = path.rfind('/');
  return path.substr(slash == std::string::npos ? 0 : slash + 1);
}

FrameSource AddressNames::Source(uint64_t return_address) const {
  FrameSource source;
  auto next = std::upper_bound(mappings_.begin(), mappings_.end(), return_address,
                               [](uint64_t a, const Mapping& m) { return a < m.begin; });
  if (next == mappings_.begin() || return_address >= std::prev(next)->end) return source;
  const Mapping& m = *std::prev(next);
  if (m.path[0] != '/') return source;
  const uint64_t address =
      modules_.Get(m.path).AddressOfFileOffset(return_address - m.begin + m.offset);
  if (address == UINT64_MAX || address == 0) return source;
  const DebugInfo& debug = modules_.Debug(m.path);
  source.call = debug.Line(address - 1);
  source.function = debug.Declaration(address - 1);
  return source;
}

}  // namespace cw::elf
