#include "elf/debug_info.h"

#include <dwarf.h>
#include <elfutils/libdw.h>
#include <elfutils/libdwfl.h>
#include <gelf.h>

#include <cstdlib>
#include <cstring>
#include <string>

#include "elf/elf_module.h"

namespace cw::elf {
namespace {

// Dwfl_Callbacks::debuginfo_path: the file's directory, its .debug/, /usr/lib/debug, and the
// roots of CAUSEWAY_DEBUG_DIRS.
char* DebugPath() {
  static std::string path = [] {
    std::string p = ":.debug:/usr/lib/debug";
    if (const char* extra = std::getenv("CAUSEWAY_DEBUG_DIRS"); extra != nullptr && *extra != 0)
      p += std::string(":") + extra;
    return p;
  }();
  return path.data();
}

char* g_debug_path = nullptr;

const Dwfl_Callbacks kOffline = {
    .find_elf = dwfl_build_id_find_elf,
    .find_debuginfo = dwfl_standard_find_debuginfo,
    .section_address = dwfl_offline_section_address,
    .debuginfo_path = &g_debug_path,
};

// The compilation unit holding `address` (the module's address) and its bias. libdw 0.188
// finds a unit only through .debug_aranges, which clang does not write unless asked
// (-gdwarf-aranges): without them every unit's address ranges are searched.
Dwarf_Die* UnitOf(Dwfl_Module* module, Dwarf_Addr address, Dwarf_Addr* bias) {
  if (Dwarf_Die* unit = dwfl_module_addrdie(module, address, bias)) return unit;
  Dwarf_Die* unit = nullptr;
  while ((unit = dwfl_module_nextcu(module, unit, bias)) != nullptr) {
    if (dwarf_haspc(unit, address - *bias) > 0) return unit;
  }
  return nullptr;
}

// Whether the file has a section of that name (".gnu_debugdata": a compressed symbol table,
// MiniDebugInfo, that libdwfl reads beside the file's own).
bool HasSection(Elf* elf, const char* name) {
  size_t names = 0;
  if (elf == nullptr || elf_getshdrstrndx(elf, &names) != 0) return false;
  Elf_Scn* section = nullptr;
  while ((section = elf_nextscn(elf, section)) != nullptr) {
    GElf_Shdr header;
    if (gelf_getshdr(section, &header) == nullptr) continue;
    const char* section_name = elf_strptr(elf, names, header.sh_name);
    if (section_name != nullptr && std::strcmp(section_name, name) == 0) return true;
  }
  return false;
}

}  // namespace

DebugInfo::DebugInfo(const std::string& path) {
  if (g_debug_path == nullptr) g_debug_path = DebugPath();
  if (!IsModuleFile(path)) return;
  dwfl_ = dwfl_begin(&kOffline);
  if (dwfl_ == nullptr) return;
  module_ = dwfl_report_offline(dwfl_, path.c_str(), path.c_str(), -1);
  dwfl_report_end(dwfl_, nullptr, nullptr);
  if (module_ == nullptr) return;
  Dwarf_Addr bias = 0;
  if (dwfl_module_getelf(module_, &bias) == nullptr) {
    module_ = nullptr;
    return;
  }
  bias_ = bias;
  Dwarf_Addr dwarf_bias = 0;
  has_dwarf_ = dwfl_module_getdwarf(module_, &dwarf_bias) != nullptr;
  const char* main_file = nullptr;
  const char* debug_file = nullptr;
  dwfl_module_info(module_, nullptr, nullptr, nullptr, nullptr, nullptr, &main_file, &debug_file);
  separate_symbols_ = (debug_file != nullptr &&
                       (main_file == nullptr || std::strcmp(debug_file, main_file) != 0)) ||
                      HasSection(dwfl_module_getelf(module_, &bias), ".gnu_debugdata");
}

DebugInfo::~DebugInfo() {
  if (dwfl_ != nullptr) dwfl_end(dwfl_);
}

SourceLine DebugInfo::Line(uint64_t address) const {
  std::lock_guard<std::mutex> lock(mutex_);
  SourceLine result;
  if (module_ == nullptr || !has_dwarf_) return result;
  int number = 0;
  const char* file = nullptr;
  if (Dwfl_Line* line = dwfl_module_getsrc(module_, address + bias_)) {
    file = dwfl_lineinfo(line, nullptr, &number, nullptr, nullptr, nullptr);
  } else {
    Dwarf_Addr bias = 0;
    Dwarf_Die* unit = UnitOf(module_, address + bias_, &bias);
    Dwarf_Line* unit_line =
        unit == nullptr ? nullptr : dwarf_getsrc_die(unit, address + bias_ - bias);
    if (unit_line != nullptr && dwarf_lineno(unit_line, &number) == 0)
      file = dwarf_linesrc(unit_line, nullptr, nullptr);
  }
  if (file == nullptr || number <= 0) return result;
  result.file = file;
  result.line = static_cast<uint32_t>(number);
  return result;
}

SourceLine DebugInfo::Declaration(uint64_t address) const {
  std::lock_guard<std::mutex> lock(mutex_);
  SourceLine result;
  if (module_ == nullptr || !has_dwarf_) return result;
  Dwarf_Addr bias = 0;
  Dwarf_Die* unit = UnitOf(module_, address + bias_, &bias);
  if (unit == nullptr) return result;
  Dwarf_Die* scopes = nullptr;
  const int n = dwarf_getscopes(unit, address + bias_ - bias, &scopes);
  // The innermost function that is not inlined: the frame's own function.
  for (int i = 0; i < n; ++i) {
    if (dwarf_tag(&scopes[i]) != DW_TAG_subprogram) continue;
    Dwarf_Die* die = &scopes[i];
    Dwarf_Die origin;
    Dwarf_Attribute attribute;
    // A concrete instance declares nothing itself: its abstract origin or specification does.
    if (dwarf_decl_file(die) == nullptr &&
        (dwarf_attr(die, DW_AT_abstract_origin, &attribute) != nullptr ||
         dwarf_attr(die, DW_AT_specification, &attribute) != nullptr) &&
        dwarf_formref_die(&attribute, &origin) != nullptr) {
      die = &origin;
    }
    const char* file = dwarf_decl_file(die);
    int line = 0;
    if (file != nullptr && dwarf_decl_line(die, &line) == 0 && line > 0) {
      result.file = file;
      result.line = static_cast<uint32_t>(line);
    }
    break;
  }
  std::free(scopes);
  return result;
}

uint64_t DebugInfo::FunctionStart(uint64_t address) const {
  std::lock_guard<std::mutex> lock(mutex_);
  if (module_ == nullptr) return UINT64_MAX;
  Dwarf_Addr bias = 0;
  Dwarf_CFI* cfi = dwfl_module_eh_cfi(module_, &bias);
  if (cfi == nullptr) return UINT64_MAX;
  Dwarf_Frame* frame = nullptr;
  if (dwarf_cfi_addrframe(cfi, address + bias_ - bias, &frame) != 0) return UINT64_MAX;
  Dwarf_Addr start = 0, end = 0;
  bool signal_frame = false;
  const int ok = dwarf_frame_info(frame, &start, &end, &signal_frame);
  std::free(frame);
  if (ok < 0 || start + bias < bias_) return UINT64_MAX;
  return start + bias - bias_;
}

std::string DebugInfo::Function(uint64_t address) const {
  if (!separate_symbols_) return "";
  std::lock_guard<std::mutex> lock(mutex_);
  if (module_ == nullptr) return "";
  const char* name = dwfl_module_addrname(module_, address + bias_);
  return name != nullptr ? name : "";
}

}  // namespace cw::elf
