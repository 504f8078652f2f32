#include "measure/stack_walk/stack_walker.h"

#include <dlfcn.h>
#include <execinfo.h>
#include <link.h>

#include <algorithm>
#include <cstring>

namespace cw::measure::stack_walk {
namespace {

// What dl_iterate_phdr looks for: the module holding `address`, or (with `prefix`) the first
// one whose file name begins with it.
struct ModuleQuery {
  uintptr_t address = 0;
  const char* prefix = nullptr;
  CodeRange found;
};

int FindModule(struct dl_phdr_info* info, size_t, void* data) {
  auto* q = static_cast<ModuleQuery*>(data);
  if (q->prefix != nullptr) {
    const char* name = info->dlpi_name != nullptr ? info->dlpi_name : "";
    const char* slash = std::strrchr(name, '/');
    const char* base = slash != nullptr ? slash + 1 : name;
    if (std::strncmp(base, q->prefix, std::strlen(q->prefix)) != 0) return 0;
  }
  CodeRange r{UINTPTR_MAX, 0};
  for (int i = 0; i < info->dlpi_phnum; ++i) {
    const ElfW(Phdr)& ph = info->dlpi_phdr[i];
    if (ph.p_type != PT_LOAD) continue;
    r.begin = std::min<uintptr_t>(r.begin, info->dlpi_addr + ph.p_vaddr);
    r.end = std::max<uintptr_t>(r.end, info->dlpi_addr + ph.p_vaddr + ph.p_memsz);
  }
  if (r.end <= r.begin || (q->prefix == nullptr && !r.Holds(q->address))) return 0;
  q->found = r;
  return 1;
}

void Marker() {}

// The most return addresses one walk asks for (what a caller's buffer may hold beyond): on the
// stack of the walking thread, a signal handler's included.
constexpr int kRawCapacity = 544;

}  // namespace

StackWalker::StackWalker() {
  own_ = ModuleHolding(reinterpret_cast<uintptr_t>(&Marker));
  // RTLD_LOCAL: libunwind.so also defines _Unwind_Backtrace, _Unwind_RaiseException and even
  // backtrace(); loaded globally, they would take over the program's exception handling.
  void* library = dlopen("libunwind.so.8", RTLD_NOW | RTLD_LOCAL);
  if (library == nullptr) return;
  unwind_ = reinterpret_cast<Backtrace>(dlsym(library, "unw_backtrace"));
  // After a frame's first walk, unw_backtrace finds its rule in a per-thread cache of its own,
  // which grows as needed. The first walk through a frame parses the DWARF rule and keeps it in
  // the address space's rule cache: asked to be per thread (no lock), which Debian's libunwind
  // 1.6, built without per-thread caches, turns into its global cache under a lock. (Its size
  // stays at 128 rules: libunwind 1.6 undoes a resizing made before the cache's first use.) The
  // symbols carry the architecture in their names (_ULx86_64_...).
#if defined(__x86_64__)
  using SetCaching = int (*)(void*, int);
  auto set_caching = reinterpret_cast<SetCaching>(dlsym(library, "_ULx86_64_set_caching_policy"));
  auto* address_space = static_cast<void**>(dlsym(library, "_ULx86_64_local_addr_space"));
  constexpr int kCachePerThread = 2;  // UNW_CACHE_PER_THREAD
  if (set_caching != nullptr && address_space != nullptr)
    set_caching(*address_space, kCachePerThread);
#endif
}

uint32_t StackWalker::Walk(uintptr_t* pcs, uint32_t capacity) const {
  void* raw[kRawCapacity];
  const int want = static_cast<int>(std::min<uint32_t>(capacity, kRawCapacity - 16) + 16);
  const int n = unwind_ != nullptr ? unwind_(raw, want) : backtrace(raw, want);
  uint32_t count = 0;
  for (int i = 0; i < n && count < capacity; ++i) {
    const auto pc = reinterpret_cast<uintptr_t>(raw[i]);
    if (count == 0 && own_.Holds(pc)) continue;  // the wrapper and the hooks
    pcs[count++] = pc;
  }
  return count;
}

CodeRange ModuleHolding(uintptr_t address) {
  ModuleQuery q;
  q.address = address;
  dl_iterate_phdr(FindModule, &q);
  return q.found;
}

CodeRange ModuleNamed(const char* prefix) {
  ModuleQuery q;
  q.prefix = prefix;
  dl_iterate_phdr(FindModule, &q);
  return q.found;
}

}  // namespace cw::measure::stack_walk
