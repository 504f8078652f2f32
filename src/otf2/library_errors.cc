#include "otf2/library_errors.h"

#include <malloc.h>

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

void PrepareLibrary() {
  static std::once_flag once;
  std::call_once(once, [] {
    OTF2_Error_RegisterCallback(&RecordError, nullptr);
    // libotf2 reads a file's last chunk into a buffer it mallocs without clearing, and on a
    // damaged file it reads past the bytes the file held (valgrind: OTF2_Buffer_ReadGetNextChunk
    // depends on uninitialised memory). A fresh mapping is zero-filled, which libotf2 takes for
    // the end; recycled heap memory is whatever the process left there, which it can loop over
    // for minutes (a damaged definitions file read after two other traces did). glibc serves
    // requests above its mmap threshold from fresh mappings, but raises that threshold, up to
    // 32 MiB, each time such a mapping is freed; fixing it at its initial 128 KiB keeps every
    // chunk (OTF2's are 256 KiB to 16 MiB) a fresh mapping, at the cost of a system call per
    // chunk.
    mallopt(M_MMAP_THRESHOLD, 128 * 1024);
  });
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
