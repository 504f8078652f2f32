#include "tests/fuzz/archive_container.h"

#include <unistd.h>

#include <filesystem>
#include <fstream>

namespace cw::fuzz {
namespace {

bool SafeName(const std::string& name) {
  if (name.empty() || name.front() == '/' || name.find("..") != std::string::npos) return false;
  for (char c : name) {
    const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                    c == '.' || c == '_' || c == '-' || c == '/';
    if (!ok) return false;
  }
  return true;
}

}  // namespace

Container Unpack(const uint8_t* data, size_t size) {
  Container c;
  size_t at = 0;
  if (size == 0) return c;
  c.flags = data[at++];
  while (at < size) {
    const size_t name_length = data[at++];
    if (size - at < name_length) break;
    std::string name(reinterpret_cast<const char*>(data + at), name_length);
    at += name_length;
    uint32_t length = 0;
    for (int i = 0; i < 4 && at < size; ++i) length |= uint32_t{data[at++]} << (8 * i);
    const size_t take = std::min<size_t>(length, size - at);
    std::string content(reinterpret_cast<const char*>(data + at), take);
    at += take;
    if (SafeName(name)) c.files.emplace_back(std::move(name), std::move(content));
  }
  return c;
}

std::string Pack(const Container& container) {
  std::string out(1, static_cast<char>(container.flags));
  for (const auto& [name, content] : container.files) {
    out += static_cast<char>(name.size());
    out += name;
    const auto length = static_cast<uint32_t>(content.size());
    for (int i = 0; i < 4; ++i) out += static_cast<char>((length >> (8 * i)) & 0xff);
    out += content;
  }
  return out;
}

std::string WriteToWorkDirectory(const Container& container) {
  namespace fs = std::filesystem;
  static const std::string dir = [] {
    std::string base = fs::temp_directory_path() / ("causeway-fuzz-" + std::to_string(getpid()));
    fs::create_directories(base);
    return base;
  }();
  std::error_code ec;
  for (const fs::directory_entry& entry : fs::directory_iterator(dir, ec)) {
    fs::remove_all(entry.path(), ec);
  }
  for (const auto& [name, content] : container.files) {
    const fs::path path = fs::path(dir) / name;
    fs::create_directories(path.parent_path(), ec);
    std::ofstream(path, std::ios::binary) << content;
  }
  return dir;
}

}  // namespace cw::fuzz
