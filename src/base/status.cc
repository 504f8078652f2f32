#include "base/status.h"

namespace cw {

const char* ErrorCodeName(ErrorCode code) {
  switch (code) {
    case ErrorCode::kInvalidArgument:
      return "invalid argument";
    case ErrorCode::kNotFound:
      return "not found";
    case ErrorCode::kCorrupt:
      return "corrupt input";
    case ErrorCode::kUnsupported:
      return "unsupported input";
    case ErrorCode::kIo:
      return "I/O error";
    case ErrorCode::kResourceLimit:
      return "resource limit";
    case ErrorCode::kInternal:
      return "internal error";
  }
  return "error";
}

}  // namespace cw
