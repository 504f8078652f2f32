#include "base/check.h"

#include <cstdio>
#include <cstdlib>

namespace cw::internal {

void CheckFailed(const char* file, int line, const char* condition, const char* message) {
  std::fprintf(stderr, "causeway internal error: %s:%d: check failed: %s %s\n", file, line,
               condition, message);
  std::abort();
}

}  // namespace cw::internal
