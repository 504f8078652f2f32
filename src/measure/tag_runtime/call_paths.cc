#include "measure/tag_runtime/call_paths.h"

#include <dlfcn.h>
#include <execinfo.h>
#include <link.h>

#include <algorithm>

namespace cw::measure::tag_runtime {
namespace {

// The address range of the loaded module holding `address` (its PT_LOAD segments).
struct Range {
  uintptr_t address;
  uintptr_t begin = 0;
  uintptr_t end = 0;
};

int FindModule(struct dl_phdr_info* info, size_t, void* data) {
  Range* r = static_cast<Range*>(data);
  uintptr_t begin = UINTPTR_MAX, end = 0;
  for (int i = 0; i < info->dlpi_phnum; ++i) {
    const ElfW(Phdr)& ph = info->dlpi_phdr[i];
    if (ph.p_type != PT_LOAD) continue;
    begin = std::min<uintptr_t>(begin, info->dlpi_addr + ph.p_vaddr);
    end = std::max<uintptr_t>(end, info->dlpi_addr + ph.p_vaddr + ph.p_memsz);
  }
  if (r->address >= begin && r->address < end) {
    r->begin = begin;
    r->end = end;
    return 1;
  }
  return 0;
}

void Marker() {}

}  // namespace

CallPaths::CallPaths(uint32_t depth) : depth_(depth) {
  Range own{reinterpret_cast<uintptr_t>(&Marker)};
  dl_iterate_phdr(FindModule, &own);
  own_begin_ = own.begin;
  own_end_ = own.end;
  // RTLD_LOCAL: libunwind.so also defines _Unwind_Backtrace, _Unwind_RaiseException and even
  // backtrace(); loaded globally, they would take over the program's exception handling.
  void* library = dlopen("libunwind.so.8", RTLD_NOW | RTLD_LOCAL);
  if (library == nullptr) return;
  unwind_ = reinterpret_cast<Backtrace>(dlsym(library, "unw_backtrace"));
  // Per-thread caching of the unwind information: no lock per walk. The symbols carry the
  // architecture in their names (_ULx86_64_...), so they are looked up for this one.
#if defined(__x86_64__)
  using SetCaching = int (*)(void*, int);
  using SetCacheSize = int (*)(void*, size_t, int);
  auto set_caching = reinterpret_cast<SetCaching>(dlsym(library, "_ULx86_64_set_caching_policy"));
  auto set_size = reinterpret_cast<SetCacheSize>(dlsym(library, "_ULx86_64_set_cache_size"));
  auto* address_space = static_cast<void**>(dlsym(library, "_ULx86_64_local_addr_space"));
  constexpr int kCachePerThread = 2;  // UNW_CACHE_PER_THREAD
  if (set_caching != nullptr && address_space != nullptr)
    set_caching(*address_space, kCachePerThread);
  // The default cache holds a few hundred return addresses' unwind rules; a large C++ code's
  // call paths hold thousands, and a rule not in the cache costs a search of the DWARF tables.
  constexpr size_t kCachedAddresses = 16384;
  if (set_size != nullptr && address_space != nullptr)
    set_size(*address_space, kCachedAddresses, 0);
#endif
}

uint32_t CallPaths::Walk(uintptr_t* pcs) const {
  void* raw[kMaxFrames + 8];
  const int n = unwind_ != nullptr ? unwind_(raw, kMaxFrames + 8) : backtrace(raw, kMaxFrames + 8);
  uint32_t count = 0;
  for (int i = 0; i < n; ++i) {
    const auto pc = reinterpret_cast<uintptr_t>(raw[i]);
    if (count == 0 && pc >= own_begin_ && pc < own_end_) continue;  // the wrapper and the hooks
    pcs[count++] = pc;
  }
  return count;
}

uint32_t CallPaths::Depth() const {
  uintptr_t pcs[kMaxFrames + 8];
  return std::min<uint32_t>(Walk(pcs), kMaxFrames);
}

uint32_t CallPaths::Capture(Frame* out, const OpenRegion* regions, uint32_t region_count,
                            bool* truncated) const {
  uintptr_t pcs[kMaxFrames + 8];
  const uint32_t walked = Walk(pcs);
  *truncated = walked > kMaxFrames;
  const uint32_t total = std::min<uint32_t>(walked, kMaxFrames);
  uint32_t count = 0;
  uint32_t next_region = 0;
  // Outermost first: pcs holds the innermost first.
  for (uint32_t k = 0; k < total; ++k) {
    while (next_region < region_count && regions[next_region].depth <= k && count < kMaxFrames) {
      out[count++] = Frame{tag_segment::kRegionFrame | regions[next_region].name, k, 0};
      ++next_region;
    }
    const uint64_t pc = pcs[total - 1 - k];
    if (depth_ > 0) {
      // Fold a call site's (depth+1)-th occurrence onto its depth-th: drop what came since.
      uint32_t seen = 0, cut = count;
      for (uint32_t i = 0; i < count; ++i) {
        if (out[i].address == pc && ++seen == depth_) cut = i + 1;
      }
      if (seen >= depth_) {
        count = cut;
        continue;
      }
    }
    if (count < kMaxFrames) out[count++] = Frame{pc, 0, 0};
  }
  while (next_region < region_count && count < kMaxFrames) {
    out[count++] = Frame{tag_segment::kRegionFrame | regions[next_region].name, total, 0};
    ++next_region;
  }
  return count;
}

}  // namespace cw::measure::tag_runtime
