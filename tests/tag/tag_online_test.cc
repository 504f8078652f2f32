// The online task activity graph as the running program and its users meet it: invisible to
// the program (every message, count, status and probe as without causeway), readable while it
// runs (consistent snapshots however often they are taken), windows between snapshots, and
// written however the program ends.
#include <sys/mman.h>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>

#include <gtest/gtest.h>

#include "measure/tag_segment/segment_snapshot.h"
#include "tag/online/segment_image.h"
#include "testing/scenario.h"
#include "tests/common/paths.h"
#include "tests/common/traced_program.h"
#include "tests/tag/tag_json.h"

namespace cw::test {
namespace {

namespace fs = std::filesystem;
namespace seg = measure::tag_segment;
using nlohmann::json;

json Load(const std::string& path) {
  std::ifstream in(path);
  EXPECT_TRUE(in.good()) << path;
  return in.good() ? json::parse(in) : json::object();
}

std::vector<std::string> SortedLines(const std::string& text, const std::string& prefix) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind(prefix, 0) == 0) lines.push_back(line);
  }
  std::sort(lines.begin(), lines.end());
  return lines;
}

TEST(TagOnlineTest, PiggybacksAreInvisibleToTheProgram) {
  // tag_transparency checks every received buffer, count, status, wildcard source and probe
  // result (tests/programs/tag/tag_transparency.c); its report must be the same line for line
  // with and without the graph's piggybacks.
  std::string plain;
  ASSERT_EQ(RunCommand(MpirunOn(3) + " " + TestProgram("tag_transparency"), &plain), 0) << plain;
  std::string tagged;
  TraceProgram("tag_transparency", 3, "", "--tag", &tagged);
  const std::vector<std::string> expected = SortedLines(plain, "rank ");
  EXPECT_EQ(SortedLines(tagged, "rank "), expected);
  EXPECT_NE(tagged.find("(exit status 0)"), std::string::npos) << tagged;
  // 128 checks in all, none failed.
  int checks = 0;
  for (const std::string& line : expected) {
    std::smatch m;
    if (std::regex_search(line, m, std::regex("done: (\\d+) checks, 0 failed"))) {
      checks += std::stoi(m[1]);
    }
  }
  EXPECT_EQ(checks, 128);
}

// Sikora et al. 2016 §3.4's flow conservation in a raw segment: every node ran as often as flow
// edges entered it (plus one for start) and as often as they left it (plus one for the activity the
// process is at now).
std::string FlowProblems(const tag::SegmentImage& image) {
  std::map<uint32_t, uint64_t> in, out;
  for (const seg::Edge& e : image.edges()) {
    if (e.kind != seg::EdgeKind::kFlow) continue;
    out[e.from] += e.time.count;
    in[e.to] += e.time.count;
  }
  std::string problems;
  for (uint32_t v = 0; v < image.nodes().size(); ++v) {
    const uint64_t count = image.nodes()[v].time.count;
    if (count != in[v] + (v == 0 ? 1 : 0) ||
        count != out[v] + (v == image.header().recent ? 1 : 0)) {
      problems += "node " + std::to_string(v) + " ";
    }
  }
  return problems;
}

