// Reading a trace as K analysis ranks (threads of this process standing in for an MPI job): the
// union of what the ranks read must be the trace one process reads, with the same call-path,
// region and communicator tables on every rank; a read error must reach every rank.
#include "job_read/owned_locations.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <mutex>

#include "comm/local_group.h"
#include "testing/scenario.h"
#include "tests/common/paths.h"

namespace cw::job_read {
namespace {

namespace fs = std::filesystem;

void ExpectSameEvents(const trace::LocationEvents& a, const trace::LocationEvents& b,
                      const std::string& where) {
  ASSERT_EQ(a.size(), b.size()) << where;
  for (uint32_t i = 0; i < a.size(); ++i) {
    ASSERT_EQ(a.time(i), b.time(i)) << where << " event " << i;
    ASSERT_EQ(a.kind(i), b.kind(i)) << where << " event " << i;
    ASSERT_EQ(a.ref(i), b.ref(i)) << where << " event " << i;
    ASSERT_EQ(a.pair(i), b.pair(i)) << where << " event " << i;
    ASSERT_EQ(a.callpath(i), b.callpath(i)) << where << " event " << i;
  }
  ASSERT_EQ(a.profile().size(), b.profile().size()) << where;
  for (size_t k = 0; k < a.profile().size(); ++k) {
    EXPECT_EQ(a.profile()[k].callpath, b.profile()[k].callpath) << where;
    EXPECT_EQ(a.profile()[k].exclusive, b.profile()[k].exclusive) << where;
    EXPECT_EQ(a.profile()[k].visits, b.profile()[k].visits) << where;
  }
}

void ExpectSameTables(const trace::Trace& a, const trace::Trace& b, const std::string& where) {
  ASSERT_EQ(a.call_tree.size(), b.call_tree.size()) << where;
  for (uint32_t cp = 0; cp < a.call_tree.size(); ++cp) {
    EXPECT_EQ(a.call_tree.parent(cp), b.call_tree.parent(cp)) << where << " call path " << cp;
    EXPECT_EQ(a.call_tree.region(cp), b.call_tree.region(cp)) << where << " call path " << cp;
  }
  ASSERT_EQ(a.defs.regions.size(), b.defs.regions.size()) << where;
  for (size_t r = 0; r < a.defs.regions.size(); ++r) {
    EXPECT_EQ(a.defs.str(a.defs.regions[r].name), b.defs.str(b.defs.regions[r].name)) << where;
  }
  ASSERT_EQ(a.defs.comms.size(), b.defs.comms.size()) << where;
  for (size_t c = 0; c < a.defs.comms.size(); ++c) {
    EXPECT_EQ(a.defs.comms[c].rank_to_location, b.defs.comms[c].rank_to_location) << where;
  }
}

// Reads `anchor` on `ranks` ranks and checks every rank against the single-process trace.
void CheckDistributedRead(const std::string& anchor, const trace::Trace& single, uint32_t ranks) {
  const std::string where = anchor + " on " + std::to_string(ranks) + " ranks";
  const trace::Partition partition = trace::PartitionLocations(single.defs, ranks);
  std::mutex mutex;  // gtest assertions from several threads
  comm::LocalGroup::Run(ranks, [&](comm::Communicator& comm) {
    otf2::ReadOptions options;
    options.threads = 2;
    Result<trace::Trace> mine = ReadOwnedLocations(anchor, options, partition, comm);
    std::lock_guard<std::mutex> lock(mutex);
    ASSERT_TRUE(mine) << where << ": " << mine.error().message();
    const std::string rank_where = where + ", rank " + std::to_string(comm.rank());
    ExpectSameTables(*mine, single, rank_where);
    for (uint32_t loc = 0; loc < single.location_count(); ++loc) {
      if (partition.owner[loc] == comm.rank()) {
        ExpectSameEvents(mine->location(loc), single.location(loc),
                         rank_where + ", location " + std::to_string(loc));
      } else {
        EXPECT_TRUE(mine->location(loc).empty()) << rank_where << " read location " << loc;
      }
    }
  });
}

TEST(DistributedReadTest, EveryRealTraceReadsTheSameOnOneToFourRanks) {
  for (const std::string& name : test::RealTraceNames()) {
    const std::string anchor = test::RealTrace(name);
    otf2::ReadOptions options;
    Result<trace::Trace> single = otf2::ReadTrace(anchor, options);
    ASSERT_TRUE(single) << name;
    for (uint32_t ranks = 1; ranks <= std::min<uint32_t>(4, single->location_count()); ++ranks) {
      CheckDistributedRead(anchor, *single, ranks);
    }
  }
}

TEST(DistributedReadTest, AReadErrorOnOneRankIsAnErrorOnEvery) {
  testing::Scenario s(4);
  for (int r = 0; r < 4; ++r) s.rank(r).Enter(0, "main").Leave(10, "main");
  std::string anchor = s.WriteOrDie(testing::MakeTempDir("distributed-missing"));
  fs::remove(fs::path(anchor).parent_path() / "traces" / "3.evt");
  Diagnostics diagnostics;
  Result<trace::Definitions> defs = otf2::ReadDefinitions(anchor, diagnostics);
  ASSERT_TRUE(defs);
  const trace::Partition partition = trace::PartitionLocations(*defs, 2);
  ASSERT_EQ(partition.owner[3], 1u);
  std::vector<std::string> messages(2);
  comm::LocalGroup::Run(2, [&](comm::Communicator& comm) {
    otf2::ReadOptions options;
    Result<trace::Trace> mine = ReadOwnedLocations(anchor, options, partition, comm);
    messages[comm.rank()] = mine ? "ok" : mine.error().message();
  });
  // Rank 0 read its locations without fault, yet returns rank 1's error, word for word.
  EXPECT_EQ(messages[0], messages[1]);
  EXPECT_NE(messages[0].find("analysis rank 1: "), std::string::npos) << messages[0];
  EXPECT_NE(messages[0].find("location 3"), std::string::npos) << messages[0];
  // With --partial every rank goes on, and the missing location is empty.
  comm::LocalGroup::Run(2, [&](comm::Communicator& comm) {
    otf2::ReadOptions options;
    options.allow_partial = true;
    Result<trace::Trace> mine = ReadOwnedLocations(anchor, options, partition, comm);
    messages[comm.rank()] = mine ? "ok" : mine.error().message();
  });
  EXPECT_EQ(messages, (std::vector<std::string>{"ok", "ok"}));
}

}  // namespace
}  // namespace cw::job_read
