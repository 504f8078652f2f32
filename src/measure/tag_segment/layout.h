// The task activity graph of one process as libcauseway-tag.so keeps it while the program runs
// (`causeway trace --tag`): one file-backed shared mapping, DIR/tag/rank-<r>.seg, laid out
// without pointers (Sikora et al. 2016 §3.6), so that
//   - another process maps the file and copies a consistent snapshot at any time without ever
//     making the program wait (the sequence counter below; segment_snapshot.h), and the copy is
//     valid wherever it lands (every link is an array index);
//   - whatever the program did is in the file however it ends: a crash, MPI_Abort or SIGKILL
//     leaves the latest state in the page cache, and the file holds it.
// Memory is bounded: every array has a fixed capacity set when the segment is created; an
// activity or edge that does not fit is counted as lost, never written past the end.
//
// The arrays hold what the writer saw, before names exist: a node's call path is its return
// addresses (Sikora et al. 2016 §3.3), resolved to function names afterwards from the process's
// memory map (DIR/tag/rank-<r>.maps) by `causeway tag` (tag/online).
//
//   const Header* h = reinterpret_cast<const Header*>(base);
//   const Node* nodes = At<Node>(base, h->nodes_offset);
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>

namespace cw::measure::tag_segment {

inline constexpr char kMagic[8] = {'C', 'W', 'T', 'A', 'G', 'S', 'E', 'G'};
inline constexpr uint32_t kVersion = 1;
inline constexpr uint32_t kNone = UINT32_MAX;

// The segment's arrays start on cache lines (64 bytes), the segment ends on a page.
inline constexpr uint64_t RoundUp(uint64_t n, uint64_t to) { return (n + to - 1) / to * to; }

// Count, sum, extremes and Welford's sum of squared deviations of a series (the population
// standard deviation is sqrt(m2 / count)), as tag::Stats.
struct Stats {
  uint64_t count;
  double total;
  double min;
  double max;
  double m2;
};

inline void Add(Stats& s, double value) {
  if (s.count == 0) {
    s.min = s.max = value;
  } else {
    if (value < s.min) s.min = value;
    if (value > s.max) s.max = value;
  }
  const double before = s.count == 0 ? 0 : s.total / static_cast<double>(s.count);
  ++s.count;
  s.total += value;
  const double after = s.total / static_cast<double>(s.count);
  s.m2 += (value - before) * (value - after);
}

enum class NodeKind : uint8_t { kStart, kEnd, kMpi, kRegion, kLoopEntry, kLoopExit };
enum class EdgeKind : uint8_t { kFlow, kCompletion, kMessageOut, kMessageIn };
enum class Via : uint8_t { kPointToPoint, kRootLink, kRootList };

// How the process's graph ended, if it did.
enum class RunState : uint32_t {
  kRunning = 1,
  kEnded = 2,      // MPI_Finalize
  kAborted = 3,    // MPI_Abort
  kSignalled = 4,  // a fatal signal (Header::signal)
  kExited = 5,     // exit() without MPI_Finalize
};

// A call-path frame: a return address, or an open user region (the top bit set; the low bits
// are the offset of its name in the name pool, and the region sits at `depth` return addresses
// from the outermost frame: where it was begun).
struct Frame {
  uint64_t address;
  uint32_t depth;
  uint32_t reserved;
};
inline constexpr uint64_t kRegionFrame = 1ull << 63;

struct Node {
  NodeKind kind;
  uint8_t truncated;  // the stack was deeper than the frames kept; the outermost are missing
  uint16_t reserved;
  uint32_t name;         // offset of the activity's name in the name pool ("MPI_Send", a region)
  uint32_t first_frame;  // the call path, outermost first: frames[first_frame, +frame_count)
  uint32_t frame_count;
  uint64_t key;         // hash of (kind, name, frames): the writer's lookup key
  uint64_t iterations;  // loop_entry nodes: iterations marked by causeway_loop_iteration
  Stats time;           // per occurrence: exit minus entry, in ticks
};

struct Edge {
  EdgeKind kind;
  Via via;
  uint16_t reserved;
  // Node ids; a message_in edge's `from` is the sender's node in the sender's segment (kNone:
  // unknown), a message_out edge has no `to`.
  uint32_t from;
  uint32_t to;
  uint32_t peer;     // message edges: the partner's rank in MPI_COMM_WORLD
  uint32_t message;  // message edges: index into the message array
  uint32_t reserved2;
  Stats time;
};

inline constexpr int kSizeBuckets = 48;  // as tag::kSizeBuckets: 0 bytes, then [2^(b-1), 2^b)
inline int SizeBucket(uint64_t bytes) {
  if (bytes == 0) return 0;
  const int b = 64 - __builtin_clzll(bytes);
  return b < kSizeBuckets ? b : kSizeBuckets - 1;
}

// What a message edge has beyond its time.
struct Message {
  uint64_t bytes;
  Stats delta_t;  // message_in: the sender's entry minus the receiving call's, in ticks
  uint64_t late_senders;
  double late_sender_ticks;
  uint64_t late_receivers;
  double late_receiver_ticks;
  uint64_t size_histogram[kSizeBuckets];
};

// Causal execution paths (Sikora et al. 2016 §3.7) of the loops the program marks: each distinct
// sequence of (activity, partner) steps an iteration took, with the iterations that took it.
struct PathStep {
  uint32_t node;
  uint32_t peer;  // world rank, or kNone for an activity without messages
};
struct Path {
  uint32_t loop;  // the loop_entry node
  uint32_t first_step;
  uint32_t step_count;
  uint32_t truncated;  // the iteration had more steps than a path keeps
  uint64_t key;        // hash of (loop, steps): the writer's lookup key
  Stats time;          // per iteration: from its marker to the next (or to the loop's end)
};
inline constexpr uint32_t kMaxPathSteps = 256;

struct Header {
  char magic[8];
  uint32_t version;
  uint32_t header_bytes;
  // Odd while the writer changes the graph. A reader copies between two equal even readings.
  std::atomic<uint64_t> sequence;
  int32_t rank;  // in MPI_COMM_WORLD
  int32_t size;
  int32_t pid;
  std::atomic<uint32_t> state;  // RunState
  int32_t signal;
  uint32_t recursion_depth;  // return addresses kept per recurring call site (0: all)
  // Time: ticks of the writer's timer. Two calibration points (ticks, CLOCK_MONOTONIC ns) give
  // their rate: the first when the graph began, the latest refreshed as the program runs.
  uint64_t start_ticks;
  uint64_t last_ticks;  // the latest activity's exit
  uint64_t calibration_ticks[2];
  uint64_t calibration_ns[2];
  // This process's clock minus rank 0's, in ticks, measured at MPI_Init: the timestamps that
  // travel with messages are moved onto rank 0's clock so that DeltaT compares like with like.
  int64_t clock_offset;
  // The arrays: where they start (bytes from the start of the mapping), how many entries fit
  // and how many are used.
  uint64_t nodes_offset, edges_offset, messages_offset, frames_offset, names_offset;
  uint32_t node_capacity, edge_capacity, message_capacity, frame_capacity, name_capacity;
  uint32_t node_count, edge_count, message_count, frame_count, name_bytes;
  uint64_t paths_offset, steps_offset;
  uint32_t path_capacity, step_capacity;
  uint32_t path_count, step_count;
  uint64_t segment_bytes;
  // Activities, edges and messages that found their array full, and MPI calls of threads
  // other than the one that initialised MPI (their calls are not in the graph).
  uint64_t lost_nodes, lost_edges, lost_messages;
  uint64_t lost_paths;  // iterations whose new path found the path or step array full
  // The tool's own time in MPI calls (the stack walk, the piggybacks, the graph's updates),
  // in ticks: what recording the graph added to the process's run.
  uint64_t tool_ticks;
  uint64_t other_thread_calls;
  // The update routine's state (Sikora et al. 2016 §3.4): the previous activity and its exit.
  uint32_t recent;
  uint32_t reserved;
  uint64_t recent_exit;
};

inline constexpr uint32_t kHeaderBytes = 4096;
static_assert(sizeof(Header) <= kHeaderBytes);

template <typename T>
const T* At(const void* base, uint64_t offset) {
  return reinterpret_cast<const T*>(static_cast<const char*>(base) + offset);
}
template <typename T>
T* At(void* base, uint64_t offset) {
  return reinterpret_cast<T*>(static_cast<char*>(base) + offset);
}

struct Capacities {
  uint32_t nodes = 16384;
  uint32_t edges = 65536;
  uint32_t messages = 16384;
  uint32_t frames = 262144;
  uint32_t names = 262144;  // bytes
  uint32_t paths = 4096;
  uint32_t steps = 262144;
};

// The size of a segment with these capacities, and its arrays' offsets written into `header`.
uint64_t Layout(const Capacities& capacities, Header& header);

}  // namespace cw::measure::tag_segment
