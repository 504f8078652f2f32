#include "otf2/anchor.h"

#include <filesystem>
#include <fstream>

#include <gtest/gtest.h>

#include "testing/scenario.h"
#include "tests/common/paths.h"

namespace cw::otf2 {
namespace {

namespace fs = std::filesystem;

std::string SmallArchive() {
  testing::Scenario s(1);
  s.rank(0).Call(0, 1, "main");
  return s.WriteOrDie(testing::MakeTempDir("anchor"));
}

TEST(AnchorTest, AcceptsTheAnchorOrItsDirectory) {
  std::string anchor = SmallArchive();
  Result<std::string> by_file = ResolveAnchor(anchor);
  ASSERT_TRUE(by_file) << by_file.error().message();
  EXPECT_EQ(*by_file, anchor);
  Result<std::string> by_dir = ResolveAnchor(fs::path(anchor).parent_path().string());
  ASSERT_TRUE(by_dir) << by_dir.error().message();
  EXPECT_EQ(fs::path(*by_dir).filename(), "traces.otf2");
}

TEST(AnchorTest, AcceptsAnchorsWithOtherNames) {
  std::string dir = testing::MakeTempDir("renamed");
  testing::Scenario s(1);
  s.rank(0).Call(0, 1, "main");
  std::string anchor = s.WriteOrDie(dir);
  // Archives keep their files under <name>/ next to <name>.otf2; renaming both is a valid archive.
  fs::rename(dir + "/traces.otf2", dir + "/run42.otf2");
  fs::rename(dir + "/traces.def", dir + "/run42.def");
  fs::rename(dir + "/traces", dir + "/run42");
  Result<std::string> resolved = ResolveAnchor(dir);
  ASSERT_TRUE(resolved) << resolved.error().message();
  EXPECT_EQ(fs::path(*resolved).filename(), "run42.otf2");
}

TEST(AnchorTest, MissingPathIsNotFound) {
  Result<std::string> r = ResolveAnchor("/nonexistent/causeway/trace");
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code(), ErrorCode::kNotFound);
  EXPECT_NE(r.error().message().find("/nonexistent/causeway/trace"), std::string::npos);
}

TEST(AnchorTest, DirectoryWithoutAnchorIsNotFound) {
  std::string dir = testing::MakeTempDir("empty");
  std::ofstream(dir + "/notes.txt") << "hello";
  Result<std::string> r = ResolveAnchor(dir);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code(), ErrorCode::kNotFound);
  EXPECT_NE(r.error().message().find("no OTF2 anchor"), std::string::npos);
}

TEST(AnchorTest, FileThatIsNotOtf2IsCorrupt) {
  std::string dir = testing::MakeTempDir("nototf2");
  std::ofstream(dir + "/traces.otf2") << "this is not a trace\n";
  Result<std::string> r = ResolveAnchor(dir + "/traces.otf2");
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code(), ErrorCode::kCorrupt);
  EXPECT_NE(r.error().message().find("not an OTF2 anchor"), std::string::npos);
}

TEST(AnchorTest, RealTraceAnchorsHaveTheSignature) {
  EXPECT_TRUE(LooksLikeAnchor(test::RealTrace("4_mpi_ls_barr") + "/traces.otf2"));
  EXPECT_FALSE(LooksLikeAnchor(test::RealTrace("4_mpi_ls_barr") + "/scorep.cfg"));
}

}  // namespace
}  // namespace cw::otf2
