#include "otf2/anchor.h"

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <optional>
#include <system_error>
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

namespace {

// What the operating system said about `path`, for a user ("permission denied", "too many levels
// of symbolic links"), and the exit code's category: a path that cannot be looked at is bad input.
Error PathError(const std::string& path, const std::error_code& ec) {
  if (ec == std::errc::no_such_file_or_directory) {
    return Error(ErrorCode::kNotFound, "no such file or directory: " + path);
  }
  return Error(ErrorCode::kNotFound, path + ": " + ec.message());
}

// The kind of a path that is neither a regular file nor a directory.
std::string KindOf(fs::file_type type) {
  switch (type) {
    case fs::file_type::fifo:
      return "a FIFO (named pipe)";
    case fs::file_type::character:
      return "a character device";
    case fs::file_type::block:
      return "a block device";
    case fs::file_type::socket:
      return "a socket";
    default:
      return "neither a file nor a directory";
  }
}

// Opens `file` for reading to tell an unreadable file from one that is not an anchor.
std::optional<Error> Unreadable(const std::string& file) {
  if (::access(file.c_str(), R_OK) == 0) return std::nullopt;
  return Error(ErrorCode::kNotFound, "cannot read " + file + ": " + std::strerror(errno));
}

}  // namespace

Result<std::string> ResolveAnchor(const std::string& path) {
  std::error_code ec;
  fs::file_status status = fs::status(path, ec);
  if (ec || !fs::exists(status)) {
    if (!ec) ec = std::make_error_code(std::errc::no_such_file_or_directory);
    return tl::unexpected(PathError(path, ec));
  }
  if (fs::is_directory(status)) {
    std::vector<std::string> anchors;
    bool has_event_files = false;
    for (const fs::directory_entry& entry : fs::directory_iterator(path, ec)) {
      if (entry.path().extension() == ".evt") has_event_files = true;
      if (!entry.is_regular_file() || entry.path().extension() != ".otf2") continue;
      if (std::optional<Error> unreadable = Unreadable(entry.path().string())) {
        return tl::unexpected(*unreadable);
      }
      if (LooksLikeAnchor(entry.path().string())) anchors.push_back(entry.path().string());
    }
    if (ec) {
      return MakeError(ErrorCode::kNotFound, "cannot list directory " + path + ": " + ec.message());
    }
    if (anchors.empty()) {
      std::string hint;
      if (has_event_files) {
        hint =
            "; it holds event files (*.evt): it is the archive's per-location directory, "
            "give the directory above it or the .otf2 file beside it";
      } else if (fs::exists(fs::path(path) / "raw" / "rank-0.defs", ec)) {
        // causeway trace's own files, left when it was ended before it wrote the trace.
        hint =
            "; it holds the raw files of a traced run whose trace was not written "
            "(causeway trace was ended first): causeway trace --finish -o " +
            path + " writes it";
      }
      return MakeError(ErrorCode::kNotFound,
                       "directory " + path + " holds no OTF2 anchor file (*.otf2)" + hint);
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
    return MakeError(ErrorCode::kUnsupported, path + " is " + KindOf(status.type()) +
                                                  ", not an OTF2 anchor file or the directory "
                                                  "of one");
  }
  if (std::optional<Error> unreadable = Unreadable(path)) return tl::unexpected(*unreadable);
  if (!LooksLikeAnchor(path)) {
    return MakeError(ErrorCode::kCorrupt, path + " is not an OTF2 anchor file");
  }
  return path;
}

}  // namespace cw::otf2
