// The summary's lines about file I/O (private to report): operations and bytes in all, then the
// files that moved the most bytes, each with the location that moved most of them.
#pragma once

#include <string>

#include "report/report.h"

namespace cw::report::internal {

// Appends nothing when the trace has no file I/O.
void AppendFileIoLines(const Report& report, std::string& out);

}  // namespace cw::report::internal
