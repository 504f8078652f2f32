#include "measure/runtime/omp_gcc_entries.h"

#include <dlfcn.h>

#include <cstdio>
#include <cstdlib>

namespace cw::measure::hook {

// initial-exec: the library is loaded at start-up, as recorder.cc's thread state.
__attribute__((tls_model("initial-exec"))) thread_local const void* t_explicit_barrier = nullptr;
__attribute__((tls_model("initial-exec"))) thread_local bool t_gomp_single = false;

namespace {

// The OpenMP runtime's GCC entry point `name` that causeway's own stands in front of (never
// nullptr: only a program linked with an OpenMP runtime calls them; without one it must not go
// on as if its threads had synchronised).
template <typename Function>
Function NextEntryPoint(const char* name) {
  auto next = reinterpret_cast<Function>(dlsym(RTLD_NEXT, name));
  if (next == nullptr) {
    std::fprintf(stderr, "causeway: %s called, but no OpenMP runtime provides it\n", name);
    std::abort();
  }
  return next;
}

}  // namespace
}  // namespace cw::measure::hook

// GCC's explicit barrier: marks the barrier libomp reports next as explicit, then runs it.
extern "C" __attribute__((visibility("default"))) void GOMP_barrier() {
  static const auto kNext = cw::measure::hook::NextEntryPoint<void (*)()>("GOMP_barrier");
  cw::measure::hook::t_explicit_barrier = __builtin_return_address(0);
  kNext();
  cw::measure::hook::t_explicit_barrier = nullptr;
}

// GCC's single constructs (without and with copyprivate): the region libomp starts for the
// thread that executes one has no reported end (omp_hooks.cc's OpenRegion::end_unreported).
extern "C" __attribute__((visibility("default"))) bool GOMP_single_start() {
  static const auto kNext = cw::measure::hook::NextEntryPoint<bool (*)()>("GOMP_single_start");
  cw::measure::hook::t_gomp_single = true;
  const bool executes = kNext();
  cw::measure::hook::t_gomp_single = false;
  return executes;
}

extern "C" __attribute__((visibility("default"))) void* GOMP_single_copy_start() {
  static const auto kNext =
      cw::measure::hook::NextEntryPoint<void* (*)()>("GOMP_single_copy_start");
  cw::measure::hook::t_gomp_single = true;
  void* data = kNext();
  cw::measure::hook::t_gomp_single = false;
  return data;
}
