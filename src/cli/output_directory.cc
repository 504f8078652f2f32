#include "cli/output_directory.h"

#include <filesystem>

namespace cw::cli {

std::string DefaultOutputDirectory(const std::string& trace_path, const std::string& prefix) {
  std::filesystem::path p = std::filesystem::path(trace_path).lexically_normal();
  if (p.filename().empty()) p = p.parent_path();
  if (p.extension() == ".otf2") p = p.parent_path();
  std::string name = p.filename().string();
  if (name.empty() || name == "." || name == "..") name = "trace";
  return prefix + name;
}

}  // namespace cw::cli
