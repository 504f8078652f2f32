// The online graph's segment (measure/tag_segment) and how `causeway tag` reads it
// (tag/online): the update routine's exact counts and statistics, snapshots, windows, bounded
// memory, damaged files, a reader racing the writer, and the merge of raw call paths into the
// graphs tag.json shows. Times are in ticks; every expected number is derived beside it.
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstring>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "elf/address_names.h"
#include "elf/elf_module.h"
#include "measure/tag_segment/segment_snapshot.h"
#include "measure/tag_segment/segment_writer.h"
#include "tag/model/callpath_folding.h"
#include "tag/online/online_graphs.h"
#include "tag/online/segment_image.h"

namespace cw::test {
namespace {

namespace seg = measure::tag_segment;
using seg::NodeKind;

// A zero-filled segment in memory, with its writer.
struct Segment {
  explicit Segment(seg::Capacities c = SmallCapacities(), int32_t rank = 0)
      : capacities(c),
        memory(Bytes(c) / 8 + 1, 0),
        writer(memory.data(), c, rank, 2, /*start_ticks=*/0) {}
  static seg::Capacities SmallCapacities() {
    seg::Capacities c;
    c.nodes = 64;
    c.edges = 256;
    c.messages = 64;
    c.frames = 1024;
    c.names = 4096;
    return c;
  }
  static uint64_t Bytes(const seg::Capacities& c) {
    seg::Header h{};
    return seg::Layout(c, h);
  }
  // A compacted, checked copy.
  tag::SegmentImage Image(const std::string& name = "test.seg") {
    std::string copy;
    EXPECT_EQ(seg::CopySnapshot(memory.data(), Bytes(capacities), copy),
              seg::SnapshotOutcome::kCopied);
    Result<tag::SegmentImage> image = tag::ParseSegment(copy, name);
    EXPECT_TRUE(image) << image.error().message();
    return std::move(*image);
  }
  // A node whose call path is user-region frames (named without any symbol table).
  uint32_t Node(NodeKind kind, const std::string& name, const std::vector<std::string>& path) {
    std::vector<seg::Frame> frames;
    for (const std::string& p : path) {
      frames.push_back(
          {seg::kRegionFrame | writer.Name(p), static_cast<uint32_t>(frames.size()), 0});
    }
    return writer.NodeFor(kind, writer.Name(name), frames.data(),
                          static_cast<uint32_t>(frames.size()));
  }

