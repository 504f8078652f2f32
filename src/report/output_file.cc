#include "report/output_file.h"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>

namespace cw::report {

Status EnsureDirectory(const std::string& directory) {
  std::error_code ec;
  std::filesystem::create_directories(directory, ec);
  if (ec)
    return MakeError(ErrorCode::kIo, "cannot create directory " + directory + ": " + ec.message());
  if (!std::filesystem::is_directory(directory)) {
    return MakeError(ErrorCode::kIo, directory + " exists and is not a directory");
  }
  return OkStatus();
}

Status WriteTextFile(const std::string& path, std::string_view content) {
  std::string temporary = path + ".tmp";
  {
    std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
    if (!out) {
      return MakeError(ErrorCode::kIo, "cannot write " + path + ": " + std::strerror(errno));
    }
    out.write(content.data(), static_cast<std::streamsize>(content.size()));
    out.flush();
    if (!out) {
      return MakeError(ErrorCode::kIo, "cannot write " + path + ": " + std::strerror(errno));
    }
  }
  std::error_code ec;
  std::filesystem::rename(temporary, path, ec);
  if (ec) return MakeError(ErrorCode::kIo, "cannot write " + path + ": " + ec.message());
  return OkStatus();
}

}  // namespace cw::report
