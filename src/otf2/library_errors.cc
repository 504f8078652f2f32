#include "otf2/library_errors.h"

#include <cstdarg>
#include <cstdio>
#include <mutex>

namespace cw::otf2 {
namespace {

thread_local std::string last_message;

OTF2_ErrorCode RecordError(void*, const char*, uint64_t, const char*, OTF2_ErrorCode code,
                           const char* format, va_list args) {
  char buffer[512];
  if (format != nullptr) {
    std::vsnprintf(buffer, sizeof(buffer), format, args);
    last_message = buffer;
  } else {
    last_message.clear();
  }
  return code;
}

}  // namespace

void InstallErrorHandler() {
  static std::once_flag once;
  std::call_once(once, [] { OTF2_Error_RegisterCallback(&RecordError, nullptr); });
}

std::string TakeLastLibraryMessage() {
  std::string message;
  message.swap(last_message);
  return message;
}

Error LibraryError(ErrorCode code, const std::string& what, OTF2_ErrorCode otf2_code) {
  std::string message = what + ": " + OTF2_Error_GetDescription(otf2_code);
  std::string detail = TakeLastLibraryMessage();
  if (!detail.empty()) message += " (" + detail + ")";
  return Error(code, message);
}

}  // namespace cw::otf2