  seg::Capacities capacities;
  std::vector<uint64_t> memory;  // 8-byte aligned
  seg::SegmentWriter writer;
};

const seg::Edge* FindEdge(const tag::SegmentImage& image, seg::EdgeKind kind, uint32_t from,
                          uint32_t to) {
  for (const seg::Edge& e : image.edges()) {
    if (e.kind == kind && e.from == from && e.to == to) return &e;
  }
  return nullptr;
}

TEST(TagSegmentTest, UpdateRoutineCountsAndTimes) {
  // Send at 10..20, 40..60 and 90..120 (durations 10, 20, 30), a receive at 25..35 between the
  // first two; each send sends 0, 1000 and 1024 bytes to rank 1.
  Segment s;
  seg::SegmentWriter& w = s.writer;
  w.Begin();
  const uint32_t send = s.Node(NodeKind::kMpi, "MPI_Send", {"main"});
  const uint32_t recv = s.Node(NodeKind::kMpi, "MPI_Recv", {"main"});
  w.Visit(send, 10, 20, 20);
  w.MessageOut(send, 1, 0, 10);
  w.Visit(recv, 25, 35, 35);
  w.MessageIn(recv, 1, /*sender=*/7, seg::Via::kPointToPoint, 64, 10, /*delta_t=*/4);
  w.Visit(send, 40, 60, 61);  // the tool worked 1 tick after the call: not the next gap's
  w.MessageOut(send, 1, 1000, 20);
  w.Visit(send, 90, 120, 120);
  w.MessageOut(send, 1, 1024, 30);
  w.Commit();
  const tag::SegmentImage image = s.Image();
  ASSERT_EQ(image.nodes().size(), 3u);  // start, send, receive
  const seg::Stats& t = image.nodes()[send].time;
  EXPECT_EQ(t.count, 3u);
  EXPECT_DOUBLE_EQ(t.total, 60.0);  // 10 + 20 + 30
  EXPECT_DOUBLE_EQ(t.min, 10.0);
  EXPECT_DOUBLE_EQ(t.max, 30.0);
  // Population standard deviation: sqrt(((10-20)^2 + 0 + (30-20)^2) / 3) = sqrt(200/3).
  EXPECT_DOUBLE_EQ(std::sqrt(t.m2 / static_cast<double>(t.count)), std::sqrt(200.0 / 3.0));
  // Flow edges: start -> send (0 -> 10: 10), send -> recv (20 -> 25: 5), recv -> send
  // (35 -> 40: 5), send -> send (61 -> 90: 29; the tool's tick after 60 is nobody's).
  EXPECT_DOUBLE_EQ(FindEdge(image, seg::EdgeKind::kFlow, 0, send)->time.total, 10.0);
  EXPECT_DOUBLE_EQ(FindEdge(image, seg::EdgeKind::kFlow, send, recv)->time.total, 5.0);
  EXPECT_DOUBLE_EQ(FindEdge(image, seg::EdgeKind::kFlow, recv, send)->time.total, 5.0);
  EXPECT_DOUBLE_EQ(FindEdge(image, seg::EdgeKind::kFlow, send, send)->time.total, 29.0);
  // One message_out edge for the three sends: 2024 bytes in buckets 0 ([0]), 10 ([512, 1024))
  // and 11 ([1024, 2048)).
  const seg::Edge* out = FindEdge(image, seg::EdgeKind::kMessageOut, send, seg::kNone);
  ASSERT_NE(out, nullptr);
  EXPECT_EQ(out->time.count, 3u);
  const seg::Message& m = image.messages()[out->message];
  EXPECT_EQ(m.bytes, 2024u);
  EXPECT_EQ(m.size_histogram[0], 1u);
  EXPECT_EQ(m.size_histogram[10], 1u);
  EXPECT_EQ(m.size_histogram[11], 1u);
  // The incoming edge names the sender's node, 7, and its sender came 4 ticks late.
  const seg::Edge* in = FindEdge(image, seg::EdgeKind::kMessageIn, 7, recv);
  ASSERT_NE(in, nullptr);
  const seg::Message& mi = image.messages()[in->message];
  EXPECT_EQ(mi.late_senders, 1u);
  EXPECT_DOUBLE_EQ(mi.late_sender_ticks, 4.0);  // min(delta 4, the receive's 10)
  EXPECT_EQ(image.header().recent, send);
  EXPECT_EQ(image.header().last_ticks, 120u);
}

TEST(TagSegmentTest, FullArraysLoseEntriesAndSayHowMany) {
  seg::Capacities c = Segment::SmallCapacities();
  c.nodes = 3;  // start and two more
  c.edges = 2;
  Segment s(c);
  s.writer.Begin();
  uint32_t a = s.Node(NodeKind::kMpi, "A", {});
  uint32_t b = s.Node(NodeKind::kMpi, "B", {});
  uint32_t lost = s.Node(NodeKind::kMpi, "C", {});
  EXPECT_EQ(lost, seg::kNone);
  s.writer.Visit(a, 1, 2, 2);     // edge start -> A
  s.writer.Visit(b, 3, 4, 4);     // edge A -> B
  s.writer.Visit(a, 5, 6, 6);     // edge B -> A: no room
  s.writer.Visit(lost, 7, 8, 8);  // a lost node changes nothing
  s.writer.Commit();
  const tag::SegmentImage image = s.Image();
  EXPECT_EQ(image.nodes().size(), 3u);
  EXPECT_EQ(image.edges().size(), 2u);
  EXPECT_EQ(image.header().lost_nodes, 1u);
  EXPECT_EQ(image.header().lost_edges, 1u);
  EXPECT_EQ(image.nodes()[a].time.count, 2u);  // the node itself was counted
}

TEST(TagSegmentTest, WindowSubtractsTheEarlierSnapshot) {
  // A's duration 10, 20 before the first snapshot; 30, 40 after.
  Segment s;
  s.writer.Begin();
  const uint32_t a = s.Node(NodeKind::kMpi, "A", {"main"});
  s.writer.Visit(a, 0, 10, 10);
  s.writer.Visit(a, 10, 30, 30);
  s.writer.Commit();
  const tag::SegmentImage first = s.Image("first");
  s.writer.Begin();
  s.writer.Visit(a, 30, 60, 60);
  s.writer.Visit(a, 60, 100, 100);
  s.writer.Commit();
  tag::SegmentImage second = s.Image("second");
  ASSERT_TRUE(second.Subtract(first));
  const seg::Stats& t = second.nodes()[a].time;
  EXPECT_EQ(t.count, 2u);
  EXPECT_DOUBLE_EQ(t.total, 70.0);  // 30 + 40
  // Population variance of {30, 40}: 25 (m2 = 50).
  EXPECT_NEAR(t.m2, 50.0, 1e-9);
  const seg::Edge* self = FindEdge(second, seg::EdgeKind::kFlow, a, a);
  EXPECT_EQ(self->time.count, 2u);  // 3 self-edges in all, 1 before the first snapshot
  // Snapshots in the wrong order, or of another rank, are refused.
  tag::SegmentImage nothing = first;
  EXPECT_TRUE(nothing.Subtract(first));  // a window of nothing
  tag::SegmentImage reversed = first;
  EXPECT_FALSE(reversed.Subtract(s.Image("later")));
  EXPECT_FALSE(s.Image("rank 0").Subtract(Segment(Segment::SmallCapacities(), 1).Image()));
}

TEST(TagSegmentTest, DamagedSegmentsGetAClearErrorNeverACrash) {
  Segment s;
  s.writer.Begin();
  const uint32_t a = s.Node(NodeKind::kMpi, "MPI_Send", {"main", "f"});
  s.writer.Visit(a, 1, 2, 2);
  s.writer.MessageOut(a, 1, 8, 1);
  s.writer.Commit();
  const std::string good = s.Image().bytes();
  EXPECT_TRUE(tag::ParseSegment(good, "good"));
  // Cut short, a foreign file, and offsets beyond the file.
  Result<tag::SegmentImage> r = tag::ParseSegment(good.substr(0, 100), "cut");
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().message().find("cut: not a usable task activity graph"), std::string::npos);
  std::string foreign = good;
  foreign[0] = 'X';
  EXPECT_FALSE(tag::ParseSegment(foreign, "foreign"));
  // Every single-byte change anywhere is either still a segment or refused; none crashes (the
  // sanitizer build runs this too).
  std::mt19937 random(7);
  int refused = 0;
  for (int i = 0; i < 4000; ++i) {
    std::string damaged = good;
    const size_t at = random() % damaged.size();
    damaged[at] = static_cast<char>(random());
    Result<tag::SegmentImage> image = tag::ParseSegment(damaged, "damaged");
    if (!image) {
      ++refused;
      continue;
    }
    // What passes the checks can be read through without leaving the copy.
    for (const seg::Node& n : image->nodes()) {
      (void)image->Name(n.name);
      for (const seg::Frame& f : image->FramesOf(n)) (void)f;
    }
  }
  EXPECT_GT(refused, 0);
}

TEST(TagSegmentTest, AReaderRacingTheWriterOnlySeesConsistentGraphs) {
  // One thread updates a ping-pong graph until this one has copied it 50 times meanwhile: bursts
  // of 8 updates as fast as it can, then a short pause, as a program's MPI calls leave the
  // segment alone for microseconds at least. (A writer that never pauses starves any reader of a
  // sequence lock: 4 copies in 40 million updates; and a fixed number of updates took 10 ms on a
  // busy machine, too short for a reader that had to wait for a CPU.) The cap on the updates
  // ends the test if copying starves all the same.
  constexpr int kCopies = 50;
  constexpr int kMostUpdates = 2000000;
  Segment s;
  s.writer.Begin();
  const uint32_t send = s.Node(NodeKind::kMpi, "MPI_Send", {"main"});
  const uint32_t recv = s.Node(NodeKind::kMpi, "MPI_Recv", {"main"});
  s.writer.Commit();
  std::atomic<bool> enough{false}, writer_done{false};
  std::thread writer([&] {
    uint64_t t = 0;
    for (int i = 0; i < kMostUpdates && !enough; ++i) {
      s.writer.Begin();
      s.writer.Visit(send, t, t + 1, t + 1);
      s.writer.MessageOut(send, 1, 8, 1);
      s.writer.Commit();
      s.writer.Begin();
      s.writer.Visit(recv, t + 2, t + 3, t + 3);
      s.writer.Commit();
      t += 4;
      if (i % 8 == 7) std::this_thread::sleep_for(std::chrono::microseconds(2));
    }
    writer_done = true;
  });
  int copies = 0, inconsistent = 0;
  while (!writer_done && copies < kCopies) {
    std::string copy;
    if (seg::CopySnapshot(s.memory.data(), Segment::Bytes(s.capacities), copy) !=
        seg::SnapshotOutcome::kCopied) {
      continue;
    }
    Result<tag::SegmentImage> image = tag::ParseSegment(copy, "copy");
    if (!image) {
      ++inconsistent;
      continue;
    }
    ++copies;
    // Flow conservation: the sends are one ahead of the receives or level with them.
    const uint64_t sends = image->nodes()[send].time.count;
    const uint64_t receives = image->nodes().size() > recv ? image->nodes()[recv].time.count : 0;
    const seg::Edge* out = FindEdge(*image, seg::EdgeKind::kMessageOut, send, seg::kNone);
    if (!(sends == receives || sends == receives + 1) ||
        (out != nullptr && out->time.count != sends)) {
      ++inconsistent;
    }
  }
  enough = true;
  writer.join();
  EXPECT_EQ(copies, kCopies);
  EXPECT_EQ(inconsistent, 0);
}

TEST(TagSegmentTest, RecursionFoldsByFunctionName) {
  using V = std::vector<std::string>;
  EXPECT_EQ(tag::FoldRecursion({"main", "s", "s", "s", "s"}, 3), (V{"main", "s", "s", "s"}));
  EXPECT_EQ(tag::FoldRecursion({"main", "s", "s", "s", "s", "f"}, 2), (V{"main", "s", "s", "f"}));
  // Mutual recursion: a calls b calls a ...; a may occur twice.
  EXPECT_EQ(tag::FoldRecursion({"main", "a", "b", "a", "b", "a", "b"}, 2),
            (V{"main", "a", "b", "a", "b"}));
  EXPECT_EQ(tag::FoldRecursion({"main", "s", "s"}, 0), (V{"main", "s", "s"}));
}

// Two ranks' raw segments whose call paths name the same functions through different frame
// vectors: `causeway tag` merges them into one node, and maps the incoming edges' sender ids.
TEST(TagSegmentTest, OnlineGraphsMergeCallPathsAndMapSenders) {
  Segment r0(Segment::SmallCapacities(), 0), r1(Segment::SmallCapacities(), 1);
  r0.writer.Begin();
  // Rank 0 sends from main/exchange twice, through two frame vectors that name one path (as
  // two call sites of exchange in main do), and from main/s/s/s/s (folded to depth 3).
  const uint32_t send_a = r0.Node(NodeKind::kMpi, "MPI_Send", {"main", "exchange"});
  std::vector<seg::Frame> other = {{seg::kRegionFrame | r0.writer.Name("main"), 0, 0},
                                   {seg::kRegionFrame | r0.writer.Name("exchange"), 5, 0}};
  const uint32_t send_b =
      r0.writer.NodeFor(NodeKind::kMpi, r0.writer.Name("MPI_Send"), other.data(), 2);
  const uint32_t deep = r0.Node(NodeKind::kMpi, "MPI_Send", {"main", "s", "s", "s", "s"});
  r0.writer.Visit(send_a, 1, 2, 2);
  r0.writer.Visit(send_b, 3, 4, 4);
  r0.writer.Visit(deep, 5, 6, 6);
  r0.writer.End(7, seg::RunState::kEnded);
  r0.writer.Commit();
  r1.writer.Begin();
  const uint32_t recv = r1.Node(NodeKind::kMpi, "MPI_Recv", {"main"});
  r1.writer.Visit(recv, 1, 4, 4);
  r1.writer.MessageIn(recv, 0, send_a, seg::Via::kPointToPoint, 8, 3, 0);
  r1.writer.MessageIn(recv, 0, send_b, seg::Via::kPointToPoint, 8, 3, 0);
  r1.writer.End(8, seg::RunState::kEnded);
  r1.writer.Commit();
  std::vector<tag::OnlineRank> ranks;
  ranks.push_back({r0.Image("rank-0.seg"), ""});
  ranks.push_back({r1.Image("rank-1.seg"), ""});
  const tag::OnlineGraphs g = tag::BuildOnlineGraphs(ranks, {.recursion_depth = 3});
  ASSERT_EQ(g.processes.size(), 2u);
  const tag::ProcessGraph& p0 = g.processes[0];
  // start, main/exchange/MPI_Send (both vectors), main/s/s/s/MPI_Send, end.
  ASSERT_EQ(p0.nodes.size(), 4u);
  EXPECT_EQ(p0.nodes[1].callpath, "main/exchange/MPI_Send");
  EXPECT_EQ(p0.nodes[1].time.count, 2u);
  EXPECT_EQ(p0.nodes[2].callpath, "main/s/s/s/MPI_Send");
  EXPECT_EQ(g.folded_callpaths, 1u);
  // The two raw flow edges between the merged vectors became one self-edge.
  bool self = false;
  for (const tag::Edge& e : p0.edges)
    self |= e.kind == tag::EdgeKind::kFlow && e.from == 1 && e.to == 1;
  EXPECT_TRUE(self);
  // Rank 1's two incoming edges name one merged sender node: one edge of count 2.
  int incoming = 0;
  for (const tag::Edge& e : g.processes[1].edges) {
    if (e.kind != tag::EdgeKind::kMessageIn) continue;
    ++incoming;
    EXPECT_EQ(e.from, 1u);
    EXPECT_EQ(e.time.count, 2u);
  }
  EXPECT_EQ(incoming, 1);
  EXPECT_TRUE(g.notes.empty());
}

// A function of some length, so that an address a few bytes into it is still inside it.
__attribute__((noinline)) int MarkerFunction(int x) {
  int sum = 0;
  for (int i = 0; i < x; ++i) sum += (i * 7) ^ x;
  return sum;
}

TEST(TagSegmentTest, ReturnAddressesAreNamedFromTheMemoryMap) {
  std::string maps;
  {
    FILE* f = std::fopen("/proc/self/maps", "r");
    ASSERT_NE(f, nullptr);
    char buffer[4096];
    size_t n;
    while ((n = std::fread(buffer, 1, sizeof buffer, f)) > 0) maps.append(buffer, n);
    std::fclose(f);
  }
  elf::ModuleCache modules;
  elf::AddressNames names(maps, modules);
  // An address 4 bytes into MarkerFunction, as a return address into it would be.
  const auto address = reinterpret_cast<uint64_t>(&MarkerFunction) + 4;
  const elf::FrameName name = names.Name(address);
  EXPECT_TRUE(name.named);
  EXPECT_NE(name.function.find("MarkerFunction(int)"), std::string::npos) << name.function;
  EXPECT_NE(name.site.find("+0x4"), std::string::npos) << name.site;
  EXPECT_FALSE(names.Name(8).named);  // nothing is mapped there
  EXPECT_EQ(MarkerFunction(2), 2 + (7 ^ 2));
  // Plain C names stay as they are; only mangled names are demangled.
  EXPECT_EQ(elf::Demangle("f"), "f");
  EXPECT_EQ(elf::Demangle("_ZN3foo3barEv"), "foo::bar()");
}

}  // namespace
}  // namespace cw::test
