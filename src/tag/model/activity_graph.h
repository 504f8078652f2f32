// The task activity graph (TAG) of one process (Sikora et al. 2016, Sikora et al.): what the
// process did, aggregated by structure instead of by time.
//
// A node is one activity reached through one call path: an MPI call ("main/solve/MPI_Send" is
// one node however often it runs), a user region chosen as a target, a loop entry or exit
// marker, or the process's start and end. Edges:
//   flow         consecutive activities: the computation between them (from the exit of one to
//                the entry of the next)
//   completion   from a completion call (MPI_Wait...) to the non-blocking call it completed
//   message_out  on a sending node, one per destination rank
//   message_in   on a receiving node, one per (source rank, the sender's node): the piggybacked
//                node id of Sikora et al. 2016 §4.1, which the PTAG turns into inter-process edges
// Every node and edge aggregates its occurrences into Stats, so the graph's size depends on the
// program's structure, not on how long it ran.
//
//   ProcessGraph g = ...;                 // tag/build (offline) or the tracer (online)
//   for (const Edge& e : g.edges) if (e.kind == EdgeKind::kFlow && e.back) ...   // loop iterations
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace cw::tag {

inline constexpr uint32_t kNoNode = UINT32_MAX;
inline constexpr uint32_t kNoRank = UINT32_MAX;

// Count, sum, extremes and spread of a series of values, updated in O(1) (Welford's method,
// which stays accurate where a sum of squares would cancel). The standard deviation is the
// population one: the values are every occurrence, not a sample of them.
struct Stats {
  uint64_t count = 0;
  double total = 0;
  double min = 0;
  double max = 0;
  double m2 = 0;  // sum of squared deviations from the running mean

  void Add(double value);
  // Combines the statistics of two disjoint series (Chan et al.'s pairwise update).
  void Merge(const Stats& other);
  double mean() const { return count == 0 ? 0 : total / static_cast<double>(count); }
  double stddev() const;
  bool operator==(const Stats&) const = default;
};

enum class NodeKind : uint8_t { kStart, kEnd, kMpi, kRegion, kLoopEntry, kLoopExit };
enum class EdgeKind : uint8_t { kFlow, kCompletion, kMessageOut, kMessageIn };

// How a message edge came about: a point-to-point message, or Sikora et al. 2016 §4.5's forms for
// collectives. A one-to-all member links to its root; the root of an all-to-one operation, and
// the designated root (communicator rank 0) of a rootless one, lists every other member.
enum class MessageVia : uint8_t { kPointToPoint, kRootLink, kRootList };

const char* NodeKindName(NodeKind kind);
const char* EdgeKindName(EdgeKind kind);
const char* MessageViaName(MessageVia via);

// Message sizes in log2 buckets: bucket 0 holds empty messages, bucket b >= 1 sizes in
// [2^(b-1), 2^b); the last bucket is open above.
inline constexpr int kSizeBuckets = 48;
int SizeBucket(uint64_t bytes);

struct Node {
  NodeKind kind = NodeKind::kMpi;
  std::string name;      // the region, e.g. "MPI_Send"; "start" and "end" for those nodes
  std::string callpath;  // the region path from the root, e.g. "main/f1/foo/MPI_Send"
  // Online graphs: where in its function the activity was called ("exchange+0x2a"); two calls
  // of one MPI function in one function are two nodes (Sikora et al. 2016 §3.3). Empty for graphs
  // built from a trace, which records no call sites.
  std::string callsite;
  Stats time;               // duration of each occurrence, exit minus entry (0 for markers)
  uint64_t iterations = 0;  // loop_entry: the iterations its loop marked (0 if it marks none)
};

// A node's name for people and for matching nodes across processes: its call path, and its call
// site where it has one ("main/MPI_Barrier @ main+0x52").
std::string NodeLabel(const Node& node);

struct Edge {
  EdgeKind kind = EdgeKind::kFlow;
  // Node ids. A message_in edge's `from` is the sender's node in the TAG of `peer` (kNoNode if
  // the sender is unknown); a message_out edge has no `to` (the receiver's node is the
  // receiver's to know).
  uint32_t from = kNoNode;
  uint32_t to = kNoNode;
  // Message edges: the partner's rank and location (the TAG it belongs to).
  uint32_t peer = kNoRank;
  uint32_t peer_location = kNoRank;
  MessageVia via = MessageVia::kPointToPoint;
  // flow: the computation between the two activities; completion: from the end of the
  // starting call to the start of the completing call; message edges: the duration of the call
  // that sent, or completed the receive.
  Stats time;
  uint64_t bytes = 0;
  std::array<uint64_t, kSizeBuckets> size_histogram{};
  // message_in: the sender's entry minus the receiver's (the entry of the call that completed
  // the receive): positive means the sender came late.
  Stats delta_t;
  // message_in: the messages whose sender came late (delta_t > 0), with the wait that caused
  // in the receiving call (delta_t, at most the call's duration), and those whose receive
  // began after the send (delta_t < 0), with by how much.
  uint64_t late_senders = 0;
  double late_sender_ticks = 0;
  uint64_t late_receivers = 0;
  double late_receiver_ticks = 0;
  bool back = false;  // flow: returns to an earlier activity (a loop iteration), set by MarkLoops
};

// A causal execution path (Sikora et al. 2016 §3.7) of a loop the program marked: the sequence of
// its activities in one iteration, each with the partner of every message it sent or received (a
// step per message, or one without a partner), in order. Identical sequences are one path.
struct PathStep {
  uint32_t node = kNoNode;
  uint32_t peer = kNoRank;  // the partner's rank; kNoRank for an activity without messages
  bool operator==(const PathStep&) const = default;
  auto operator<=>(const PathStep&) const = default;
};
struct CausalPath {
  uint32_t loop = kNoNode;  // the loop_entry node
  std::vector<PathStep> steps;
  bool truncated = false;  // the iteration had more steps than a path keeps (kMaxPathSteps)
  Stats time;              // per iteration that took this path: its duration
};
inline constexpr uint32_t kMaxPathSteps = 256;

struct ProcessGraph {
  uint32_t rank = kNoRank;
  uint32_t location = kNoRank;
  std::string location_name;
  double ticks_per_second = 1;
  std::vector<Node> nodes;  // node 0 is start; end is appended when the process ends
  std::vector<Edge> edges;
  std::vector<CausalPath> paths;  // by loop, then in the order they were first taken

  // The time the process spent from start to end: its nodes' time plus its flow edges' time.
  double TotalTicks() const;
  double Seconds(double ticks) const { return ticks / ticks_per_second; }
};

}  // namespace cw::tag
