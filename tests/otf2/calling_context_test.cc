// Traces as Score-P writes them when it unwinds the stack and samples (SCOREP_ENABLE_UNWINDING,
// SCOREP_ENABLE_SAMPLING): no Enter or Leave of the program's functions, but
// CallingContextEnter/Leave/Sample records naming nodes of a calling-context tree with unwind
// distances. The reader turns them into the frames' Enters and Leaves
// (otf2/internal/calling_context_frames.h), so the wait states, their root causes and the call
// sites come out by the program's functions.
#include <gtest/gtest.h>

#include "otf2/internal/calling_context_frames.h"
#include "otf2/location_stream.h"
#include "otf2/reader_regions.h"
#include "otf2/trace_reader.h"
#include "otf2_writer/archive_writer.h"
#include "tests/common/analysis_fixture.h"
#include "trace/call_sites.h"

namespace cw::test {
namespace {

using otf2_writer::ArchiveWriter;

constexpr double kEps = 1e-12;

// Two ranks of one program (one tick per second). Score-P keys a node by its frame's
// instruction, so main has one node per line it is at: main@38 (calling MPI_Init), main@40
// (calling solve) and main@45 (calling MPI_Finalize), all roots of region main.
//
//   contexts  path (root first)                          distance on the record below
//   init      main@38 / MPI_Init
//   compute   main@40 / solve@11 / compute@3
//   send      main@40 / solve@12 / exchange@21 / MPI_Send
//   recv      main@40 / solve@12 / exchange@22 / MPI_Recv
//   fin       main@45 / MPI_Finalize
//
// Rank 0: Enter init (D 2: MPI_Init new, main made progress) 0; Leave init 1;
//         Sample compute 2 (D 3: compute and solve new, main progressed); Sample compute 6 (D 2:
//         compute entered again, a second call); Sample compute 8 (D 1: progress in compute);
//         Enter send 10 (D 3: MPI_Send and exchange new, solve progressed), MpiSend 10;
//         Leave send 11; Enter fin 12 (D 2: MPI_Finalize new, main progressed; exchange and
//         solve, open below main, were left); Leave fin 13.
// Rank 1: the same to the first sample at 2; Enter recv 4 (D 3: compute left, exchange and
//         MPI_Recv new, solve progressed); MpiRecv 11; Leave recv 11; Enter fin 12; Leave fin
//         13.
// Nothing leaves main: it was found by unwinding, so it ends with the location at 13.
//
// As Enter and Leave: rank 0 main [0,13], MPI_Init [0,1], solve [2,12], compute [2,6] and [6,10],
// exchange [10,12], MPI_Send [10,11], MPI_Finalize [12,13]; rank 1 the same but compute [2,4],
// exchange [4,12], MPI_Recv [4,11].
}  // namespace

std::string WriteUnwoundLateSender(const std::string& dir) {
  auto archive = ArchiveWriter::Create(dir, "traces", "Score-P 8.4", ArchiveWriter::Buffering{});
  EXPECT_TRUE(archive) << archive.error().message();
  if (!archive) return "";
  ArchiveWriter& a = **archive;
  const uint32_t node = a.DefineSystemTreeNode("node", "node", OTF2_UNDEFINED_SYSTEM_TREE_NODE);
  const uint64_t r0 = a.DefineLocation("Master thread", a.DefineLocationGroup("MPI Rank 0", node));
  const uint64_t r1 = a.DefineLocation("Master thread", a.DefineLocationGroup("MPI Rank 1", node));
  const uint32_t world = a.DefineMpiWorld({r0, r1});
  auto function = [&](const char* name) {
    return a.DefineRegion(name, OTF2_REGION_ROLE_FUNCTION, OTF2_PARADIGM_SAMPLING, "app.c");
  };
  auto mpi = [&](const char* name, OTF2_RegionRole role) {
    return a.DefineRegion(name, role, OTF2_PARADIGM_MPI, "MPI");
  };
  const uint32_t main = function("main"), solve = function("solve");
  const uint32_t compute = function("compute"), exchange = function("exchange");
  const uint32_t init = mpi("MPI_Init", OTF2_REGION_ROLE_FUNCTION);
  const uint32_t send = mpi("MPI_Send", OTF2_REGION_ROLE_POINT2POINT);
  const uint32_t recv = mpi("MPI_Recv", OTF2_REGION_ROLE_POINT2POINT);
  const uint32_t finalize = mpi("MPI_Finalize", OTF2_REGION_ROLE_FUNCTION);
  auto at = [&](uint32_t line) { return a.DefineSourceCodeLocation("app.c", line); };
  const uint32_t none = OTF2_UNDEFINED_SOURCE_CODE_LOCATION;
  const uint32_t root = OTF2_UNDEFINED_CALLING_CONTEXT;

  const uint32_t main38 = a.DefineCallingContext(main, at(38), root);
  const uint32_t main40 = a.DefineCallingContext(main, at(40), root);
  const uint32_t main45 = a.DefineCallingContext(main, at(45), root);
  const uint32_t c_init = a.DefineCallingContext(init, none, main38);
  const uint32_t solve11 = a.DefineCallingContext(solve, at(11), main40);
  const uint32_t c_compute = a.DefineCallingContext(compute, at(3), solve11);
  const uint32_t solve12 = a.DefineCallingContext(solve, at(12), main40);
  const uint32_t exchange21 = a.DefineCallingContext(exchange, at(21), solve12);
  const uint32_t exchange22 = a.DefineCallingContext(exchange, at(22), solve12);
  const uint32_t c_send = a.DefineCallingContext(send, none, exchange21);
  const uint32_t c_recv = a.DefineCallingContext(recv, none, exchange22);
  const uint32_t c_fin = a.DefineCallingContext(finalize, none, main45);
  const uint32_t timer = a.DefineInterruptGenerator("CPU time", 2'000'000);

  otf2_writer::EventWriter& e0 = a.Events(r0);
  e0.CallingContextEnter(0, c_init, 2);
  e0.CallingContextLeave(1, c_init);
  e0.CallingContextSample(2, c_compute, 3, timer);
  e0.CallingContextSample(6, c_compute, 2, timer);
  e0.CallingContextSample(8, c_compute, 1, timer);
  e0.CallingContextEnter(10, c_send, 3);
  e0.MpiSend(10, 1, world, 0, 8);
  e0.CallingContextLeave(11, c_send);
  e0.CallingContextEnter(12, c_fin, 2);
  e0.CallingContextLeave(13, c_fin);

  otf2_writer::EventWriter& e1 = a.Events(r1);
  e1.CallingContextEnter(0, c_init, 2);
  e1.CallingContextLeave(1, c_init);
  e1.CallingContextSample(2, c_compute, 3, timer);
  e1.CallingContextEnter(4, c_recv, 3);
  e1.MpiRecv(11, 0, world, 0, 8);
  e1.CallingContextLeave(11, c_recv);
  e1.CallingContextEnter(12, c_fin, 2);
  e1.CallingContextLeave(13, c_fin);
  const Status closed = a.Close(1);
  EXPECT_TRUE(closed.has_value()) << closed.error().message();
  return a.anchor_path();
}

namespace {

TEST(CallingContextTest, UnwoundFramesBecomeCallPathsWithTheirTimes) {
  const std::string anchor = WriteUnwoundLateSender(testing::MakeTempDir("calling-context"));
  ASSERT_FALSE(anchor.empty());
  Analysis a = AnalyzeFile(anchor);
  for (const Diagnostics::Entry& e : a.trace.diagnostics.Sorted()) {
    ADD_FAILURE() << "reader diagnostic " << e.kind->name << ": " << e.example;
  }

  // Exclusive times from the intervals in the comment above.
  EXPECT_NEAR(a.Value("time", "main/solve/compute", 0), 8.0, kEps);   // [2,6] + [6,10]
  EXPECT_NEAR(a.Value("time", "main/solve/compute", 1), 2.0, kEps);   // [2,4]
  EXPECT_NEAR(a.Value("time", "main/solve/exchange", 0), 1.0, kEps);  // [10,12] - Send [10,11]
  EXPECT_NEAR(a.Value("time", "main/solve/exchange", 1), 1.0, kEps);  // [4,12] - Recv [4,11]
  EXPECT_NEAR(a.Value("time", "main/solve", 0), 0.0, kEps);
  EXPECT_NEAR(a.Value("time", "main", 0), 1.0, kEps);                  // [1,2]
  EXPECT_NEAR(a.Value("visits", "main/solve/compute", 0), 2.0, kEps);  // entered at 2 and 6
  EXPECT_NEAR(a.Value("visits", "main/solve/compute", 1), 1.0, kEps);
  EXPECT_NEAR(a.Value("visits", "main/solve", 0), 1.0, kEps);  // only progressed at 6
  EXPECT_NEAR(a.Value("visits", "main/solve/exchange/MPI_Recv", 1), 1.0, kEps);
  EXPECT_NEAR(a.Value("visits", "main/MPI_Finalize", 1), 1.0, kEps);

  // Late Sender: the receive entered at 4, the send at 10.
  EXPECT_NEAR(a.Total("mpi_latesender"), 6.0, kEps);
  EXPECT_NEAR(a.Value("mpi_latesender", "main/solve/exchange/MPI_Recv", 1), 6.0, kEps);
  // Its delay cost: the pair last met in MPI_Init (both left at 1). Waits removed, rank 1 spent
  // main 1 and compute 2, rank 0 main 1 and compute 8: δ = {compute 6}, δ̂ = 6, rank 0 waited
  // 0 in between, so s = 1/6 and compute's short-term cost is 1/6 * 6 * 6 = 6.
  EXPECT_NEAR(a.Value("delay_latesender", "main/solve/compute", 0), 6.0, kEps);
}

TEST(CallingContextTest, EachFrameIsEnteredFromItsParentsLine) {
  const std::string anchor = WriteUnwoundLateSender(testing::MakeTempDir("calling-context-sites"));
  ASSERT_FALSE(anchor.empty());
  Analysis a = AnalyzeFile(anchor);
  std::vector<trace::CallSiteUse> uses = trace::CallSiteUses(a.trace, 0);
  for (const trace::CallSiteUse& u : trace::CallSiteUses(a.trace, 1)) uses.push_back(u);
  const std::vector<trace::CallSite> sites = trace::CallSites(uses, a.trace.call_tree.size());
  auto line_of = [&](const std::string& path) -> uint32_t {
    const trace::CallSite& site = sites.at(a.Callpath(path));
    if (site.location == trace::kNone) return 0;
    return a.trace.defs.source_locations[site.location].line;
  };
  // The line of a frame's call is its parent node's line.
  EXPECT_EQ(line_of("main"), 0u);  // a root: nobody calls it
  EXPECT_EQ(line_of("main/MPI_Init"), 38u);
  EXPECT_EQ(line_of("main/solve"), 40u);
  EXPECT_EQ(line_of("main/solve/compute"), 11u);
  EXPECT_EQ(line_of("main/solve/exchange"), 12u);
  EXPECT_EQ(line_of("main/solve/exchange/MPI_Send"), 21u);
  EXPECT_EQ(line_of("main/solve/exchange/MPI_Recv"), 22u);
  EXPECT_EQ(line_of("main/MPI_Finalize"), 45u);
}

}  // namespace
}  // namespace cw::test

