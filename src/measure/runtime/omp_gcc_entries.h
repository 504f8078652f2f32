// The entry points of GCC's OpenMP programs that libcauseway-mpi.so stands in front of, in
// LLVM's runtime (libomp's GOMP_* functions), for what OMPT does not tell: whether a barrier
// libomp reports as the implementation's is the program's explicit one, and where a single
// construct begins whose end GCC's code never reports (omp_hooks.cc reads both).
#pragma once

namespace cw::measure::hook {

// Set by GOMP_barrier while libomp runs it, to the program's address of the call: GCC's explicit
// barriers reach libomp through its GOMP entry point, which reports them as barriers "of the
// implementation", as it does the implicit barrier of a worksharing construct, and at an address
// in the caller, which is then causeway's wrapper.
extern __attribute__((tls_model("initial-exec"))) thread_local const void* t_explicit_barrier;
// Set by GOMP_single_start and GOMP_single_copy_start while libomp starts a single construct
// for GCC's code.
extern __attribute__((tls_model("initial-exec"))) thread_local bool t_gomp_single;

}  // namespace cw::measure::hook
