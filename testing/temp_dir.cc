#include "testing/temp_dir.h"

#include <signal.h>
#include <unistd.h>
#include <cerrno>
#include <climits>
#include <cstdlib>
#include <filesystem>
#include <mutex>
#include <vector>

namespace cw::testing {

namespace {

// Test directories hold generated traces of up to tens of megabytes, and a
// full test run makes thousands of them: left behind, they fill the disk of
// the machine that runs the tests. Each process removes its own directories
// when it exits normally (CW_KEEP_TEST_DIRS=1 keeps them for inspection), and
// the first call sweeps away those of processes that died before they could.
class TempDirRegistry {
 public:
  ~TempDirRegistry() {
    if (getpid() != owner_ || KeepRequested()) return;
    std::error_code ignored;
    for (const std::filesystem::path& dir : dirs_) std::filesystem::remove_all(dir, ignored);
  }

  std::filesystem::path Make(const std::string& prefix) {
    std::lock_guard<std::mutex> lock(mu_);
    const std::filesystem::path base = std::filesystem::temp_directory_path() / "causeway-tests";
    if (!swept_) {
      swept_ = true;
      SweepOrphans(base);
    }
    std::filesystem::path dir =
        base / (prefix + "-" + std::to_string(owner_) + "-" + std::to_string(counter_++));
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir);
    dirs_.push_back(dir);
    return dir;
  }

 private:
  static bool KeepRequested() {
    const char* keep = std::getenv("CW_KEEP_TEST_DIRS");
    return keep != nullptr && *keep != '\0' && std::string(keep) != "0";
  }

  // Names end in "-<pid>-<counter>"; a directory whose process is gone is an
  // orphan (kill(pid, 0) fails with ESRCH only when no such process exists).
  static void SweepOrphans(const std::filesystem::path& base) {
    if (KeepRequested()) return;
    std::error_code ec;
    std::filesystem::directory_iterator it(base, ec);
    if (ec) return;
    for (const std::filesystem::directory_entry& entry : it) {
      const std::string name = entry.path().filename().string();
      const size_t last = name.rfind('-');
      if (last == std::string::npos || last == 0) continue;
      const size_t before = name.rfind('-', last - 1);
      if (before == std::string::npos) continue;
      const std::string pid_text = name.substr(before + 1, last - before - 1);
      if (pid_text.empty() || pid_text.find_first_not_of("0123456789") != std::string::npos) {
        continue;
      }
      const long pid = std::strtol(pid_text.c_str(), nullptr, 10);
      if (pid <= 0 || pid > INT_MAX) continue;
      if (kill(static_cast<pid_t>(pid), 0) == 0 || errno != ESRCH) continue;
      std::error_code ignored;
      std::filesystem::remove_all(entry.path(), ignored);
    }
  }

  const pid_t owner_ = getpid();
  std::mutex mu_;
  bool swept_ = false;
  int counter_ = 0;
  std::vector<std::filesystem::path> dirs_;
};

}  // namespace

std::string MakeTempDir(const std::string& prefix) {
  static TempDirRegistry registry;
  return registry.Make(prefix).string();
}

}  // namespace cw::testing