namespace cw::otf2 {
namespace {

// Each Enter and Leave as "E 10 MPI_Send", by region name.
std::vector<std::string> Frames(const trace::LocationEvents& events, const trace::CallTree& tree,
                                const trace::Definitions& defs, uint32_t first = 0) {
  std::vector<std::string> out;
  for (uint32_t i = first; i < events.size(); ++i) {
    const trace::EventKind kind = events.kind(i);
    if (kind != trace::EventKind::kEnter && kind != trace::EventKind::kLeave) continue;
    out.push_back(std::string(kind == trace::EventKind::kEnter ? "E " : "L ") +
                  std::to_string(events.time(i)) + " " +
                  std::string(defs.RegionName(tree.region(events.callpath(i)))));
  }
  return out;
}

// The what-if replay reads a location in segments: frames stay open from one to the next, and
// the Enters and Leaves come out as when the location is read whole.
TEST(CallingContextTest, StreamedInSegmentsOfOneRecordTheFramesAreTheSame) {
  const std::string anchor =
      test::WriteUnwoundLateSender(testing::MakeTempDir("calling-context-stream"));
  ASSERT_FALSE(anchor.empty());
  Result<trace::Trace> whole = ReadTrace(anchor, ReadOptions{});
  ASSERT_TRUE(whole) << whole.error().message();
  const std::vector<std::string> expected =
      Frames(whole->location(0), whole->call_tree, whole->defs);
  // main, MPI_Init, solve, compute twice, exchange, MPI_Send, MPI_Finalize: entered and left.
  ASSERT_EQ(expected.size(), 16u);

  Diagnostics problems;
  Result<trace::Definitions> defs = ReadDefinitions(anchor, problems);
  ASSERT_TRUE(defs) << defs.error().message();
  const ReaderRegions regions = AddReaderRegions(*defs);
  auto stream = LocationStream::Open(anchor, *defs, regions, 0);
  ASSERT_TRUE(stream) << stream.error().message();
  std::vector<std::string> streamed;
  while (!(*stream)->done()) {
    LocationStream::Segment s = (*stream)->Next(1);
    for (std::string& f : Frames(s.events, s.local_tree, *defs, s.resumed)) {
      // A segment closes what is open at its end only in the last one.
      streamed.push_back(std::move(f));
    }
  }
  EXPECT_FALSE((*stream)->error().has_value()) << (*stream)->error()->message();
  EXPECT_TRUE((*stream)->diagnostics().empty());
  EXPECT_EQ(streamed, expected);
}

// Damaged trees: a node whose parents form a cycle and a node that is not defined. The records
// naming them are skipped and reported; the rest of the location reads as usual.
TEST(CallingContextTest, DamagedTreesAreReportedNotFollowed) {
  const std::string dir = testing::MakeTempDir("calling-context-damaged");
  auto archive = otf2_writer::ArchiveWriter::Create(dir, "traces", "Score-P 8.4",
                                                    otf2_writer::ArchiveWriter::Buffering{});
  ASSERT_TRUE(archive) << archive.error().message();
  otf2_writer::ArchiveWriter& a = **archive;
  const uint32_t node = a.DefineSystemTreeNode("node", "node", OTF2_UNDEFINED_SYSTEM_TREE_NODE);
  const uint64_t r0 = a.DefineLocation("Master thread", a.DefineLocationGroup("MPI Rank 0", node));
  a.DefineMpiWorld({r0});
  const uint32_t main = a.DefineRegion("main", OTF2_REGION_ROLE_FUNCTION, OTF2_PARADIGM_SAMPLING);
  const uint32_t work = a.DefineRegion("work", OTF2_REGION_ROLE_FUNCTION, OTF2_PARADIGM_SAMPLING);
  const uint32_t none = OTF2_UNDEFINED_SOURCE_CODE_LOCATION;
  const uint32_t c_main = a.DefineCallingContext(main, none, OTF2_UNDEFINED_CALLING_CONTEXT);
  const uint32_t c_work = a.DefineCallingContext(work, none, c_main);
  const uint32_t loop_a = a.DefineCallingContext(work, none, 3);  // 2 -> 3 -> 2
  a.DefineCallingContext(work, none, loop_a);
  otf2_writer::EventWriter& e = a.Events(r0);
  e.CallingContextEnter(0, c_main, 1);
  e.CallingContextEnter(1, loop_a, 2);
  e.CallingContextEnter(2, 77, 2);  // never defined
  e.CallingContextEnter(3, c_work, 2);
  e.CallingContextLeave(4, c_work);
  e.CallingContextLeave(5, c_main);
  ASSERT_TRUE(a.Close(1).has_value());

  Result<trace::Trace> t = ReadTrace(a.anchor_path(), ReadOptions{});
  ASSERT_TRUE(t) << t.error().message();
  EXPECT_EQ(t->diagnostics.Count(internal::kBadCallingContext), 2u);
  EXPECT_EQ(Frames(t->location(0), t->call_tree, t->defs),
            (std::vector<std::string>{"E 0 main", "E 3 work", "L 4 work", "L 5 main"}));
}

}  // namespace
}  // namespace cw::otf2
