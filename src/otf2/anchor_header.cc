#include "otf2/anchor_header.h"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <optional>

#include <otf2/OTF2_GeneralDefinitions.h>

namespace cw::otf2 {
namespace {

// Byte-order marks and markers of libotf2's buffer format (OTF2_Buffer.h).
constexpr uint8_t kLittleEndian = 0x42;
constexpr uint8_t kBigEndian = 0x23;
constexpr uint8_t kEndOfFile = 2;
constexpr uint8_t kNewestAnchorFormat = 3;
constexpr uint64_t kMostAnchorBytes = 1 << 20;

class Cursor {
 public:
  Cursor(const std::string& bytes, bool big_endian) : bytes_(bytes), big_endian_(big_endian) {}

  size_t remaining() const { return bytes_.size() - at_; }

  std::optional<uint64_t> Fixed(size_t width) {
    if (remaining() < width) return std::nullopt;
    uint64_t value = 0;
    for (size_t i = 0; i < width; ++i) {
      const uint64_t byte = static_cast<uint8_t>(bytes_[at_ + i]);
      value |= byte << (8 * (big_endian_ ? width - 1 - i : i));
    }
    at_ += width;
    return value;
  }

  // A NUL-terminated string that ends inside the file.
  std::optional<std::string> String() {
    const size_t end = bytes_.find('\0', at_);
    if (end == std::string::npos) return std::nullopt;
    std::string s = bytes_.substr(at_, end - at_);
    at_ = end + 1;
    return s;
  }

 private:
  const std::string& bytes_;
  bool big_endian_;
  size_t at_ = 0;
};

Error Malformed(const std::string& what) {
  return Error(ErrorCode::kCorrupt, "malformed OTF2 anchor file: " + what);
}

}  // namespace

Result<AnchorHeader> ParseAnchorHeader(const std::string& bytes) {
  if (bytes.size() < 2 || (static_cast<uint8_t>(bytes[1]) != kLittleEndian &&
                           static_cast<uint8_t>(bytes[1]) != kBigEndian)) {
    return tl::unexpected(Malformed("no byte-order mark"));
  }
  Cursor in(bytes, static_cast<uint8_t>(bytes[1]) == kBigEndian);
  in.Fixed(2);
  AnchorHeader h;
  std::optional<std::string> magic = in.String();
  if (!magic || *magic != "OTF2") return tl::unexpected(Malformed("no OTF2 signature"));
  std::optional<uint64_t> format = in.Fixed(1);
  if (!format || *format == 0) return tl::unexpected(Malformed("no anchor format"));
  h.anchor_format = static_cast<uint8_t>(*format);
  if (in.remaining() < 38) return tl::unexpected(Malformed("it ends inside its header"));
  in.Fixed(1);  // trace format
  h.version_major = static_cast<uint8_t>(*in.Fixed(1));
  h.version_minor = static_cast<uint8_t>(*in.Fixed(1));
  h.version_bugfix = static_cast<uint8_t>(*in.Fixed(1));
  h.chunk_size_events = *in.Fixed(8);
  h.chunk_size_definitions = *in.Fixed(8);
  const uint64_t substrate = *in.Fixed(1);
  const uint64_t compression = *in.Fixed(1);
  if (substrate != OTF2_SUBSTRATE_POSIX && substrate != OTF2_SUBSTRATE_SION &&
      substrate != OTF2_SUBSTRATE_NONE) {
    return tl::unexpected(Malformed("unknown file substrate " + std::to_string(substrate)));
  }
  // 0: none, 1: zlib (OTF2_COMPRESSION_ZLIB, deprecated in the headers but still in old archives).
  if (compression > 1) {
    return tl::unexpected(Malformed("unknown compression " + std::to_string(compression)));
  }
  h.locations = *in.Fixed(8);
  h.global_definitions = *in.Fixed(8);
  for (std::string* text : {&h.machine, &h.creator, &h.description}) {
    std::optional<std::string> s = in.String();
    if (!s) return tl::unexpected(Malformed("a string runs past the end of the file"));
    *text = std::move(*s);
  }
  if (h.anchor_format > 1) {
    std::optional<uint64_t> count = in.Fixed(4);
    if (!count) return tl::unexpected(Malformed("it ends before its property count"));
    // Each property is two strings of at least their terminating byte: a count beyond what the
    // rest of the file can hold is corrupt (and would make libotf2 corrupt its heap).
    if (*count > in.remaining() / 2) {
      return tl::unexpected(Malformed("it declares " + std::to_string(*count) +
                                      " properties, more than its " +
                                      std::to_string(in.remaining()) + " remaining bytes hold"));
    }
    for (uint64_t i = 0; i < *count; ++i) {
      std::optional<std::string> name = in.String();
      std::optional<std::string> value = name ? in.String() : std::nullopt;
      if (!value) return tl::unexpected(Malformed("a property runs past the end of the file"));
      h.properties.emplace_back(std::move(*name), std::move(*value));
    }
    std::optional<uint64_t> id = in.Fixed(8);
    if (!id) return tl::unexpected(Malformed("it ends before its trace id"));
    h.trace_id = *id;
  }
  if (h.anchor_format > 2 && (!in.Fixed(4) || !in.Fixed(4))) {
    return tl::unexpected(Malformed("it ends before its snapshot and thumbnail counts"));
  }
  if (h.anchor_format == kNewestAnchorFormat) {
    std::optional<uint64_t> end = in.Fixed(1);
    if (!end || *end != kEndOfFile) return tl::unexpected(Malformed("no end-of-file marker"));
  }
  if (h.chunk_size_events == 0 || h.chunk_size_definitions == 0) {
    return tl::unexpected(Malformed("a chunk size of 0"));
  }
  return h;
}

Result<AnchorHeader> ReadAnchorHeader(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    return MakeError(ErrorCode::kNotFound, "cannot read " + path + ": " + std::strerror(errno));
  }
  std::string bytes(kMostAnchorBytes + 1, '\0');
  in.read(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  bytes.resize(static_cast<size_t>(in.gcount()));
  if (bytes.size() > kMostAnchorBytes) {
    return MakeError(ErrorCode::kCorrupt,
                     path + ": larger than any OTF2 anchor file (over 1 MiB); not an anchor");
  }
  Result<AnchorHeader> header = ParseAnchorHeader(bytes);
  if (!header) {
    Error error = header.error();
    return tl::unexpected(error.AddContext(path));
  }
  if (header->version_major > OTF2_VERSION_MAJOR) {
    return MakeError(
        ErrorCode::kUnsupported,
        path + ": written by OTF2 " + std::to_string(header->version_major) + "." +
            std::to_string(header->version_minor) + "." + std::to_string(header->version_bugfix) +
            ", a major version newer than the OTF2 " + std::to_string(OTF2_VERSION_MAJOR) + "." +
            std::to_string(OTF2_VERSION_MINOR) + " library causeway reads it with");
  }
  return header;
}

}  // namespace cw::otf2