TEST(TagOnlineTest, SnapshotsWhileTheProgramRunsAreConsistent) {
  // A ping-pong of 20000 iterations without computation: about 80000 graph updates a second
  // per rank, while this test copies both ranks' segments as fast as it can.
  const std::string dir = testing::MakeTempDir("tag-snapshots");
  std::atomic<bool> done{false};
  std::string output;
  std::thread run([&] {
    RunCommand(CausewayBinary() + " trace --tag -o " + dir + " -- " + kMpirun + " -np 2 " +
                   TestProgram("tag_pingpong") + " 20000 0",
               &output);
    done = true;
  });
  struct Mapped {
    void* base = nullptr;
    uint64_t bytes = 0;
    std::vector<uint64_t> node_counts, edge_counts;
  };
  std::map<std::string, Mapped> segments;
  uint64_t copies = 0, busy = 0, unusable = 0, inconsistent = 0, decreasing = 0, max_nodes = 0;
  while (!done) {
    for (const std::string name : {"rank-0.seg", "rank-1.seg"}) {
      const fs::path path = fs::path(dir) / "tag" / name;
      Mapped& m = segments[name];
      if (m.base == nullptr) {
        std::error_code ec;
        const uint64_t size = fs::exists(path, ec) ? fs::file_size(path, ec) : 0;
        if (ec || size < seg::kHeaderBytes) continue;
        FILE* f = std::fopen(path.c_str(), "r");
        if (f == nullptr) continue;
        void* base = mmap(nullptr, size, PROT_READ, MAP_SHARED, fileno(f), 0);
        std::fclose(f);
        if (base == MAP_FAILED) continue;
        m.base = base;
        m.bytes = size;
      }
      std::string copy;
      const seg::SnapshotOutcome outcome = seg::CopySnapshot(m.base, m.bytes, copy);
      if (outcome == seg::SnapshotOutcome::kBusy) {
        ++busy;
        continue;
      }
      Result<tag::SegmentImage> image = tag::ParseSegment(copy, name);
      if (outcome != seg::SnapshotOutcome::kCopied || !image) {
        ++unusable;  // (no ASSERT here: the run's thread must be joined first)
        continue;
      }
      ++copies;
      if (!FlowProblems(*image).empty()) ++inconsistent;
      for (uint32_t v = 0; v < image->nodes().size(); ++v) {
        if (v < m.node_counts.size() && image->nodes()[v].time.count < m.node_counts[v]) {
          ++decreasing;
        }
      }
      for (uint32_t e = 0; e < image->edges().size(); ++e) {
        if (e < m.edge_counts.size() && image->edges()[e].time.count < m.edge_counts[e]) {
          ++decreasing;
        }
      }
      m.node_counts.clear();
      for (const seg::Node& n : image->nodes()) m.node_counts.push_back(n.time.count);
      m.edge_counts.clear();
      for (const seg::Edge& e : image->edges()) m.edge_counts.push_back(e.time.count);
      max_nodes = std::max<uint64_t>(max_nodes, image->nodes().size());
    }
  }
  run.join();
  for (auto& [name, m] : segments) {
    if (m.base != nullptr) munmap(m.base, m.bytes);
  }
  EXPECT_NE(output.find("(exit status 0)"), std::string::npos) << output;
  // Thousands of copies while the graph changed under them; every one consistent.
  EXPECT_GT(copies, 1000u) << "busy " << busy;
  EXPECT_EQ(unusable, 0u);
  EXPECT_EQ(inconsistent, 0u);
  EXPECT_EQ(decreasing, 0u);
  EXPECT_GE(max_nodes, 5u);  // start, MPI_Init, the loop's entry, MPI_Send, MPI_Recv at least
  // The final graphs: 20000 round trips.
  const TagProcess p(Load(dir + "/tag.json"), 0);
  EXPECT_EQ(p.Node("main/MPI_Send")["count"], 20000);
}

TEST(TagOnlineTest, WindowsShowWhatHappenedBetweenSnapshots) {
  // 400 round trips of 2 ms (about 0.9 s) with a snapshot every 0.2 s: several snapshots, each
  // taken by `causeway trace` while the ranks ran.
  std::string output;
  const std::string dir =
      TraceProgram("tag_pingpong", 2, "400 2", "--tag --tag-interval 200ms", &output);
  std::vector<int> snapshots;
  for (const auto& entry : fs::directory_iterator(fs::path(dir) / "tag" / "snapshots")) {
    snapshots.push_back(std::stoi(entry.path().filename().string()));
  }
  std::sort(snapshots.begin(), snapshots.end());
  ASSERT_GE(snapshots.size(), 3u) << output;
  auto window = [&](const std::string& w) {
    const std::string out_dir = dir + "/window-" + std::to_string(std::hash<std::string>{}(w));
    std::string out;
    EXPECT_EQ(
        RunCommand(CausewayBinary() + " tag -q " + dir + " --window " + w + " -o " + out_dir, &out),
        0)
        << out;
    return Load(out_dir + "/tag.json");
  };
  auto count_at = [&](const std::string& point) -> int64_t {
    if (point == "0") return 0;
    Result<tag::SegmentImage> image = tag::ReadSegmentFile(
        point == "end" ? dir + "/tag/rank-0.seg" : dir + "/tag/snapshots/" + point + "/rank-0.seg");
    if (!image) return -1;
    // The send node: the one MPI_Send of rank 0's segment.
    for (const seg::Node& n : image->nodes()) {
      if (image->Name(n.name) == "MPI_Send") return static_cast<int64_t>(n.time.count);
    }
    return 0;
  };
  const std::string a = std::to_string(snapshots[0]), b = std::to_string(snapshots[1]);
  const json w = window(a + ":" + b);
  EXPECT_EQ(w["window"], a + ":" + b);
  const int64_t sends = TagProcess(w, 0).Node("main/MPI_Send")["count"].get<int64_t>();
  EXPECT_EQ(sends, count_at(b) - count_at(a));
  EXPECT_GT(sends, 0);
  // Min and max cannot be taken apart: null in a window.
  EXPECT_TRUE(TagProcess(w, 0).Node("main/MPI_Send")["min"].is_null());
  // 0:end is the whole run.
  const json whole = window("0:end");
  EXPECT_EQ(TagProcess(whole, 0).Node("main/MPI_Send")["count"], 400);
  // Bad windows get a clear error.
  std::string out;
  EXPECT_NE(RunCommand(CausewayBinary() + " tag -q " + dir + " --window " + b + ":" + a, &out), 0);
  EXPECT_NE(out.find("A < B"), std::string::npos) << out;
  EXPECT_NE(RunCommand(CausewayBinary() + " tag -q " + dir + " --window 0:999", &out), 0);
  EXPECT_NE(out.find("no snapshot 999"), std::string::npos) << out;
  // A number beyond 64 bits is no snapshot number (it once ended in "internal error: stoull").
  EXPECT_NE(
      RunCommand(CausewayBinary() + " tag -q " + dir + " --window 0:99999999999999999999999", &out),
      0);
  EXPECT_NE(out.find("A < B"), std::string::npos) << out;
}

