#include "cli/openmp_runtime.h"

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <sstream>

#include "elf/needed_libraries.h"

namespace cw::cli {
namespace {

namespace fs = std::filesystem;

#ifdef CW_LIBOMP
constexpr const char* kLibomp = CW_LIBOMP;
#else
constexpr const char* kLibomp = "";
#endif

// The file an argument names: a path as given, or a name found on PATH ("" if neither).
std::string Executable(const std::string& argument) {
  std::error_code ec;
  if (argument.find('/') != std::string::npos)
    return fs::is_regular_file(argument, ec) ? argument : "";
  if (fs::is_regular_file(argument, ec)) return argument;  // mpirun also looks here
  const char* path = std::getenv("PATH");
  std::istringstream dirs(path == nullptr ? "" : path);
  std::string dir;
  while (std::getline(dirs, dir, ':')) {
    const fs::path candidate = fs::path(dir.empty() ? "." : dir) / argument;
    if (fs::is_regular_file(candidate, ec) && access(candidate.c_str(), X_OK) == 0)
      return candidate.string();
  }
  return "";
}

bool NeedsLibgomp(const std::vector<std::string>& command) {
  for (const std::string& argument : command) {
    const std::string file = Executable(argument);
    if (file.empty()) continue;
    for (const std::string& library : elf::AllNeededLibraries(file)) {
      if (library.rfind("libgomp.so", 0) == 0) return true;
    }
  }
  return false;
}

}  // namespace

Result<std::string> OpenMpRuntime(const std::string& mode,
                                  const std::vector<std::string>& command) {
  if (mode == "off") return std::string();
  if (mode != "auto" && mode != "libomp") {
    return MakeError(ErrorCode::kInvalidArgument,
                     "--openmp " + mode + ": expected auto, libomp or off");
  }
  const bool wanted = mode == "libomp" || NeedsLibgomp(command);
  if (!wanted) return std::string();
  if (*kLibomp == '\0') {
    if (mode == "auto") return std::string();  // recorded without its threads, as before
    return MakeError(ErrorCode::kNotFound,
                     "--openmp libomp: causeway was built without LLVM's OpenMP runtime "
                     "(libomp-14-dev)");
  }
  return std::string(kLibomp);
}

}  // namespace cw::cli
