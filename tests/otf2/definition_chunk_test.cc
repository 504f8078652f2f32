// The definition chunk causeway's writers choose (ArchiveWriter::DefinitionChunkBytes): as
// small as the largest group allows, since libotf2 fills the rest of every writer's last chunk,
// with strings longer than a chunk shortened to fit and groups too large for it refused.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "otf2/trace_reader.h"
#include "otf2_writer/archive_writer.h"
#include "testing/scenario.h"

namespace cw::otf2 {
namespace {

using otf2_writer::ArchiveWriter;

constexpr uint64_t kKiB = 1024;

TEST(DefinitionChunkTest, TheChunkHoldsTheLargestGroupAtNineBytesAMember) {
  // 9 bytes a member and 64 KiB besides, rounded up to a power of two within libotf2's bounds
  // (256 KiB to 16 MiB).
  EXPECT_EQ(ArchiveWriter::DefinitionChunkBytes(0), 256 * kKiB);
  EXPECT_EQ(ArchiveWriter::DefinitionChunkBytes(4), 256 * kKiB);
  // 9 * 21,845 + 65,536 = 262,141: still 256 KiB; one member more needs 262,150.
  EXPECT_EQ(ArchiveWriter::DefinitionChunkBytes(21845), 256 * kKiB);
  EXPECT_EQ(ArchiveWriter::DefinitionChunkBytes(21846), 512 * kKiB);
  // 9 * 1,000,000 + 65,536 = 9,065,536: 16 MiB.
  EXPECT_EQ(ArchiveWriter::DefinitionChunkBytes(1'000'000), 16 * kKiB * kKiB);
  EXPECT_EQ(ArchiveWriter::DefinitionChunkBytes(100'000'000), 16 * kKiB * kKiB);  // the bound
}

// One rank with region `name` and a group of `members` members, in 256 KiB definition chunks.
Result<std::string> WriteWithSmallChunks(const std::string& dir, const std::string& name,
                                         uint64_t members) {
  ArchiveWriter::Buffering buffering;
  buffering.definition_chunk_bytes = 256 * kKiB;
  CW_ASSIGN_OR_RETURN(auto archive, ArchiveWriter::Create(dir, "traces", "causeway", buffering));
  ArchiveWriter& a = *archive;
  const uint32_t node = a.DefineSystemTreeNode("node", "node", OTF2_UNDEFINED_SYSTEM_TREE_NODE);
  const uint64_t loc = a.DefineLocation("Master thread", a.DefineLocationGroup("MPI Rank 0", node),
                                        OTF2_LOCATION_TYPE_CPU_THREAD);
  a.DefineMpiWorld({loc});
  std::vector<uint64_t> ranks(members);
  for (uint64_t i = 0; i < members; ++i) ranks[i] = i;
  a.DefineGroup("many", OTF2_GROUP_TYPE_COMM_GROUP, OTF2_PARADIGM_MPI, ranks);
  const uint32_t region = a.DefineRegion(name, OTF2_REGION_ROLE_FUNCTION, OTF2_PARADIGM_USER);
  a.Events(loc).Enter(10, region);
  a.Events(loc).Leave(20, region);
  CW_RETURN_IF_ERROR(a.Close(1'000'000'000));
  return a.anchor_path();
}

TEST(DefinitionChunkTest, ALongNameIsShortenedToFitAtACharacterBoundary) {
  // 150,001 two-byte characters (300,002 bytes) cannot fit a 262,144-byte chunk: the name comes
  // back as its first 262,144 - 256 = 261,888 bytes, which end within no character (261,888 is
  // even), so all 130,944 characters are whole.
  std::string name;
  for (int i = 0; i < 150'001; ++i) name += "\xC3\xA9";  // e with acute accent
  Result<std::string> anchor =
      WriteWithSmallChunks(testing::MakeTempDir("definition-chunk-name"), "x" + name, 20'000);
  ASSERT_TRUE(anchor) << anchor.error().message();
  Result<trace::Trace> t = ReadTrace(*anchor, ReadOptions{});
  ASSERT_TRUE(t) << t.error().message();
  std::string read;
  for (const trace::Region& r : t->defs.regions) {
    const std::string& n = t->defs.strings[r.name];
    if (!n.empty() && n[0] == 'x') read = n;
  }
  // "x" and 130,943 whole characters: 261,887 bytes; the half character left at the cut goes.
  EXPECT_EQ(read.size(), 261'887u);
  EXPECT_TRUE(read == ("x" + name).substr(0, 261'887));  // (not printed: 256 KiB)
  // The 20,000-member group (at most 180,256 bytes) is whole.
  bool found = false;
  for (const trace::Group& g : t->defs.groups) {
    if (g.members.size() == 20'000) found = g.members.back() == 19'999;
  }
  EXPECT_TRUE(found);
}

TEST(DefinitionChunkTest, ALongNameOfNoUtf8IsCutAtTheLimit) {
  // 300,000 continuation bytes hold no character boundary to back off to: the first 261,888
  // bytes (262,144 - 256) are kept, rather than nothing or a record libotf2 refuses.
  const std::string name = "x" + std::string(300'000, '\x80');
  Result<std::string> anchor =
      WriteWithSmallChunks(testing::MakeTempDir("definition-chunk-bytes"), name, 4);
  ASSERT_TRUE(anchor) << anchor.error().message();
  Result<trace::Trace> t = ReadTrace(*anchor, ReadOptions{});
  ASSERT_TRUE(t) << t.error().message();
  size_t longest = 0;
  for (const trace::Region& r : t->defs.regions)
    longest = std::max(longest, t->defs.strings[r.name].size());
  // (Backing off from the limit would reach the name's first byte and keep nothing.)
  EXPECT_EQ(longest, 261'888u);
}

TEST(DefinitionChunkTest, AGroupLargerThanTheChunkIsAnError) {
  // 30,000 members at up to 9 bytes need more than 256 KiB: refused with a message, not written
  // as a broken record.
  Result<std::string> anchor =
      WriteWithSmallChunks(testing::MakeTempDir("definition-chunk-group"), "main", 30'000);
  ASSERT_FALSE(anchor);
  EXPECT_NE(anchor.error().message().find("30000 members"), std::string::npos)
      << anchor.error().message();
}

}  // namespace
}  // namespace cw::otf2
