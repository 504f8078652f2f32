// Scratch directories for tests: each process removes its own when it exits, and sweeps away
// those of test processes that died.
#pragma once

#include <string>

namespace cw::testing {

// A fresh empty directory under the test temp dir, unique per call.
std::string MakeTempDir(const std::string& prefix);

}  // namespace cw::testing
