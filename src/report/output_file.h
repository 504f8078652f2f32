// Writing report files: whole file or nothing, with an error that names the path.
#pragma once

#include <string>
#include <string_view>

#include "base/status.h"

namespace cw::report {

// Writes `content` to `path` through a temporary file renamed into place, so that a reader never
// sees half a report.
Status WriteTextFile(const std::string& path, std::string_view content);

// Creates `directory` and its parents if needed.
Status EnsureDirectory(const std::string& directory);

}  // namespace cw::report
