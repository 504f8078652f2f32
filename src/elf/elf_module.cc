#include "elf/elf_module.h"

#include <cxxabi.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>

namespace cw::elf {

bool IsModuleFile(const std::string& path) {
  struct stat st {};
  return stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode);
}

ElfModule ReadElfModule(const std::string& path) {
  ElfModule m;
  if (elf_version(EV_CURRENT) == EV_NONE || !IsModuleFile(path)) return m;
  const int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return m;
  Elf* elf = elf_begin(fd, ELF_C_READ, nullptr);
  GElf_Ehdr header;
  if (elf != nullptr && gelf_getehdr(elf, &header) != nullptr) {
    m.readable = true;
    m.shared = header.e_type == ET_DYN;
    size_t segments = 0;
    if (elf_getphdrnum(elf, &segments) == 0) {
      for (size_t i = 0; i < segments; ++i) {
        GElf_Phdr ph;
        if (gelf_getphdr(elf, static_cast<int>(i), &ph) == nullptr || ph.p_type != PT_LOAD) {
          continue;
        }
        m.loads.push_back({ph.p_offset, ph.p_filesz, ph.p_vaddr});
      }
    }
    size_t names = 0;
    if (elf_getshdrstrndx(elf, &names) != 0) names = 0;
    Elf_Scn* section = nullptr;
    while ((section = elf_nextscn(elf, section)) != nullptr) {
      GElf_Shdr sh;
      if (gelf_getshdr(section, &sh) == nullptr) continue;
      const char* section_name = names != 0 ? elf_strptr(elf, names, sh.sh_name) : nullptr;
      if (section_name != nullptr && std::string(section_name).rfind(".plt", 0) == 0)
        m.plt.emplace_back(sh.sh_addr, sh.sh_addr + sh.sh_size);
      if (sh.sh_type != SHT_SYMTAB && sh.sh_type != SHT_DYNSYM) continue;
      Elf_Data* data = elf_getdata(section, nullptr);
      if (data == nullptr || sh.sh_entsize == 0) continue;
      const size_t count = sh.sh_size / sh.sh_entsize;
      for (size_t i = 0; i < count; ++i) {
        GElf_Sym sym;
        if (gelf_getsym(data, static_cast<int>(i), &sym) == nullptr) continue;
        if (GELF_ST_TYPE(sym.st_info) != STT_FUNC || sym.st_value == 0) continue;
        const char* name = elf_strptr(elf, sh.sh_link, sym.st_name);
        if (name == nullptr || *name == '\0') continue;
        m.symbols.push_back(
            ElfSymbol{sym.st_value, sym.st_value + std::max<uint64_t>(sym.st_size, 1), name});
      }
    }
  }
  if (elf != nullptr) elf_end(elf);
  close(fd);
  // By address; of symbols at one address (a function and its aliases in symtab and dynsym)
  // the first name read stays first.
  std::stable_sort(m.symbols.begin(), m.symbols.end(),
                   [](const ElfSymbol& a, const ElfSymbol& b) { return a.begin < b.begin; });
  return m;
}

const ElfSymbol* ElfModule::SymbolAt(uint64_t address) const {
  auto next = std::upper_bound(symbols.begin(), symbols.end(), address,
                               [](uint64_t a, const ElfSymbol& s) { return a < s.begin; });
  // Symbols may nest or overlap (aliases, local labels): the nearest one below that still
  // holds the address.
  while (next != symbols.begin()) {
    --next;
    if (address < next->end) return &*next;
    if (address - next->begin > (1u << 24)) break;
  }
  return nullptr;
}

bool ElfModule::InPlt(uint64_t address) const {
  return std::any_of(plt.begin(), plt.end(),
                     [address](const auto& r) { return address >= r.first && address < r.second; });
}

uint64_t ElfModule::AddressOfFileOffset(uint64_t offset) const {
  for (const Load& l : loads) {
    if (offset >= l.offset && offset < l.offset + l.size) return offset - l.offset + l.address;
  }
  return UINT64_MAX;
}

std::string Demangle(const std::string& name) {
  // gfortran's module procedures: __<module>_MOD_<procedure>.
  if (name.rfind("__", 0) == 0) {
    const size_t mod = name.find("_MOD_", 2);
    if (mod != std::string::npos && mod > 2 && mod + 5 < name.size())
      return name.substr(2, mod - 2) + "::" + name.substr(mod + 5);
  }
  // Only mangled names: the demangler also reads plain C names as type codes ("f" is float).
  if (name.rfind("_Z", 0) != 0) return name;
  int status = 0;
  char* demangled = abi::__cxa_demangle(name.c_str(), nullptr, nullptr, &status);
  if (status != 0 || demangled == nullptr) return name;
  std::string result = demangled;
  std::free(demangled);
  return result;
}

}  // namespace cw::elf
