// The online graph's update routine alone (measure/tag_segment), with and without a reader
// copying snapshots of the segment on another thread: Sikora et al. 2016's claim that sampling
// never makes the writer wait. Each update is what an MPI call costs the graph once its call path
// is known: find the node, visit it (the flow edge from the previous activity), add a message edge.
// Prints ns per update alone, with a reader copying a snapshot every millisecond (a thousand times
// more often than `--tag-interval 1s`), and with one copying without pause (which, on a machine
// whose two CPUs share a core, competes with the writer for it).
//   tag-writer-bench [UPDATES]
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <thread>
#include <vector>

#include "measure/tag_segment/segment_snapshot.h"
#include "measure/tag_segment/segment_writer.h"

namespace seg = cw::measure::tag_segment;

namespace {

struct Run {
  double ns_per_update;
  double snapshots_per_second;
};

// `pause_us` between the reader's copies; negative: no reader.
Run Measure(uint64_t updates, int pause_us) {
  const bool reader = pause_us >= 0;
  seg::Capacities c;
  seg::Header probe{};
  const uint64_t bytes = seg::Layout(c, probe);
  std::vector<uint64_t> memory(bytes / 8 + 1, 0);
  seg::SegmentWriter w(memory.data(), c, 0, 2, 0);
  // A loop of 8 activities with call paths of 10 frames, as in a real code's main loop.
  std::vector<seg::Frame> frames[8];
  uint32_t names[8];
  w.Begin();
  for (int a = 0; a < 8; ++a) {
    names[a] = w.Name("MPI_call_" + std::to_string(a));
    for (int f = 0; f < 10; ++f)
      frames[a].push_back({0x400000u + 64u * static_cast<uint64_t>(f + a), 0, 0});
  }
  w.Commit();
  std::atomic<bool> stop{false};
  std::atomic<uint64_t> copies{0};
  std::thread copier;
  if (reader) {
    copier = std::thread([&] {
      std::string copy;
      while (!stop.load(std::memory_order_relaxed)) {
        if (seg::CopySnapshot(memory.data(), bytes, copy) == seg::SnapshotOutcome::kCopied) {
          copies.fetch_add(1, std::memory_order_relaxed);
        }
        if (pause_us > 0) std::this_thread::sleep_for(std::chrono::microseconds(pause_us));
      }
    });
  }
  const auto start = std::chrono::steady_clock::now();
  uint64_t t = 0;
  for (uint64_t i = 0; i < updates; ++i) {
    const int a = static_cast<int>(i % 8);
    uint32_t node = w.FindNode(seg::NodeKind::kMpi, names[a], frames[a].data(), 10);
    w.Begin();
    if (node == seg::kNone) node = w.NodeFor(seg::NodeKind::kMpi, names[a], frames[a].data(), 10);
    w.Visit(node, t, t + 5, t + 5);
    w.MessageOut(node, static_cast<uint32_t>(a % 2), 64, 5);
    w.Commit();
    t += 10;
  }
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  stop = true;
  if (copier.joinable()) copier.join();
  return {seconds * 1e9 / static_cast<double>(updates),
          static_cast<double>(copies.load()) / seconds};
}

}  // namespace

int main(int argc, char** argv) {
  const uint64_t updates = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : 20000000ULL;
  Measure(updates / 10, -1);  // warm up
  const Run alone = Measure(updates, -1);
  const Run paced = Measure(updates, 1000);
  const Run busy = Measure(updates, 0);
  const Run alone_again = Measure(updates, -1);
  const double base = (alone.ns_per_update + alone_again.ns_per_update) / 2;
  std::printf("update routine: %.1f ns per update alone (%.1f and %.1f)\n", base,
              alone.ns_per_update, alone_again.ns_per_update);
  std::printf("  reader every 1 ms:  %.1f ns (%.0f snapshots/s), ratio %.3f\n", paced.ns_per_update,
              paced.snapshots_per_second, paced.ns_per_update / base);
  std::printf("  reader without pause: %.1f ns (%.0f snapshots/s), ratio %.3f\n",
              busy.ns_per_update, busy.snapshots_per_second, busy.ns_per_update / base);
  return 0;
}
