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
  uintptr_t own_begin_ = 0;
  uintptr_t own_end_ = 0;
};

}  // namespace cw::measure::stack_walk
