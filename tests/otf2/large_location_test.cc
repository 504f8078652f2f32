// A location whose event file is larger than libotf2's chunk memory (128 chunks) comes back
// whole: causeway's writer leaves out the BUFFER_FLUSH records libotf2 would insert there, and
// the readers take such records from other writers without counting them against the events
// the definitions declare.
#include <filesystem>

#include <gtest/gtest.h>

#include "otf2/location_stream.h"
#include "otf2/reader_regions.h"
#include "otf2/trace_reader.h"
#include "otf2_writer/archive_writer.h"
#include "testing/scenario.h"

namespace cw::otf2 {
namespace {

using otf2_writer::ArchiveWriter;

struct Written {
  std::string anchor;
  uint64_t events = 0;
  uintmax_t file_bytes = 0;
};

// One rank: main around `iterations` of f { MPI_Send to itself }, each send with a large tag and
// size so that a record takes many bytes: 3 events an iteration, plus main's Enter and Leave.
Written WriteOneRank(const std::string& dir, uint64_t iterations,
                     const ArchiveWriter::Buffering& buffering) {
  Written w;
  auto archive = ArchiveWriter::Create(dir, "traces", "causeway", buffering);
  EXPECT_TRUE(archive) << archive.error().message();
  if (!archive) return w;
  ArchiveWriter& a = **archive;
  const uint32_t node = a.DefineSystemTreeNode("node", "node", OTF2_UNDEFINED_SYSTEM_TREE_NODE);
  const uint32_t group = a.DefineLocationGroup("MPI Rank 0", node);
  const uint64_t loc = a.DefineLocation("Master thread", group, OTF2_LOCATION_TYPE_CPU_THREAD);
  const uint32_t world = a.DefineMpiWorld({loc});
  const uint32_t main = a.DefineRegion("main", OTF2_REGION_ROLE_FUNCTION, OTF2_PARADIGM_USER, "");
  const uint32_t f = a.DefineRegion("f", OTF2_REGION_ROLE_FUNCTION, OTF2_PARADIGM_USER, "");
  const uint32_t send =
      a.DefineRegion("MPI_Send", OTF2_REGION_ROLE_POINT2POINT, OTF2_PARADIGM_MPI, "");
  otf2_writer::EventWriter& ev = a.Events(loc);
  uint64_t t = 1000;
  ev.Enter(t++, main);
  for (uint64_t i = 0; i < iterations; ++i) {
    ev.Enter(t++, f);
    ev.Enter(t++, send);
    ev.MpiSend(t, 0, world, 0x7FFFFFF0u, (uint64_t{1} << 40) + i);
    ev.Leave(t++, send);
    ev.Leave(t++, f);
  }
  ev.Leave(t++, main);
  w.events = 2 + 5 * iterations;
  const Status closed = a.Close(1'000'000'000);
  EXPECT_TRUE(closed.has_value()) << closed.error().message();
  w.anchor = a.anchor_path();
  w.file_bytes = std::filesystem::file_size(dir + "/traces/0.evt");
  return w;
}

uint64_t CountKind(const trace::LocationEvents& events, trace::EventKind kind) {
  uint64_t n = 0;
  for (trace::EventKind k : events.kinds()) n += k == kind ? 1 : 0;
  return n;
}

// 2.2 million iterations at about 64 bytes each: about 141 MB in one event file, past the 128
// MiB (128 chunks of 1 MiB) at which libotf2 writes its chunks out.
constexpr uint64_t kIterations = 2'200'000;
TEST(LargeLocationTest, CausewaysWriterIsReadBackWholeAboveLibotf2sChunkMemory) {
  const Written w =
      WriteOneRank(testing::MakeTempDir("large-location"), kIterations, ArchiveWriter::Buffering{});
  ASSERT_FALSE(w.anchor.empty());
  ASSERT_GT(w.file_bytes, uintmax_t{128} << 20) << "the file must pass 128 MiB to test this";
  Result<trace::Trace> t = ReadTrace(w.anchor, ReadOptions{});
  ASSERT_TRUE(t) << t.error().message();
  EXPECT_EQ(t->defs.locations[0].event_count, w.events);
  EXPECT_EQ(t->location(0).size(), w.events);
  EXPECT_EQ(CountKind(t->location(0), trace::EventKind::kBufferFlush), 0u);
  EXPECT_EQ(CountKind(t->location(0), trace::EventKind::kMpiSend), kIterations);
}

// Another writer's archive (BUFFER_FLUSH records whenever libotf2's chunk memory
// fills, none of them in the declared count): every record comes back, through the whole-trace
// reader and the streamed one, and nothing is called damaged.
TEST(LargeLocationTest, BufferFlushRecordsOfOtherWritersAreNotCountedAgainstTheEvents) {
  ArchiveWriter::Buffering other;
  other.flush_records = true;
  other.flush_record_time = 1500;
  const Written w = WriteOneRank(testing::MakeTempDir("flush-records"), kIterations, other);
  ASSERT_FALSE(w.anchor.empty());
  Result<trace::Trace> t = ReadTrace(w.anchor, ReadOptions{});
  ASSERT_TRUE(t) << t.error().message();
  EXPECT_EQ(t->defs.locations[0].event_count, w.events);
  const uint64_t flushes = CountKind(t->location(0), trace::EventKind::kBufferFlush);
  ASSERT_GT(flushes, 0u) << "the archive must hold flush records to test this (" << w.file_bytes
                         << " bytes)";
  EXPECT_EQ(t->location(0).size(), w.events + flushes);
  EXPECT_EQ(CountKind(t->location(0), trace::EventKind::kMpiSend), kIterations);

  Diagnostics problems;
  Result<trace::Definitions> defs = ReadDefinitions(w.anchor, problems);
  ASSERT_TRUE(defs) << defs.error().message();
  const ReaderRegions regions = AddReaderRegions(*defs);
  auto stream = LocationStream::Open(w.anchor, *defs, regions, 0);
  ASSERT_TRUE(stream) << stream.error().message();
  uint64_t streamed = 0, streamed_flushes = 0;
  while (!(*stream)->done()) {
    LocationStream::Segment s = (*stream)->Next(100'000);
    streamed += s.events.size() - s.resumed;
    streamed_flushes += CountKind(s.events, trace::EventKind::kBufferFlush);
  }
  EXPECT_FALSE((*stream)->error().has_value()) << (*stream)->error()->message();
  EXPECT_EQ(streamed_flushes, flushes);
  EXPECT_EQ(streamed, w.events + flushes);
}

}  // namespace
}  // namespace cw::otf2
