#include "base/parallel.h"

namespace cw {

unsigned DefaultThreadCount() {
  unsigned n = std::thread::hardware_concurrency();
  return n == 0 ? 1 : n;
}

}  // namespace cw
