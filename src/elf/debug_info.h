// Source lines and function names from a file's debug information (DWARF, read with elfutils'
// libdwfl), found in the file itself or in a separate debug file: the one its .gnu_debuglink
// names (beside the file, in its .debug/ or under /usr/lib/debug) or the one its build-id names
// (/usr/lib/debug/.build-id/xx/yyyy.debug, where Debian's -dbgsym packages put them).
// CAUSEWAY_DEBUG_DIRS adds colon-separated roots searched the same way as /usr/lib/debug.
//
// Addresses are in the file's own address space (ElfModule::AddressOfFileOffset). Thread-safe.
//
//   DebugInfo info("/usr/bin/pw.x");
//   SourceLine at = info.Line(address);          // {"/build/.../cegterg.f90", 412}
//   std::string f = info.Function(address);      // from the debug file's symbol table
#pragma once

#include <cstdint>
#include <mutex>
#include <string>

struct Dwfl;
struct Dwfl_Module;

namespace cw::elf {

struct SourceLine {
  std::string file;  // empty: unknown
  uint32_t line = 0;
};

class DebugInfo {
 public:
  explicit DebugInfo(const std::string& path);
  ~DebugInfo();
  DebugInfo(const DebugInfo&) = delete;
  DebugInfo& operator=(const DebugInfo&) = delete;

  // The source line of the instruction at `address`.
  SourceLine Line(uint64_t address) const;
  // Where the function holding `address` is declared (DW_AT_decl_file and _line).
  SourceLine Declaration(uint64_t address) const;
  // The name of the function symbol holding `address` in the symbol table of the file's
  // separate debug file or its MiniDebugInfo (mangled as stored), empty if none or if it has
  // neither: its own tables are ElfModule's, which a caller reads first (libdwfl reads every
  // symbol per address).
  std::string Function(uint64_t address) const;

  // Where the function holding `address` begins by the call-frame information (.eh_frame,
  // which even a stripped file keeps: one entry per function), or UINT64_MAX.
  uint64_t FunctionStart(uint64_t address) const;

  bool has_dwarf() const { return has_dwarf_; }

 private:
  mutable std::mutex mutex_;  // libdwfl's handles are not for two threads at once
  Dwfl* dwfl_ = nullptr;
  Dwfl_Module* module_ = nullptr;
  uint64_t bias_ = 0;
  bool has_dwarf_ = false;
  bool separate_symbols_ = false;  // a separate debug file or MiniDebugInfo holds symbols
};

}  // namespace cw::elf
