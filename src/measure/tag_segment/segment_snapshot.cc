#include "measure/tag_segment/segment_snapshot.h"

#include <time.h>

#include <atomic>
#include <cstring>

namespace cw::measure::tag_segment {
namespace {

bool Within(uint64_t offset, uint64_t count, uint64_t size, uint64_t bytes) {
  return offset <= bytes && count <= (bytes - offset) / (size == 0 ? 1 : size);
}

// A reader that failed a few times waits before it tries again, longer each time (1 us
// doubling to 1 ms): a reader retrying without pause would read the lines the writer is
// writing over and over, and every such read makes the writer's next write to the line a cache
// miss. The first few retries are immediate: most updates are far apart (an MPI call between
// them), and a copy fits between two.
void BackOff(int attempt) {
  constexpr int kImmediate = 8;
  if (attempt < kImmediate) return;
  const int doubling = attempt - kImmediate;
  struct timespec t = {0, 1000L << (doubling < 10 ? doubling : 10)};
  nanosleep(&t, nullptr);
}

}  // namespace

bool HeaderFits(const Header& h, uint64_t bytes) {
  if (std::memcmp(h.magic, kMagic, sizeof kMagic) != 0 || h.version != kVersion ||
      h.header_bytes != kHeaderBytes || bytes < kHeaderBytes) {
    return false;
  }
  return h.node_count <= h.node_capacity && h.edge_count <= h.edge_capacity &&
         h.message_count <= h.message_capacity && h.frame_count <= h.frame_capacity &&
         h.name_bytes <= h.name_capacity &&
         Within(h.nodes_offset, h.node_capacity, sizeof(Node), bytes) &&
         Within(h.edges_offset, h.edge_capacity, sizeof(Edge), bytes) &&
         Within(h.messages_offset, h.message_capacity, sizeof(Message), bytes) &&
         Within(h.frames_offset, h.frame_capacity, sizeof(Frame), bytes) &&
         Within(h.names_offset, h.name_capacity, 1, bytes) && h.path_count <= h.path_capacity &&
         h.step_count <= h.step_capacity &&
         Within(h.paths_offset, h.path_capacity, sizeof(Path), bytes) &&
         Within(h.steps_offset, h.step_capacity, sizeof(PathStep), bytes) &&
         h.paths_offset >= kHeaderBytes && h.steps_offset >= kHeaderBytes &&
         h.nodes_offset >= kHeaderBytes && h.edges_offset >= kHeaderBytes &&
         h.messages_offset >= kHeaderBytes && h.frames_offset >= kHeaderBytes &&
         h.names_offset >= kHeaderBytes;
}

SnapshotOutcome CopySnapshot(const void* live, uint64_t bytes, std::string& out, bool writer_gone,
                             int attempts) {
  if (bytes < kHeaderBytes) return SnapshotOutcome::kInvalid;
  const Header* shared = static_cast<const Header*>(live);
  alignas(64) char header_copy[kHeaderBytes];
  for (int attempt = 0; attempt < attempts; ++attempt) {
    const uint64_t before = shared->sequence.load(std::memory_order_acquire);
    const bool interrupted = writer_gone && before % 2 == 1;
    if (before % 2 == 1 && !interrupted) {
      BackOff(attempt);  // the writer is in an update of a few hundred nanoseconds
      continue;
    }
    std::memcpy(header_copy, live, kHeaderBytes);
    Header& h = *reinterpret_cast<Header*>(header_copy);
    // A header torn by an update is caught by the counter below; one that is simply wrong
    // (not a segment, or damaged) is refused before anything is read through its offsets.
    if (!HeaderFits(h, bytes)) {
      std::atomic_thread_fence(std::memory_order_acquire);
      if (shared->sequence.load(std::memory_order_relaxed) != before) {
        BackOff(attempt);
        continue;
      }
      return SnapshotOutcome::kInvalid;
    }
    // The compacted layout: each array exactly its used length.
    struct Part {
      uint64_t* offset;
      uint32_t* capacity;
      uint32_t count;
      uint64_t size;
    };
    const uint64_t old_offsets[7] = {h.nodes_offset,  h.edges_offset, h.messages_offset,
                                     h.frames_offset, h.names_offset, h.paths_offset,
                                     h.steps_offset};
    Part parts[7] = {{&h.nodes_offset, &h.node_capacity, h.node_count, sizeof(Node)},
                     {&h.edges_offset, &h.edge_capacity, h.edge_count, sizeof(Edge)},
                     {&h.messages_offset, &h.message_capacity, h.message_count, sizeof(Message)},
                     {&h.frames_offset, &h.frame_capacity, h.frame_count, sizeof(Frame)},
                     {&h.names_offset, &h.name_capacity, h.name_bytes, 1},
                     {&h.paths_offset, &h.path_capacity, h.path_count, sizeof(Path)},
                     {&h.steps_offset, &h.step_capacity, h.step_count, sizeof(PathStep)}};
    uint64_t at = kHeaderBytes;
    for (Part& p : parts) {
      *p.offset = at;
      *p.capacity = p.count;
      at = RoundUp(at + p.count * p.size, 64);
    }
    h.segment_bytes = at;
    out.assign(at, '\0');
    for (int i = 0; i < 7; ++i) {
      std::memcpy(out.data() + *parts[i].offset, static_cast<const char*>(live) + old_offsets[i],
                  parts[i].count * parts[i].size);
    }
    std::atomic_thread_fence(std::memory_order_acquire);
    const uint64_t after = shared->sequence.load(std::memory_order_relaxed);
    if (after != before) {
      BackOff(attempt);
      continue;
    }
    h.sequence.store(before, std::memory_order_relaxed);
    std::memcpy(out.data(), header_copy, kHeaderBytes);
    return interrupted ? SnapshotOutcome::kInterrupted : SnapshotOutcome::kCopied;
  }
  return SnapshotOutcome::kBusy;
}

}  // namespace cw::measure::tag_segment
