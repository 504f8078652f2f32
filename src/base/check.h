// Programmer errors: CW_CHECK aborts with file:line when an invariant that the code itself
// guarantees is broken. Never use it for properties of input data (use Status or a diagnostic).
#pragma once

namespace cw::internal {
[[noreturn]] void CheckFailed(const char* file, int line, const char* condition,
                              const char* message);
}  // namespace cw::internal

#define CW_CHECK(cond)                                                       \
  do {                                                                       \
    if (!(cond)) ::cw::internal::CheckFailed(__FILE__, __LINE__, #cond, ""); \
  } while (false)

#define CW_CHECK_MSG(cond, msg)                                               \
  do {                                                                        \
    if (!(cond)) ::cw::internal::CheckFailed(__FILE__, __LINE__, #cond, msg); \
  } while (false)

#define CW_UNREACHABLE(msg) ::cw::internal::CheckFailed(__FILE__, __LINE__, "unreachable", msg)
