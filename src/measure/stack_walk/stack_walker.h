// Stack walks for the tracer's call paths: the return addresses on the calling thread's stack,
// innermost first, with the frames of the library that walks (its wrappers and hooks) left out.
// Shared by libcauseway-mpi.so (the call path of every recorded call, measure/runtime) and
// libcauseway-tag.so (the task activity graph's call paths, measure/tag_runtime).
//
// The walk uses libunwind's cached fast path (unw_backtrace), loaded with dlopen and
// RTLD_LOCAL so that its _Unwind_* symbols never replace the C++ runtime's in the program;
// without libunwind it falls back on glibc's backtrace(), about ten times slower.
//
//   StackWalker walker;                 // once, when the library starts recording
//   uintptr_t pcs[kMaxWalkedFrames + 8];
//   uint32_t n = walker.Walk(pcs, kMaxWalkedFrames + 8);   // pcs[0]: the caller's call site
#pragma once

#include <cstdint>

namespace cw::measure::stack_walk {

// The address range of a loaded module (its PT_LOAD segments); empty if none was found.
struct CodeRange {
  uintptr_t begin = 0;
  uintptr_t end = 0;
  bool Holds(uintptr_t address) const { return address >= begin && address < end; }
};

// The loaded module that holds `address`.
CodeRange ModuleHolding(uintptr_t address);
// The first loaded module whose file name begins with `prefix` ("ld-linux", "libgcc_s").
CodeRange ModuleNamed(const char* prefix);

class StackWalker {
 public:
  // Finds libunwind and the address range of the library this code is linked into.
  StackWalker();

  // Up to `capacity` return addresses into `pcs`, innermost first, the walking library's own
  // frames at the inner end dropped; returns how many.
  uint32_t Walk(uintptr_t* pcs, uint32_t capacity) const;

  bool fast() const { return unwind_ != nullptr; }

 private:
  using Backtrace = int (*)(void**, int);
  Backtrace unwind_ = nullptr;
  CodeRange own_;  // the library this code is linked into
};

}  // namespace cw::measure::stack_walk
