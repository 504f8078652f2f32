// Recoverable errors: cw::Error, cw::Result<T> and cw::Status.
//
// Every component reports bad input, I/O failures and bad options through these types; nothing
// below cli/ prints or exits. Result<T> is tl::expected<T, Error> so that moving to C++23
// std::expected is a one-line change here.
//
//   Result<Trace> ReadTrace(const std::string& path);
//   CW_ASSIGN_OR_RETURN(Trace trace, ReadTrace(path));
//   if (trace.locations().empty()) return MakeError(ErrorCode::kCorrupt, "no locations");
#pragma once

#include <string>
#include <utility>

#include <tl/expected.hpp>

namespace cw {

enum class ErrorCode {
  kInvalidArgument,  // a bad option or parameter supplied by the user
  kNotFound,         // a file or directory that does not exist
  kCorrupt,          // input that exists but is malformed, truncated or inconsistent
  kUnsupported,      // valid input that causeway cannot handle
  kIo,               // the operating system failed a read or write
  kResourceLimit,    // a configured memory or size limit would be exceeded
  kInternal,         // a bug in causeway
};

// A human-readable name of the code, e.g. "corrupt input".
const char* ErrorCodeName(ErrorCode code);

class Error {
 public:
  Error(ErrorCode code, std::string message) : code_(code), message_(std::move(message)) {}

  ErrorCode code() const { return code_; }
  const std::string& message() const { return message_; }

  // Prepends a context ("reading location 12") so that the message reads outside-in:
  // "reading location 12: event 4711: unknown region 99".
  Error& AddContext(const std::string& context) {
    message_ = context + ": " + message_;
    return *this;
  }

 private:
  ErrorCode code_;
  std::string message_;
};

template <typename T>
using Result = tl::expected<T, Error>;
using Status = tl::expected<void, Error>;

inline tl::unexpected<Error> MakeError(ErrorCode code, std::string message) {
  return tl::unexpected<Error>(Error(code, std::move(message)));
}

inline Status OkStatus() { return {}; }

}  // namespace cw

#define CW_INTERNAL_CONCAT2(a, b) a##b
#define CW_INTERNAL_CONCAT(a, b) CW_INTERNAL_CONCAT2(a, b)

// Returns the error of `expr` (a Status or Result) from the enclosing function.
#define CW_RETURN_IF_ERROR(expr)                                               \
  do {                                                                         \
    auto cw_status_ = (expr);                                                  \
    if (!cw_status_) return ::tl::unexpected<::cw::Error>(cw_status_.error()); \
  } while (false)

// `CW_ASSIGN_OR_RETURN(Type var, expr);` moves the value of a Result into `var` or returns its
// error.
#define CW_ASSIGN_OR_RETURN(lhs, expr) \
  CW_INTERNAL_ASSIGN_OR_RETURN(CW_INTERNAL_CONCAT(cw_result_, __LINE__), lhs, expr)
#define CW_INTERNAL_ASSIGN_OR_RETURN(tmp, lhs, expr)                      \
  auto tmp = (expr);                                                      \
  if (!tmp) return ::tl::unexpected<::cw::Error>(std::move(tmp).error()); \
  lhs = std::move(*tmp)
