// Which OpenMP runtime `causeway trace` runs the command's programs on (--openmp).
//
// causeway records OpenMP threads through OMPT, OpenMP 5's tool interface, which LLVM's runtime
// (libomp) implements and GCC's (libgomp) does not. libomp also provides GCC's GOMP_* entry
// points, so a program that GCC or gfortran built with -fopenmp runs on it unchanged when libomp
// is preloaded: its symbols then come before libgomp's.
//   auto    libomp is preloaded when a program among the command's arguments needs libgomp,
//           directly or through its libraries (clang's programs need libomp already; others
//           need no OpenMP runtime)
//   libomp  always preloaded (a program started by a script, say)
//   off     never: OpenMP threads are then not recorded (CAUSEWAY_OPENMP=off also keeps libomp
//           from starting causeway as its tool)
#pragma once

#include <string>
#include <vector>

#include "base/status.h"

namespace cw::cli {

// The library to preload for `mode` and the command ("" for none); an error for an unknown mode,
// or for libomp when no libomp was found at build time.
Result<std::string> OpenMpRuntime(const std::string& mode, const std::vector<std::string>& command);

}  // namespace cw::cli
