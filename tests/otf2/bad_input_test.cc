// Bad input gets a clear error (or, with allow_partial, a clearly reported partial result);
// never a crash or a silently wrong trace.
#include <filesystem>
#include <fstream>

#include <gtest/gtest.h>

#include "otf2/event_reader.h"
#include "otf2/trace_reader.h"
#include "testing/scenario.h"

namespace cw::otf2 {
namespace {

namespace fs = std::filesystem;

// Three ranks with enough events that each event file spans more than a few bytes.
std::string WriteArchive(const std::string& name) {
  testing::Scenario s(3);
  for (int r = 0; r < 3; ++r) {
    testing::RankScript& rank = s.rank(r);
    rank.Enter(0, "main");
    for (uint64_t i = 0; i < 2000; ++i) rank.Call(10 + 4 * i, 12 + 4 * i, "compute");
    rank.Leave(100000, "main");
  }
  return s.WriteOrDie(testing::MakeTempDir(name));
}

std::string EventFile(const std::string& anchor, int location) {
  return (fs::path(anchor).parent_path() / "traces" / (std::to_string(location) + ".evt")).string();
}

TEST(BadInputTest, MissingEventFileIsAnErrorNamingTheLocation) {
  std::string anchor = WriteArchive("missing-evt");
  fs::remove(EventFile(anchor, 1));
  Result<trace::Trace> t = ReadTrace(anchor, ReadOptions{});
  ASSERT_FALSE(t);
  EXPECT_EQ(t.error().code(), ErrorCode::kCorrupt);
  EXPECT_NE(t.error().message().find("location 1"), std::string::npos) << t.error().message();
  EXPECT_NE(t.error().message().find("--partial"), std::string::npos);
}

TEST(BadInputTest, MissingEventFileWithPartialKeepsTheRest) {
  std::string anchor = WriteArchive("missing-evt-partial");
  fs::remove(EventFile(anchor, 1));
  ReadOptions options;
  options.allow_partial = true;
  Result<trace::Trace> t = ReadTrace(anchor, options);
  ASSERT_TRUE(t) << t.error().message();
  EXPECT_EQ(t->diagnostics.Count(kTruncatedLocation), 1u);
  EXPECT_EQ(t->location(0).recorded_size(), 4002u);
  EXPECT_EQ(t->location(1).recorded_size(), 0u);
  EXPECT_EQ(t->location(2).recorded_size(), 4002u);
}

TEST(BadInputTest, TruncatedEventFileIsAnError) {
  std::string anchor = WriteArchive("truncated-evt");
  std::string file = EventFile(anchor, 2);
  fs::resize_file(file, fs::file_size(file) / 2);
  Result<trace::Trace> t = ReadTrace(anchor, ReadOptions{});
  ASSERT_FALSE(t);
  EXPECT_EQ(t.error().code(), ErrorCode::kCorrupt);
  EXPECT_NE(t.error().message().find("location 2"), std::string::npos) << t.error().message();
}

TEST(BadInputTest, TruncatedEventFileWithPartialReportsTheLoss) {
  std::string anchor = WriteArchive("truncated-evt-partial");
  std::string file = EventFile(anchor, 2);
  fs::resize_file(file, fs::file_size(file) / 2);
  ReadOptions options;
  options.allow_partial = true;
  Result<trace::Trace> t = ReadTrace(anchor, options);
  ASSERT_TRUE(t) << t.error().message();
  EXPECT_EQ(t->diagnostics.Count(kTruncatedLocation), 1u);
  EXPECT_LT(t->location(2).recorded_size(), 4002u);
  EXPECT_EQ(t->location(0).recorded_size(), 4002u);
  // What was read is still well nested: open regions were closed at the last event.
  const trace::LocationEvents& ev = t->location(2);
  ASSERT_FALSE(ev.empty());
  EXPECT_EQ(ev.kind(ev.size() - 1), trace::EventKind::kLeave);
}

TEST(BadInputTest, GarbageDefinitionsAreAnError) {
  std::string anchor = WriteArchive("garbage-def");
  std::string defs = (fs::path(anchor).parent_path() / "traces.def").string();
  std::ofstream(defs, std::ios::trunc) << "garbage garbage garbage garbage";
  Result<trace::Trace> t = ReadTrace(anchor, ReadOptions{});
  ASSERT_FALSE(t);
  EXPECT_EQ(t.error().code(), ErrorCode::kCorrupt);
}

TEST(BadInputTest, MissingDefinitionsAreAnError) {
  std::string anchor = WriteArchive("missing-def");
  fs::remove(fs::path(anchor).parent_path() / "traces.def");
  Result<trace::Trace> t = ReadTrace(anchor, ReadOptions{});
  ASSERT_FALSE(t);
  EXPECT_EQ(t.error().code(), ErrorCode::kCorrupt);
}

TEST(BadInputTest, TruncatedAnchorIsAnError) {
  std::string anchor = WriteArchive("truncated-anchor");
  fs::resize_file(anchor, 12);
  Result<trace::Trace> t = ReadTrace(anchor, ReadOptions{});
  ASSERT_FALSE(t);
  EXPECT_EQ(t.error().code(), ErrorCode::kCorrupt);
}

TEST(BadInputTest, RandomBytesInEventFilesNeverCrash) {
  // Overwrite the middle of every event file with pseudo-random bytes: the reader must return
  // an error or a repaired trace, and must not crash (the sanitizer build checks the memory).
  for (unsigned seed = 1; seed <= 6; ++seed) {
    std::string anchor = WriteArchive("random-bytes");
    for (int loc = 0; loc < 3; ++loc) {
      std::string file = EventFile(anchor, loc);
      std::fstream f(file, std::ios::in | std::ios::out | std::ios::binary);
      uint64_t size = fs::file_size(file);
      uint32_t state = seed * 2654435761u + static_cast<uint32_t>(loc);
      for (uint64_t pos = size / 3; pos < size / 3 + 64 && pos < size; ++pos) {
        state = state * 1664525u + 1013904223u;
        f.seekp(static_cast<std::streamoff>(pos));
        char byte = static_cast<char>(state >> 24);
        f.write(&byte, 1);
      }
    }
    ReadOptions options;
    options.allow_partial = seed % 2 == 0;
    Result<trace::Trace> t = ReadTrace(anchor, options);
    if (t) {
      for (uint32_t loc = 0; loc < t->location_count(); ++loc) {
        const trace::LocationEvents& ev = t->location(loc);
        for (uint32_t i = 1; i < ev.size(); ++i) EXPECT_GE(ev.time(i), ev.time(i - 1));
      }
    } else {
      EXPECT_FALSE(t.error().message().empty());
    }
  }
}

// Every kind of record passes the reader's time-range check, the non-blocking collectives' and
// the communicator events' too: a request or completion record stamped above 2^63 (a flipped
// top bit) is refused by its place on location 0 (Enter 0, Enter 1, request 2, Leave 3, Enter 4,
// completion 5), before its time could turn into a duration of centuries. (Unchecked, the
// reading stopped at it and called the event file truncated.)
TEST(BadInputTest, ANonBlockingCollectiveOutsideTheTimeRangeIsRefused) {
  constexpr uint64_t kHigh = (uint64_t{1} << 63) + 100;
  for (const bool request_damaged : {false, true}) {
    SCOPED_TRACE(request_damaged ? "request" : "completion");
    testing::Scenario s(2, 1);
    for (int r = 0; r < 2; ++r) {
      const bool damaged = r == 0;
      s.rank(r)
          .Enter(0, "main")
          .Enter(1, "MPI_Ibarrier")
          .NbcRequestEvent(damaged && request_damaged ? kHigh : 1, 7)
          .Leave(2, "MPI_Ibarrier")
          .Enter(3, "MPI_Wait")
          .NbcCompleteEvent(damaged && !request_damaged ? kHigh : 4, OTF2_COLLECTIVE_OP_BARRIER, 0,
                            OTF2_UNDEFINED_UINT32, 0, 0, 7)
          .Leave(4, "MPI_Wait")
          .Leave(10, "main");
    }
    const std::string anchor = s.WriteOrDie(testing::MakeTempDir("nbc-out-of-range"));
    Result<trace::Trace> t = ReadTrace(anchor, ReadOptions{});
    ASSERT_FALSE(t);
    const std::string& message = t.error().message();
    EXPECT_NE(message.find("location 0"), std::string::npos) << message;
    EXPECT_NE(message.find(request_damaged ? "event 2" : "event 5"), std::string::npos) << message;
    EXPECT_NE(message.find("outside the trace's time range"), std::string::npos) << message;
  }
}

}  // namespace
}  // namespace cw::otf2
