#include "tests/common/paths.h"

#include <sys/wait.h>
#include <array>
#include <cstdio>

namespace cw::test {

std::string SharedDir() { return CW_SHARED_DIR; }

std::string RealTrace(const std::string& name) { return SharedDir() + "/traces/" + name; }

std::string ScalascaResult(const std::string& name, const std::string& file) {
  return SharedDir() + "/peer-results/scalasca/" + name + "/" + file;
}

std::string CausewayBinary() { return std::string(CW_BINARY_DIR) + "/bin/causeway"; }
std::string TestProgram(const std::string& name) {
  return std::string(CW_BINARY_DIR) + "/tests/programs/" + name;
}

int RunCommand(const std::string& command, std::string* output) {
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
