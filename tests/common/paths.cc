#include "tests/common/paths.h"

#include <algorithm>
#include <filesystem>

#include <sys/wait.h>
#include <array>
#include <cstdio>
#include <cstdlib>

namespace cw::test {

std::string SharedDir() { return CW_SHARED_DIR; }

std::string RealTrace(const std::string& name) { return SharedDir() + "/traces/" + name; }

std::string ScalascaResult(const std::string& name, const std::string& file) {
  return SharedDir() + "/peer-results/scalasca/" + name + "/" + file;
}

std::string CausewayBinary() { return std::string(CW_BINARY_DIR) + "/bin/causeway"; }
std::string ArtifactDir(const std::string& what) {
  std::string dir = std::string(CW_BINARY_DIR) + "/test-artifacts/" + what;
  std::filesystem::create_directories(dir);
  return dir;
}
std::string TestProgram(const std::string& name) {
  return std::string(CW_BINARY_DIR) + "/tests/programs/" + name;
}

std::vector<std::string> RealTraceNames() {
  std::vector<std::string> names;
  for (const std::filesystem::directory_entry& e :
       std::filesystem::directory_iterator(SharedDir() + "/traces")) {
    if (std::filesystem::exists(e.path() / "traces.otf2")) {
      names.push_back(e.path().filename().string());
    }
  }
  std::sort(names.begin(), names.end());
  return names;
}

namespace {

// A sanitizer build's MPI tests run uninstrumented programs with the sanitized tracer preloaded:
// the sanitizer's runtime must be loaded first (causeway trace puts the tracer before the
// preloads it finds, hence no link-order check), and Open MPI's allocations still held at exit
// are not causeway's leaks. mpirun and oshrun are found first in sanitized_launchers/, which run
// the real launcher unsanitized and hand the preloads to the ranks alone (the script says why).
void PreloadSanitizerRuntime() {
  static const bool done = [] {
    const char* runtime = std::getenv("CW_SANITIZER_RUNTIME");
    if (runtime != nullptr && *runtime != '\0') {
      setenv("LD_PRELOAD", runtime, 1);
      setenv("ASAN_OPTIONS", "detect_leaks=0:verify_asan_link_order=0", 1);
      const char* path = std::getenv("PATH");
      setenv("PATH", (std::string(CW_SANITIZED_LAUNCHERS) + ":" + (path ? path : "")).c_str(), 1);
      // oshmem maps its symmetric heap at 0xff000000 by default, inside AddressSanitizer's
      // shadow gap: moved into the application's high memory.
      setenv("OMPI_MCA_sshmem_base_start_address", "0x600000000000", 1);
    }
    return true;
  }();
  (void)done;
}

}  // namespace

int RunCommand(const std::string& command, std::string* output) {
  PreloadSanitizerRuntime();
  std::string full = command + " 2>&1";
  FILE* pipe = popen(full.c_str(), "r");
  if (pipe == nullptr) return -1;
  std::array<char, 4096> buffer;
  std::string text;
  size_t n;
  while ((n = fread(buffer.data(), 1, buffer.size(), pipe)) > 0) text.append(buffer.data(), n);
  int status = pclose(pipe);
  if (output != nullptr) *output = std::move(text);
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

}  // namespace cw::test
