// Names the return addresses a process recorded, after the fact: a copy of the process's
// /proc/self/maps (the task activity graph's DIR/tag/rank-<r>.maps, the trace's
// DIR/raw/rank-<r>.maps) says which file was loaded where; the file's symbol tables
// (elf_module.h) name the function holding the address. Addresses differ between processes
// (ASLR), names do not, which is what lets the processes' call paths be compared and merged.
//
//   ModuleCache modules;                          // shared by all ranks: one read per file
//   AddressNames names(maps_text, modules);
//   FrameName f = names.Name(0x55d0c1a2b3c4);     // {"exchange", "exchange+0x2a"}
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "elf/debug_info.h"
#include "elf/elf_module.h"

namespace cw::elf {

// The ELF files read so far, by path, and their debug information, read when first asked for
// (thread-safe: ranks are named on worker threads).
class ModuleCache {
 public:
  const ElfModule& Get(const std::string& path);
  const DebugInfo& Debug(const std::string& path);

 private:
  std::mutex mutex_;
  std::map<std::string, ElfModule> modules_;
  std::map<std::string, std::unique_ptr<DebugInfo>> debug_;
};

struct FrameName {
  std::string function;  // demangled; "module+0x1f0" if no symbol holds the address
  std::string site;      // "function+0x2a": the return address within its function
  std::string module;    // the file's name ("libc.so.6"), empty if the address is unmapped
  bool named = false;    // a symbol was found
  bool plt = false;      // a stub of the procedure linkage table (a call on its way to a library)
  bool system = false;   // code the kernel maps ([vdso]): a system call's user-space part
};

// A frame of the C library's program or thread start (_start, __libc_start_main,
// __libc_start_call_main, or any frame of libc itself, whose local symbols a stripped libc does
// not name): what runs before main, the same for every call path.
bool IsProgramStart(const FrameName& f);

// Where a return address is in the source, from the debug information (empty without it).
struct FrameSource {
  SourceLine call;      // the call that returns there
  SourceLine function;  // where the function holding it is declared
};

class AddressNames {
 public:
  AddressNames(const std::string& maps, ModuleCache& modules);
  // A stripped file's functions are named from its separate debug file (debug_info.h).
  FrameName Name(uint64_t return_address) const;
  // The file's name ("libc.so.6") of the mapping holding the address, empty if unmapped: no
  // symbol table read, for frames whose module says enough.
  std::string Module(uint64_t return_address) const;
  FrameSource Source(uint64_t return_address) const;
  size_t mappings() const { return mappings_.size(); }

 private:
  struct Mapping {
    uint64_t begin;
    uint64_t end;
    uint64_t offset;
    std::string path;
  };
  std::vector<Mapping> mappings_;  // by begin
  ModuleCache& modules_;
};

}  // namespace cw::elf
