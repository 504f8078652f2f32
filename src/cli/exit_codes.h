// Exit codes of the causeway command (documented in the README).
#pragma once

#include "base/status.h"

namespace cw::cli {

inline constexpr int kExitOk = 0;
inline constexpr int kExitUsage = 1;      // bad command line
inline constexpr int kExitBadInput = 2;   // missing, unreadable, corrupt or unsupported trace
inline constexpr int kExitOutput = 3;     // cannot write the results
inline constexpr int kExitLimit = 4;      // a resource limit would be exceeded
inline constexpr int kExitInternal = 70;  // a bug in causeway

int ExitCodeFor(const Error& error);

}  // namespace cw::cli
