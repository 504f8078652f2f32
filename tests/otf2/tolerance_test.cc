// What real traces contain and the reader must tolerate: definitions written twice, regions left
// open, events on locations whose nesting is broken.
#include <filesystem>

#include <otf2/otf2.h>

#include <gtest/gtest.h>

#include "otf2/definitions_reader.h"
#include "otf2/trace_reader.h"
#include "testing/scenario.h"
#include "trace/location_builder.h"

namespace cw::otf2 {
namespace {

OTF2_FlushType PreFlush(void*, OTF2_FileType, OTF2_LocationRef, void*, bool) { return OTF2_FLUSH; }
OTF2_TimeStamp PostFlush(void*, OTF2_FileType, OTF2_LocationRef) { return 0; }

// An archive written with the raw OTF2 API, with the MPI groups defined twice: once identically
// (as some Score-P versions do) and once with different members.
std::string ArchiveWithDuplicateGroups() {
  std::string dir = testing::MakeTempDir("duplicates");
  OTF2_Archive* archive =
      OTF2_Archive_Open(dir.c_str(), "traces", OTF2_FILEMODE_WRITE, 1024 * 1024, 4 * 1024 * 1024,
                        OTF2_SUBSTRATE_POSIX, OTF2_COMPRESSION_NONE);
  OTF2_FlushCallbacks flush = {PreFlush, PostFlush};
  OTF2_Archive_SetFlushCallbacks(archive, &flush, nullptr);
  OTF2_Archive_SetSerialCollectiveCallbacks(archive);
  OTF2_Archive_OpenEvtFiles(archive);
  for (uint64_t loc = 0; loc < 2; ++loc) {
    OTF2_EvtWriter* w = OTF2_Archive_GetEvtWriter(archive, loc);
    OTF2_EvtWriter_Enter(w, nullptr, 10, 0);
    OTF2_EvtWriter_Leave(w, nullptr, 20, 0);
    OTF2_Archive_CloseEvtWriter(archive, w);
  }
  OTF2_Archive_CloseEvtFiles(archive);
  OTF2_GlobalDefWriter* d = OTF2_Archive_GetGlobalDefWriter(archive);
  OTF2_GlobalDefWriter_WriteClockProperties(d, 1, 0, 20, OTF2_UNDEFINED_TIMESTAMP);
  OTF2_GlobalDefWriter_WriteString(d, 0, "");
  OTF2_GlobalDefWriter_WriteString(d, 1, "main");
  OTF2_GlobalDefWriter_WriteString(d, 2, "rank");
  OTF2_GlobalDefWriter_WriteSystemTreeNode(d, 0, 0, 0, OTF2_UNDEFINED_SYSTEM_TREE_NODE);
  for (uint32_t loc = 0; loc < 2; ++loc) {
    OTF2_GlobalDefWriter_WriteLocationGroup(d, loc, 2, OTF2_LOCATION_GROUP_TYPE_PROCESS, 0,
                                            OTF2_UNDEFINED_LOCATION_GROUP);
    OTF2_GlobalDefWriter_WriteLocation(d, loc, 2, OTF2_LOCATION_TYPE_CPU_THREAD, 2, loc);
  }
  OTF2_GlobalDefWriter_WriteRegion(d, 0, 1, 1, 0, OTF2_REGION_ROLE_FUNCTION, OTF2_PARADIGM_USER,
                                   OTF2_REGION_FLAG_NONE, OTF2_UNDEFINED_STRING, 0, 0);
  const uint64_t locations[2] = {0, 1};
  const uint64_t ranks[2] = {0, 1};
  const uint64_t other[1] = {1};
  OTF2_GlobalDefWriter_WriteGroup(d, 0, 0, OTF2_GROUP_TYPE_COMM_LOCATIONS, OTF2_PARADIGM_MPI,
                                  OTF2_GROUP_FLAG_NONE, 2, locations);
  OTF2_GlobalDefWriter_WriteGroup(d, 0, 0, OTF2_GROUP_TYPE_COMM_LOCATIONS, OTF2_PARADIGM_MPI,
                                  OTF2_GROUP_FLAG_NONE, 2, locations);  // identical repeat
  OTF2_GlobalDefWriter_WriteGroup(d, 1, 0, OTF2_GROUP_TYPE_COMM_GROUP, OTF2_PARADIGM_MPI,
                                  OTF2_GROUP_FLAG_NONE, 2, ranks);
  OTF2_GlobalDefWriter_WriteGroup(d, 1, 0, OTF2_GROUP_TYPE_COMM_GROUP, OTF2_PARADIGM_MPI,
                                  OTF2_GROUP_FLAG_NONE, 1, other);  // differing repeat
  OTF2_GlobalDefWriter_WriteComm(d, 0, 0, 1, OTF2_UNDEFINED_COMM, OTF2_COMM_FLAG_NONE);
  OTF2_Archive_Close(archive);
  return dir + "/traces.otf2";
}

TEST(ToleranceTest, DuplicateGroupDefinitionsKeepTheFirst) {
  Result<trace::Trace> t = ReadTrace(ArchiveWithDuplicateGroups(), ReadOptions{});
  ASSERT_TRUE(t) << t.error().message();
  // The identical repeat is silent; the differing one is counted and the first one kept.
  EXPECT_EQ(t->diagnostics.Count(kDuplicateDefinition), 1u);
  EXPECT_EQ(t->defs.comms[0].size(), 2u);
  EXPECT_EQ(t->defs.comms[0].LocationOfRank(1, 0), 1u);
  EXPECT_EQ(t->RecordedEventCount(), 4u);
}

TEST(ToleranceTest, RegionsLeftOpenAreClosedAndReported) {
  testing::Scenario s(1);
  s.rank(0).Enter(0, "main").Enter(1, "solver").Call(2, 3, "step");  // main and solver stay open
  Result<trace::Trace> t = ReadTrace(s.WriteOrDie(testing::MakeTempDir("open")), ReadOptions{});
  ASSERT_TRUE(t) << t.error().message();
  EXPECT_EQ(t->diagnostics.Count(trace::kOpenAtEnd), 2u);
  const trace::LocationEvents& ev = t->location(0);
  EXPECT_EQ(ev.recorded_size(), 4u);
  EXPECT_EQ(ev.size(), 6u);
  EXPECT_EQ(ev.time(ev.size() - 1), 3u);  // closed at the last recorded event
}

}  // namespace
}  // namespace cw::otf2