TEST(TagOnlineTest, GraphsSurviveACrashAndAnAbort) {
  // crash_after_messages: rank 0 sends 100 messages, then dies of SIGSEGV (or calls
  // MPI_Abort); mpirun then ends rank 1. Every call before the end is in the graphs.
  for (const std::string mode : {"segv", "abort"}) {
    SCOPED_TRACE(mode);
    const std::string dir = testing::MakeTempDir("tag-crash");
    std::string out;
    RunCommand(CausewayBinary() + " trace --tag -o " + dir + " -- " + kMpirun + " -np 2 " +
                   TestProgram("crash_after_messages") + " " + mode + " 100",
               &out);
    const json tag = Load(dir + "/tag.json");
    EXPECT_EQ(TagProcess(tag, 0).Node("main/MPI_Send")["count"], 100);
    EXPECT_EQ(TagProcess(tag, 1).Node("main/MPI_Recv")["count"], 100);
    const std::string notes = tag["notes"].dump();
    EXPECT_NE(notes.find(mode == "segv" ? "rank 0 ended by signal 11" : "rank 0 called MPI_Abort"),
              std::string::npos)
        << notes;
  }
}

TEST(TagOnlineTest, ARankThatCannotRecordStopsEveryRank) {
  // Rank 1 cannot create its segment (a directory stands where its file would be laid out).
  // Had rank 0 recorded alone, its receives would wait for piggybacks rank 1 never sends: every
  // rank agrees not to record, and the program runs as without causeway.
  const std::string dir = testing::MakeTempDir("tag-no-segment");
  fs::create_directories(dir + "/tag/rank-1.seg.new");
  const std::string library =
      (fs::path(CausewayBinary()).parent_path().parent_path() / "lib" / "libcauseway-tag.so")
          .string();
  std::string out;
  EXPECT_EQ(
      RunCommand("CAUSEWAY_DIR=" + dir + " LD_PRELOAD=" + library + "${LD_PRELOAD:+:$LD_PRELOAD} " +
                     kMpirun + " -np 2 " + TestProgram("tag_pingpong") + " 50 0",
                 &out),
      0)
      << out;
  EXPECT_NE(out.find("rank 1 cannot write its task activity graph"), std::string::npos) << out;
  EXPECT_FALSE(fs::exists(dir + "/tag/rank-0.seg"));
}

TEST(TagOnlineTest, OtherThreadsCarryPiggybacksAndAreCounted) {
  // tests/programs/threads.c: under MPI_THREAD_MULTIPLE a second thread of each rank makes 10
  // MPI_Sendrecv calls with the other rank's while the main thread runs barriers. The graph is
  // the main thread's; the other threads' messages still carry their piggybacks (the run ends,
  // no receive waits for one that never comes), and their calls are counted.
  const std::string dir = TraceProgram("threads", 2, "", "--tag");
  const json tag = Load(dir + "/tag.json");
  EXPECT_EQ(TagProcess(tag, 0).Node("main/MPI_Barrier")["count"], 5);
  const std::string notes = tag["notes"].dump();
  EXPECT_NE(notes.find("rank 0: 10 MPI calls of threads other than the one that initialised MPI"),
            std::string::npos)
      << notes;
}

}  // namespace
}  // namespace cw::test
