#include "tests/cli/damaged_input_support.h"

#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

#include <gtest/gtest.h>

#include "tests/common/paths.h"

namespace cw::test {

namespace fs = std::filesystem;

namespace {

// The address-space limit of a release run; AddressSanitizer reserves terabytes of address
// space, so sanitized builds rely on the measured peak alone.
// AddressSanitizer's shadow memory and quarantine add a few hundred megabytes to every run, and
// its unoptimised build runs 20 times slower (damaged_input_support.h).
// A hang is what the timeout catches: 60 s, 3 s in the release build for the 30,000-deep traces
// of damaged_traces_test.cc. AddressSanitizer's build takes about 20 times as long, near 60 s when
// two such tests share the 2 cores: it gets 300 s.
#if CW_SANITIZED
constexpr const char* kLimit = "";
constexpr const char* kTimeout = "timeout 300 ";
#else
constexpr const char* kLimit = "ulimit -v 8000000; ";
constexpr const char* kTimeout = "timeout 60 ";
#endif

}  // namespace

// Runs `causeway ARGS` (ARGS already quoted for the shell) under kTimeout.
Outcome Causeway(const std::string& args) {
  Outcome o;
  const std::string command = std::string("sh -c '") + kLimit +
                              "exec /usr/bin/time -f peak_kib=%M " + kTimeout + CausewayBinary() +
                              " " + args + "'";
  o.code = RunCommand(command, &o.out);
  std::smatch m;
  if (std::regex_search(o.out, m, std::regex("peak_kib=([0-9]+)"))) {
    o.peak_kib = std::stoull(m[1].str());
  }
  return o;
}

// Neither crashed nor hung: an exit code causeway chose (timeout exits 124, a signal > 128).
void ExpectNoCrash(const Outcome& o) {
  EXPECT_LT(o.code, 100) << o.out;
  EXPECT_EQ(o.out.find("terminated by signal"), std::string::npos) << o.out;
  EXPECT_EQ(o.out.find("AddressSanitizer"), std::string::npos) << o.out;
  EXPECT_EQ(o.out.find("runtime error"), std::string::npos) << o.out;
}

void ExpectBadInput(const Outcome& o, const std::vector<std::string>& says) {
  ExpectNoCrash(o);
  EXPECT_EQ(o.code, 2) << o.out;
  for (const std::string& s : says)
    EXPECT_NE(o.out.find(s), std::string::npos) << s << "\n" << o.out;
}

std::string Copy(const std::string& shared_trace, const std::string& name) {
  const std::string dir = testing::MakeTempDir(name) + "/trace";
  fs::copy(RealTrace(shared_trace), dir, fs::copy_options::recursive);
  for (const fs::directory_entry& e : fs::recursive_directory_iterator(dir)) {
    fs::permissions(e.path(), fs::perms::owner_write, fs::perm_options::add);
  }
  return dir;
}

std::string ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

void WriteFile(const std::string& path, const std::string& bytes) {
  std::ofstream(path, std::ios::binary | std::ios::trunc) << bytes;
}

std::string Out(const std::string& name) { return testing::MakeTempDir(name); }

// Two ranks, a late sender: rank 0 sends at 5 s what rank 1 waits for from 1 s.
testing::Scenario LateSender(uint64_t ticks_per_second) {
  testing::Scenario s(2, ticks_per_second);
  const uint64_t k = ticks_per_second == 0 ? 1 : ticks_per_second;
  s.rank(0).Enter(0, "main").Send(5 * k, 6 * k, 1, 0, 1024).Leave(10 * k, "main");
  s.rank(1).Enter(0, "main").Recv(1 * k, 6 * k, 0, 0, 1024).Leave(10 * k, "main");
  return s;
}

}  // namespace cw::test
