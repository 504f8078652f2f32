#include "tag/online/snapshots.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>

#include "measure/tag_segment/segment_snapshot.h"

namespace cw::tag {
namespace {

namespace fs = std::filesystem;
namespace seg = measure::tag_segment;

seg::SnapshotOutcome CopyFile(const fs::path& from, std::string& out) {
  const int fd = ::open(from.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return seg::SnapshotOutcome::kInvalid;
  struct stat st;
  void* mapped = MAP_FAILED;
  if (::fstat(fd, &st) == 0 && st.st_size >= static_cast<off_t>(seg::kHeaderBytes)) {
    mapped = ::mmap(nullptr, static_cast<size_t>(st.st_size), PROT_READ, MAP_SHARED, fd, 0);
  }
  ::close(fd);
  if (mapped == MAP_FAILED) return seg::SnapshotOutcome::kInvalid;
  const seg::SnapshotOutcome outcome =
      seg::CopySnapshot(mapped, static_cast<uint64_t>(st.st_size), out);
  ::munmap(mapped, static_cast<size_t>(st.st_size));
  return outcome;
}

}  // namespace

SnapshotSummary TakeSnapshot(const std::string& tag_dir, int number, double seconds) {
  SnapshotSummary summary;
  const fs::path where = fs::path(tag_dir) / "snapshots" / std::to_string(number);
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(tag_dir, ec)) {
    const std::string name = entry.path().filename().string();
    if (name.rfind("rank-", 0) != 0 || entry.path().extension() != ".seg") continue;
    std::string copy;
    switch (CopyFile(entry.path(), copy)) {
      case seg::SnapshotOutcome::kCopied: {
        fs::create_directories(where, ec);
        std::ofstream out(where / name, std::ios::binary);
        out.write(copy.data(), static_cast<std::streamsize>(copy.size()));
        ++summary.copied;
        break;
      }
      case seg::SnapshotOutcome::kBusy:
        ++summary.busy;
        break;
      default:
        ++summary.invalid;
        break;
    }
  }
  if (summary.copied > 0) std::ofstream(where / "time") << seconds << "\n";
  return summary;
}

}  // namespace cw::tag
