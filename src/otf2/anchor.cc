#include "otf2/anchor.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <vector>

namespace cw::otf2 {

namespace fs = std::filesystem;

bool LooksLikeAnchor(const std::string& file) {
  // An OTF2 anchor starts with an endianness byte pair followed by "OTF2".
  std::ifstream in(file, std::ios::binary);
  char head[6] = {};
  if (!in.read(head, sizeof(head))) return false;
  return std::string_view(head + 2, 4) == "OTF2";
}

Result<std::string> ResolveAnchor(const std::string& path) {
  std::error_code ec;
  fs::file_status status = fs::status(path, ec);
  if (ec || !fs::exists(status)) {
    return MakeError(ErrorCode::kNotFound, "no such file or directory: " + path);
  }
  if (fs::is_directory(status)) {
    std::vector<std::string> anchors;
    for (const fs::directory_entry& entry : fs::directory_iterator(path, ec)) {
      if (entry.is_regular_file() && entry.path().extension() == ".otf2" &&
          LooksLikeAnchor(entry.path().string())) {
        anchors.push_back(entry.path().string());
      }
    }
    if (ec) return MakeError(ErrorCode::kIo, "cannot list directory " + path + ": " + ec.message());
    if (anchors.empty()) {
      return MakeError(ErrorCode::kNotFound,
                       "directory " + path + " holds no OTF2 anchor file (*.otf2)");
    }
    if (anchors.size() > 1) {
      std::sort(anchors.begin(), anchors.end());
      auto preferred = std::find_if(anchors.begin(), anchors.end(), [](const std::string& a) {
        return fs::path(a).filename() == "traces.otf2";
      });
      if (preferred != anchors.end()) return *preferred;
      std::string list;
      for (const std::string& a : anchors) list += "\n  " + a;
      return MakeError(ErrorCode::kInvalidArgument,
                       "directory " + path + " holds several OTF2 anchors; name one:" + list);
    }
    return anchors.front();
  }
  if (!fs::is_regular_file(status)) {
    return MakeError(ErrorCode::kInvalidArgument, path + " is neither a file nor a directory");
  }
  if (!LooksLikeAnchor(path)) {
    return MakeError(ErrorCode::kCorrupt, path + " is not an OTF2 anchor file");
  }
  return path;
}

}  // namespace cw::otf2
