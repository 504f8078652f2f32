// The streamed OTF2 source (what `causeway whatif` reads) hands the replay exactly the events the
// in-memory trace does: same order, times, partners, requests and call paths, whatever the
// segment size, because each segment's builder resumes the nesting the previous one left open.
// Tiny segments (1, 2, 3, 7 records) put segment boundaries inside every call, every request and
// every repair.
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "otf2/trace_reader.h"
#include "sim/otf2_source.h"
#include "sim/replay.h"
#include "sim/trace_source.h"
#include "testing/scenario.h"
#include "tests/common/paths.h"

namespace cw::sim {
namespace {

namespace fs = std::filesystem;

// Every field of a SimEvent, with the call path and region by name (the call trees number paths
// differently, and the stream leaves the program region unnamed until the end).
struct Flat {
  uint64_t time, bytes, request;
  std::string callpath, region;
  uint32_t comm, peer, tag;
  trace::EventKind kind;
  trace::CollectiveOp op;
  bool operator==(const Flat&) const = default;
};

std::ostream& operator<<(std::ostream& os, const Flat& f) {
  return os << "{t=" << f.time << " kind=" << static_cast<int>(f.kind) << " cp=" << f.callpath
            << " peer=" << f.peer << " req=" << f.request << "}";
}

template <typename CallpathName, typename RegionName>
std::vector<Flat> ReadAll(EventSource& source, CallpathName callpath_name, RegionName region_name) {
  std::vector<SimEvent> events;
  while (source.Read(events, 5) > 0) {
  }
  std::vector<Flat> flat;
  for (const SimEvent& e : events) {
    flat.push_back(Flat{e.time, e.bytes, e.request,
                        e.callpath == kNone ? std::string("-") : callpath_name(e.callpath),
                        e.region == kNone ? std::string("-") : region_name(e.region), e.comm,
                        e.peer, e.tag, e.kind, e.op});
  }
  return flat;
}

// Compares every location of the archive at `anchor`, streamed with `segment` records per
// segment, with the trace ReadTrace builds.
void ExpectSameEvents(const std::string& anchor, uint32_t segment) {
  SCOPED_TRACE("segment " + std::to_string(segment));
  Result<trace::Trace> t = otf2::ReadTrace(anchor, {});
  ASSERT_TRUE(t) << t.error().message();
  Result<std::unique_ptr<StreamedTrace>> streamed = StreamedTrace::Open(anchor);
  ASSERT_TRUE(streamed) << streamed.error().message();
  (*streamed)->segment_records = segment;
  ReplayInput input = (*streamed)->Input();
  ASSERT_EQ(input.locations, t->location_count());
  Diagnostics repaired;  // what reading the streams repaired, all locations
  for (uint32_t l = 0; l < t->location_count(); ++l) {
    TraceSource memory(*t, l);
    std::unique_ptr<EventSource> stream = input.open(l);
    std::vector<Flat> expected = ReadAll(
        memory, [&](uint32_t cp) { return t->CallpathName(cp); },
        [&](uint32_t r) { return std::string(t->defs.RegionName(r)); });
    std::vector<Flat> got = ReadAll(
        *stream, [&](uint32_t cp) { return (*streamed)->CallpathName(cp); },
        [&](uint32_t r) { return (*streamed)->RegionName(r); });
    EXPECT_FALSE(stream->error().has_value()) << stream->error()->message();
    repaired.Merge(stream->diagnostics());
    ASSERT_EQ(got.size(), expected.size()) << "location " << l;
    for (size_t i = 0; i < got.size(); ++i) {
      ASSERT_EQ(got[i], expected[i]) << "location " << l << ", event " << i;
    }
  }
  // Each repair is counted once and named where reading the location whole names it (the
  // segments count events over the whole location).
  auto listed = [](const Diagnostics& d) {
    std::vector<std::string> out;
    for (const Diagnostics::Entry& e : d.Sorted()) {
      out.push_back(std::string(e.kind->name) + " x" + std::to_string(e.count) + ": " + e.example);
    }
    return out;
  };
  EXPECT_EQ(listed(repaired), listed(t->diagnostics));
}

// Segments of 3 records put a boundary almost everywhere; under AddressSanitizer, where each
// segment's setup costs 30 times more (40 s in all), segments of 61 records still cut every
// trace in thousands of places (SegmentBoundariesAnywhereChangeNothing takes segments of 1
// to 7 records, on an archive made to break at boundaries).
#if CW_SANITIZED
constexpr uint32_t kShortSegment = 61;
#else
constexpr uint32_t kShortSegment = 3;
#endif

TEST(StreamedSourceTest, RealTracesStreamAsTheyRead) {
  for (const std::string& name : test::RealTraceNames()) {
    SCOPED_TRACE(name);
    for (uint32_t segment : {kShortSegment, 8192u}) {
      ExpectSameEvents(test::RealTrace(name) + "/traces.otf2", segment);
    }
  }
}

// What a segment boundary could break: regions open across it, requests posted before it and
// completed after it, a measurement gap spanning it, and the repairs of misnested and unmatched
// Leaves and of regions left open at the end.
std::string WriteAwkwardArchive() {
  testing::Scenario s(2);
  testing::RankScript& r0 = s.rank(0);
  r0.Enter(1, "main").Enter(2, "outer");
  r0.Isend(3, 4, 1, 7, 100, /*request=*/42);
  r0.MeasurementOnOff(5, false).Enter(6, "hidden").MeasurementOnOff(8, true);
  r0.Enter(9, "inner").Leave(10, "outer");  // misnested: closes inner too
  r0.Complete(11, 14, "MPI_Wait", [](testing::RankScript& r) { r.IsendCompleteEvent(14, 42); });
  r0.Leave(15, "never_entered");  // unmatched: gets a zero-length Enter
  r0.Send(16, 18, 1, 8, 1 << 20);
  r0.Isend(18, 19, 1, 9, 8, /*request=*/43);  // never completed: an open request
  r0.Enter(19, "left_open");                  // closed at the last event
  r0.Call(20, 21, "compute");
  testing::RankScript& r1 = s.rank(1);
  r1.Enter(1, "main");
  r1.Irecv(2, 3, /*request=*/9);
  // The completion record comes in a later segment than the posting.
  r1.Complete(4, 4, "MPI_Wait", [](testing::RankScript& r) { r.IrecvEvent(4, 0, 7, 100, 9); });
  r1.Recv(5, 19, 0, 8, 1 << 20);
  r1.Leave(22, "main");
  return s.WriteOrDie(testing::MakeTempDir("streamed-awkward"));
}

TEST(StreamedSourceTest, SegmentBoundariesAnywhereChangeNothing) {
  std::string anchor = WriteAwkwardArchive();
  for (uint32_t segment : {1u, 2u, 3u, 4u, 5u, 7u, 64u}) ExpectSameEvents(anchor, segment);
}

// One parallel region forked from a and from b: each of the worker's teams hangs below where its
// master forked it (trace/thread_teams.h), in the stream as in the trace, wherever its segments
// begin (a team open across a boundary, a fork the worker meets before the master's stream
// reaches it).
std::string WriteTeamsForkedFromTwoPlaces() {
  testing::Scenario s(1);
  testing::RankScript& master = s.thread(0, 0);
  testing::RankScript& worker = s.thread(0, 1);
  master.Enter(0, "main").Enter(1, "a").Fork(2, 2).TeamBegin(2).Enter(2, "!$omp parallel");
  master.Call(3, 4, "!$omp implicit barrier").Leave(4, "!$omp parallel").TeamEnd(4).Join(5);
  master.Leave(6, "a").Enter(7, "b").Fork(8, 2).TeamBegin(8).Enter(8, "!$omp parallel");
  master.Call(9, 11, "!$omp implicit barrier").Leave(11, "!$omp parallel").TeamEnd(11).Join(12);
  master.Leave(13, "b").Leave(14, "main");
  for (uint64_t begin : {2u, 8u}) {
    worker.TeamBegin(begin).Enter(begin, "!$omp parallel").Enter(begin, "compute");
    worker.Call(begin + 1, begin + 2, "kernel").Leave(begin + 2, "compute");
    worker.Call(begin + 2, begin + 3, "!$omp implicit barrier");
    worker.Leave(begin + 3, "!$omp parallel").TeamEnd(begin + 3);
  }
  return s.WriteOrDie(testing::MakeTempDir("streamed-teams"));
}

TEST(StreamedSourceTest, TeamsHangWhereTheirMasterForkedThem) {
  const std::string anchor = WriteTeamsForkedFromTwoPlaces();
  Result<trace::Trace> t = otf2::ReadTrace(anchor, {});
  ASSERT_TRUE(t);
  bool under_b = false;
  for (uint32_t cp = 0; cp < t->call_tree.size(); ++cp) {
    under_b |= t->CallpathName(cp) == "main/b/!$omp parallel/compute/kernel";
  }
  EXPECT_TRUE(under_b);
  for (uint32_t segment : {1u, 2u, 3u, 4u, 5u, 7u, 64u}) ExpectSameEvents(anchor, segment);
}

TEST(StreamedSourceTest, ReplayOfTheStreamEqualsReplayOfTheTrace) {
  for (const std::string& name : test::RealTraceNames()) {
    SCOPED_TRACE(name);
    std::string anchor = test::RealTrace(name) + "/traces.otf2";
    Result<trace::Trace> t = otf2::ReadTrace(anchor, {});
    ASSERT_TRUE(t) << t.error().message();
    Result<std::unique_ptr<StreamedTrace>> streamed = StreamedTrace::Open(anchor);
    ASSERT_TRUE(streamed) << streamed.error().message();
    (*streamed)->segment_records = 64;
    ReplayOptions options;
    options.perturbation.network.ideal = true;
    options.perturbation.compute.push_back(*ParseComputeScale("1.25"));
    Result<ReplayResult> memory = RunReplay(TraceInput(*t), options);
    Result<ReplayResult> stream = RunReplay((*streamed)->Input(), options);
    ASSERT_TRUE(memory && stream);
    ASSERT_EQ(memory->locations.size(), stream->locations.size());
    for (size_t l = 0; l < memory->locations.size(); ++l) {
      EXPECT_EQ(stream->locations[l].predicted_end, memory->locations[l].predicted_end) << l;
      EXPECT_EQ(stream->locations[l].events, memory->locations[l].events) << l;
    }
    EXPECT_EQ(stream->stats.messages, memory->stats.messages);
    EXPECT_EQ(stream->stats.collectives, memory->stats.collectives);
    EXPECT_EQ(stream->stats.eager_resolved, memory->stats.eager_resolved);
    // The same shift per call path, found by name.
    std::map<std::string, int64_t> by_name;
    for (uint32_t cp = 0; cp < memory->callpaths.size(); ++cp) {
      by_name[t->CallpathName(cp)] += memory->callpaths[cp].gained - memory->callpaths[cp].absorbed;
    }
    for (uint32_t cp = 0; cp < stream->callpaths.size(); ++cp) {
      by_name[(*streamed)->CallpathName(cp)] -=
          stream->callpaths[cp].gained - stream->callpaths[cp].absorbed;
    }
    for (const auto& [path, difference] : by_name) EXPECT_EQ(difference, 0) << path;
  }
}

// Streams the archive through an unchanged replay; the replay must finish whatever the files.
ReplayResult ReplayStreamed(const std::string& anchor) {
  Result<std::unique_ptr<StreamedTrace>> streamed = StreamedTrace::Open(anchor);
  EXPECT_TRUE(streamed) << streamed.error().message();
  if (!streamed) return {};
  Result<ReplayResult> r = RunReplay((*streamed)->Input(), ReplayOptions{});
  EXPECT_TRUE(r) << r.error().message();
  return r ? std::move(*r) : ReplayResult{};
}

TEST(StreamedSourceTest, TruncatedEventFileIsReportedAndTheReplayFinishes) {
  std::string anchor = WriteAwkwardArchive();
  fs::path file = fs::path(anchor).parent_path() / "traces" / "1.evt";
  fs::resize_file(file, fs::file_size(file) / 2);
  ReplayResult r = ReplayStreamed(anchor);
  ASSERT_EQ(r.source_errors.size(), 1u);
  EXPECT_NE(r.source_errors[0].find("location 1"), std::string::npos) << r.source_errors[0];
  ASSERT_EQ(r.locations.size(), 2u);
  EXPECT_GT(r.locations[0].events, 0u);
}

TEST(StreamedSourceTest, MissingEventFileIsReportedForItsLocation) {
  std::string anchor = WriteAwkwardArchive();
  fs::remove(fs::path(anchor).parent_path() / "traces" / "0.evt");
  ReplayResult r = ReplayStreamed(anchor);
  ASSERT_EQ(r.source_errors.size(), 1u);
  EXPECT_NE(r.source_errors[0].find("location 0"), std::string::npos) << r.source_errors[0];
  ASSERT_EQ(r.locations.size(), 2u);
  EXPECT_EQ(r.locations[0].events, 0u);
  EXPECT_GT(r.locations[1].events, 0u);
}

}  // namespace
}  // namespace cw::sim
