// The function symbols and loadable segments of an ELF file (an executable or a shared
// library), read with libelf: what names a code address, in this process (the tracer's
// -finstrument-functions, measure/runtime/function_names.h) or after the fact from a copy of a
// process's /proc/self/maps (the task activity graph's return addresses, tag/online).
//
//   ElfModule m = ReadElfModule("/usr/lib/x86_64-linux-gnu/libmpi.so.40");
//   const ElfSymbol* s = m.SymbolAt(m.AddressOfFileOffset(offset));
//   std::string name = s ? Demangle(s->name) : "?";
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace cw::elf {

struct ElfSymbol {
  uint64_t begin;  // the symbol's value: an address in the file's own address space
  uint64_t end;
  std::string name;
};

struct ElfModule {
  bool readable = false;
  bool shared = true;              // ET_DYN (a library or a PIE executable): loaded at some base
  std::vector<ElfSymbol> symbols;  // functions, by address (symtab and dynsym)
  struct Load {
    uint64_t offset;  // in the file
    uint64_t size;    // bytes of the file it maps
    uint64_t address;
  };
  std::vector<Load> loads;  // PT_LOAD segments
  // The procedure linkage table's sections (.plt, .plt.sec, .plt.got): stubs that jump to a
  // library's function, named by no symbol. [begin, end) in the file's address space.
  std::vector<std::pair<uint64_t, uint64_t>> plt;

  bool InPlt(uint64_t address) const;

  // The function symbol holding `address`, nullptr if none.
  const ElfSymbol* SymbolAt(uint64_t address) const;
  // The address (in the file's own address space) of the byte at `offset` in the file, or
  // UINT64_MAX if no loadable segment maps it.
  uint64_t AddressOfFileOffset(uint64_t offset) const;
};

ElfModule ReadElfModule(const std::string& path);

// True if `path` is a regular file (after symbolic links): the only kind of file read as a
// module. A memory map copied from a process names device files too (/dev/zero, a GPU's or a
// network adapter's), and a damaged one any path: opening a FIFO, or reading a terminal or a
// device that never ends, would block the reader.
bool IsModuleFile(const std::string& path);

// A mangled C++ symbol's readable name ("_ZN3foo3barEv" is "foo::bar()"), a gfortran module
// procedure's as module::procedure ("__solver_MOD_smooth" is "solver::smooth"); other names,
// C's among them, unchanged.
std::string Demangle(const std::string& name);

}  // namespace cw::elf
