// Damaged inputs around the trace rather than in its records: missing, unreadable, foreign or
// swapped files, paths that are no traces, and definitions and events cut at many offsets.
// Each gets a clear message naming the file and the problem, never a crash or a hang
// (damaged_traces_test.cc says how every run is bounded).
#include <sys/stat.h>
#include <unistd.h>

#include <cstdint>
#include <filesystem>
#include <string>

#include <nlohmann/json.hpp>

#include <gtest/gtest.h>

#include "tests/cli/damaged_input_support.h"
#include "tests/common/paths.h"

namespace cw::test {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

// Item 14: a deleted local definition file is named (every message went unmatched silently).
TEST(DamagedTracesTest, MissingLocalDefinitionFileIsNamed) {
  const std::string dir = Copy("ping-pong-otf2", "damaged-localdef");
  fs::remove(dir + "/traces/1.def");
  const std::string out = Out("localdef-out");
  const Outcome o = Causeway("analyze -q -o " + out + " " + dir);
  ExpectNoCrash(o);
  const std::string summary = ReadFile(out + "/summary.txt");
  EXPECT_NE(summary.find("otf2.local_definitions_missing"), std::string::npos) << summary;
  EXPECT_NE(summary.find("location 1"), std::string::npos) << summary;
}

// Item 14 and issue 20's list: what is not a trace at all exits 2 and says what it is.
TEST(DamagedTracesTest, PathsThatAreNotTraces) {
  ExpectBadInput(Causeway("info /dev/zero"), {"/dev/zero is a character device"});
  ExpectBadInput(Causeway("analyze -q /dev/null"), {"/dev/null is a character device"});
  const std::string dir = testing::MakeTempDir("damaged-paths");
  ASSERT_EQ(::mkfifo((dir + "/fifo.otf2").c_str(), 0600), 0);
  ExpectBadInput(Causeway("info " + dir + "/fifo.otf2"), {"is a FIFO"});
  fs::create_symlink(dir + "/loop", dir + "/loop");
  ExpectBadInput(Causeway("info " + dir + "/loop"), {"Too many levels of symbolic links"});
  // A file given as a directory, and an archive's per-location directory given as the trace.
  const std::string anchor = LateSender().WriteOrDie(dir + "/t");
  ExpectBadInput(Causeway("info " + anchor + "/"), {"Not a directory"});
  ExpectBadInput(Causeway("info " + dir + "/t/traces"), {"per-location directory"});
}

// The command that runs causeway as the unprivileged user `nobody`, from `dir`. The sanitizer
// build's causeway loads the components from the build tree's lib/ (CW_SHARED_COMPONENTS),
// which `nobody` cannot open in a clone under a private directory (mktemp -d makes it 0700):
// the binary and those libraries are linked (or copied) into `dir`, which the test opens to
// every user, and found there first.
std::string CausewayAsNobody(const std::string& dir) {
  fs::create_directories(dir + "/bin");
  fs::create_directories(dir + "/lib");
  const auto link_or_copy = [](const fs::path& from, const fs::path& to) {
    std::error_code ec;
    fs::create_hard_link(from, to, ec);
    if (ec) fs::copy_file(from, to, fs::copy_options::overwrite_existing);
  };
  link_or_copy(CausewayBinary(), dir + "/bin/causeway");
  const fs::path libraries = fs::path(CausewayBinary()).parent_path().parent_path() / "lib";
  for (const fs::directory_entry& e : fs::directory_iterator(libraries)) {
    if (e.path().extension() == ".so")
      link_or_copy(e.path(), dir + "/lib/" + e.path().filename().string());
  }
  return "LD_LIBRARY_PATH=" + dir + "/lib setpriv --reuid=65534 --regid=65534 --clear-groups " +
         dir + "/bin/causeway";
}

// Item 14: unreadable files say "Permission denied" (checked as an unprivileged user: root
// reads every file).
TEST(DamagedTracesTest, UnreadableFilesSayPermissionDenied) {
  const std::string dir = testing::MakeTempDir("damaged-perm");
  const std::string anchor = LateSender().WriteOrDie(dir + "/t");
  const std::string causeway_as_nobody = CausewayAsNobody(dir + "/tool");
  for (fs::path p = dir; p != p.root_path(); p = p.parent_path()) {
    fs::permissions(p, fs::perms::others_read | fs::perms::others_exec, fs::perm_options::add);
  }
  for (const fs::directory_entry& e : fs::recursive_directory_iterator(dir)) {
    fs::permissions(e.path(), fs::perms::others_read | fs::perms::others_exec,
                    fs::perm_options::add);
  }
  std::string out;
  for (const char* file : {"/t/traces.def", "/t/traces/1.evt", "/t/traces.otf2"}) {
    SCOPED_TRACE(file);
    const std::string path = dir + file;
    fs::permissions(path, fs::perms::others_read, fs::perm_options::remove);
    const int code = RunCommand(causeway_as_nobody + " info " + anchor, &out);
    EXPECT_EQ(code, 2) << out;
    EXPECT_NE(out.find("Permission denied"), std::string::npos) << out;
    EXPECT_NE(out.find(fs::path(path).filename().string()), std::string::npos) << out;
    fs::permissions(path, fs::perms::others_read, fs::perm_options::add);
  }
}

// Item 14: an anchor of another trace, and one of OTF2 9.9.9.
TEST(DamagedTracesTest, AnchorsThatDoNotBelong) {
  const std::string dir = Copy("4_mpi_ls_barr", "damaged-foreign");
  fs::copy_file(RealTrace("ping-pong-otf2") + "/traces.otf2", dir + "/traces.otf2",
                fs::copy_options::overwrite_existing);
  ExpectBadInput(Causeway("info " + dir), {"belong to different traces"});
  const std::string future = Copy("ping-pong-otf2", "damaged-future");
  std::string anchor = ReadFile(future + "/traces.otf2");
  const size_t version = anchor.find("OTF2") + 5 + 2;  // after the anchor and trace formats
  anchor[version] = anchor[version + 1] = anchor[version + 2] = 9;
  WriteFile(future + "/traces.otf2", anchor);
  ExpectBadInput(Causeway("info " + future), {"written by OTF2 9.9.9"});
}

// Issue 20's list: truncated definition and event files at several offsets, event files swapped
// between locations, 10^5 regions, region names of 1 MB and with newlines.
TEST(DamagedTracesTest, TruncatedDefinitionsAndEventsAtManyOffsets) {
  const std::string dir = Copy("4_mpi_ls_barr", "damaged-cuts");
  for (const char* name : {"/traces.def", "/traces/0.def", "/traces/2.evt"}) {
    const std::string file = name;
    const std::string bytes = ReadFile(dir + file);
    for (size_t cut = 0; cut < bytes.size(); cut += std::max<size_t>(1, bytes.size() / 7)) {
      SCOPED_TRACE(file + " cut at " + std::to_string(cut));
      WriteFile(dir + file, bytes.substr(0, cut));
      const Outcome o = Causeway("analyze -q -o " + Out("cuts-out") + " " + dir);
      ExpectNoCrash(o);
      if (o.code != 0) {
        EXPECT_EQ(o.code, 2) << o.out;
      }
      const Outcome p = Causeway("analyze -q --partial -o " + Out("cuts-out") + " " + dir);
      ExpectNoCrash(p);
    }
    WriteFile(dir + file, bytes);
  }
}

TEST(DamagedTracesTest, EventFilesSwappedBetweenLocations) {
  const std::string dir = Copy("4_mpi_ls_barr", "damaged-swap");
  fs::rename(dir + "/traces/0.evt", dir + "/traces/tmp");
  fs::rename(dir + "/traces/3.evt", dir + "/traces/0.evt");
  fs::rename(dir + "/traces/tmp", dir + "/traces/3.evt");
  const std::string out = Out("swap-out");
  const Outcome o = Causeway("analyze -q -o " + out + " " + dir);
  ExpectNoCrash(o);
  if (o.code == 0) {
    EXPECT_EQ(ReadFile(out + "/summary.txt").find("Trace problems: none"), std::string::npos);
  } else {
    EXPECT_EQ(o.code, 2) << o.out;
    EXPECT_NE(o.out.find("location"), std::string::npos) << o.out;
  }
}

// 10^5 regions (10^4 under the sanitizers), each a call path, and a region name of 1 MB with a
// newline: analysed, and the newline does not start a line of the summary.
TEST(DamagedTracesTest, ManyAndHugeRegionNames) {
  testing::Scenario s(2);
  s.rank(0).Enter(0, "main");
  for (uint64_t i = 0; i < kManyRegions; ++i) {
    s.rank(0).Call(1 + 2 * i, 2 + 2 * i, "f" + std::to_string(i));
  }
  s.rank(0).Call(300000, 300001, std::string(1 << 20, 'x') + "\nsecond line");
  s.rank(0).Leave(400000, "main");
  s.rank(1).Enter(0, "main").Leave(400000, "main");
  const std::string anchor = s.WriteOrDie(testing::MakeTempDir("damaged-regions"));
  const std::string out = Out("regions-out");
  const Outcome o = Causeway("analyze -q -o " + out + " " + anchor);
  ExpectNoCrash(o);
  EXPECT_EQ(o.code, 0) << o.out.substr(0, 2000);
  const std::string summary = ReadFile(out + "/summary.txt");
  EXPECT_EQ(summary.find("\nsecond line"), std::string::npos);
}

}  // namespace
}  // namespace cw::test
