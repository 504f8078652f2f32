#include "measure/export/early_export.h"

#include <fcntl.h>
#include <poll.h>
#include <sys/eventfd.h>
#include <sys/inotify.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <utility>
#include <vector>

#include "measure/raw/raw_format.h"

namespace cw::measure {
namespace {

namespace fs = std::filesystem;

// How often the watch looks for the mark without an event from inotify (a file system that
// sends none, as a network one written from another node).
constexpr int kLookEveryMs = 100;

bool Exists(const std::string& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0;
}

// DIR/raw's files, one line each: name, inode, size and modification time to the nanosecond, in
// name order. Two snapshots are equal only if no file was written, replaced, added or removed in
// between: a later write changes the size, or moves the time on unless it comes within the
// clock tick of the file's previous write, which a second program, started afterwards, cannot.
std::string Snapshot(const std::string& raw) {
  std::vector<std::string> lines;
  std::error_code ec;
  for (const fs::directory_entry& entry : fs::directory_iterator(raw, ec)) {
    struct stat st {};
    if (::stat(entry.path().c_str(), &st) != 0) continue;
    char line[96];
    std::snprintf(line, sizeof line, " %llu %lld %lld.%09ld\n",
                  static_cast<unsigned long long>(st.st_ino), static_cast<long long>(st.st_size),
                  static_cast<long long>(st.st_mtim.tv_sec), st.st_mtim.tv_nsec);
    lines.push_back(entry.path().filename().string() + line);
  }
  std::sort(lines.begin(), lines.end());
  std::string all;
  for (const std::string& line : lines) all += line;
  return ec ? std::string() : all;
}

// Writes the mark under another name first, so that the watch never sees a part of it.
void MarkComplete(const std::string& dir) {
  const std::string mark = RawCompletePath(dir);
  const std::string part = mark + ".part";
  const int fd = ::open(part.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) return;  // the launcher exports after the command then
  const bool written = ::write(fd, "complete\n", 9) == 9;
  ::close(fd);
  if (!written || ::rename(part.c_str(), mark.c_str()) != 0) ::unlink(part.c_str());
}

}  // namespace

void ExportOrMarkComplete(const std::string& dir) {
  const char* exporter = std::getenv("CAUSEWAY_EXPORT");
  if (exporter != nullptr && std::strcmp(exporter, "launcher") == 0) {
    MarkComplete(dir);
    return;
  }
  Result<ExportSummary> exported = ExportRawTrace(dir);
  if (!exported.has_value()) {
    std::fprintf(stderr, "causeway: writing the OTF2 trace failed: %s\n",
                 exported.error().message().c_str());
  }
}

EarlyExport::EarlyExport(std::string dir) : dir_(std::move(dir)) {
  std::error_code ec;
  fs::create_directories(dir_ + "/raw", ec);
  stop_fd_ = ::eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
  if (stop_fd_ >= 0) watcher_ = std::thread([this] { Watch(); });
}

EarlyExport::~EarlyExport() {
  Stop();
  if (stop_fd_ >= 0) ::close(stop_fd_);
}

void EarlyExport::Stop() {
  if (!watcher_.joinable()) return;
  stopping_.store(true);
  // Wakes the watch at once; were the write to fail, the flag ends it at its next look.
  const uint64_t one = 1;
  [[maybe_unused]] const ssize_t written = ::write(stop_fd_, &one, sizeof one);
  watcher_.join();
}

void EarlyExport::Watch() {
  const std::string raw = dir_ + "/raw";
  const std::string mark = RawCompletePath(dir_);
  const int events = ::inotify_init1(IN_CLOEXEC | IN_NONBLOCK);
  if (events >= 0) ::inotify_add_watch(events, raw.c_str(), IN_MOVED_TO | IN_CREATE);
  bool complete = false;
  for (bool stopped = false; !stopped;) {
    // Looked for after the watch is set, so that a mark written before it is not missed, and
    // once more when the command has ended: a mark is as good then as it was before.
    if (Exists(mark)) {
      complete = true;
      break;
    }
    pollfd fds[2] = {{stop_fd_, POLLIN, 0}, {events, POLLIN, 0}};
    const int ready = ::poll(fds, events >= 0 ? 2 : 1, kLookEveryMs);
    if (stopping_.load() || (ready > 0 && (fds[0].revents & POLLIN) != 0)) {
      stopped = true;
      complete = Exists(mark);
    }
    if (ready > 0 && (fds[1].revents & POLLIN) != 0) {
      alignas(inotify_event) char buffer[4096];
      while (::read(events, buffer, sizeof buffer) > 0) {
      }
    }
  }
  if (events >= 0) ::close(events);
  if (!complete) return;
  files_before_ = Snapshot(raw);
  began_ = std::chrono::steady_clock::now();
  result_.emplace(ExportRawTrace(dir_));
  ended_ = std::chrono::steady_clock::now();
}

std::optional<EarlyExport::Outcome> EarlyExport::Finish() {
  const auto command_end = std::chrono::steady_clock::now();
  Stop();
  if (!result_.has_value() || !result_->has_value()) return std::nullopt;
  if (files_before_.empty() || Snapshot(dir_ + "/raw") != files_before_) return std::nullopt;
  Outcome outcome;
  outcome.summary = std::move(**result_);
  outcome.seconds = std::chrono::duration<double>(ended_ - began_).count();
  const auto overlap_end = std::min(command_end, ended_);
  outcome.before_end_seconds =
      overlap_end > began_ ? std::chrono::duration<double>(overlap_end - began_).count() : 0.0;
  return outcome;
}

}  // namespace cw::measure
