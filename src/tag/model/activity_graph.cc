#include "tag/model/activity_graph.h"

#include <algorithm>
#include <bit>
#include <cmath>

namespace cw::tag {

void Stats::Add(double value) {
  if (count == 0) {
    min = max = value;
  } else {
    min = std::min(min, value);
    max = std::max(max, value);
  }
  double old_mean = mean();
  ++count;
  total += value;
  m2 += (value - old_mean) * (value - mean());
}

void Stats::Merge(const Stats& other) {
  if (other.count == 0) return;
  if (count == 0) {
    *this = other;
    return;
  }
  double n_a = static_cast<double>(count);
  double n_b = static_cast<double>(other.count);
  double delta = other.mean() - mean();
  m2 += other.m2 + delta * delta * n_a * n_b / (n_a + n_b);
  count += other.count;
  total += other.total;
  min = std::min(min, other.min);
  max = std::max(max, other.max);
}

double Stats::stddev() const {
  if (count == 0) return 0;
  return std::sqrt(std::max(0.0, m2 / static_cast<double>(count)));
}

const char* NodeKindName(NodeKind kind) {
  switch (kind) {
    case NodeKind::kStart:
      return "start";
    case NodeKind::kEnd:
      return "end";
    case NodeKind::kMpi:
      return "mpi";
    case NodeKind::kRegion:
      return "region";
    case NodeKind::kLoopEntry:
      return "loop_entry";
    case NodeKind::kLoopExit:
      return "loop_exit";
  }
  return "?";
}

const char* EdgeKindName(EdgeKind kind) {
  switch (kind) {
    case EdgeKind::kFlow:
      return "flow";
    case EdgeKind::kCompletion:
      return "completion";
    case EdgeKind::kMessageOut:
      return "message_out";
    case EdgeKind::kMessageIn:
      return "message_in";
  }
  return "?";
}

const char* MessageViaName(MessageVia via) {
  switch (via) {
    case MessageVia::kPointToPoint:
      return "p2p";
    case MessageVia::kRootLink:
      return "root_link";
    case MessageVia::kRootList:
      return "root_list";
  }
  return "?";
}

int SizeBucket(uint64_t bytes) {
  if (bytes == 0) return 0;
  int bucket =
      static_cast<int>(std::bit_width(bytes));  // 1 for 1 byte, 2 for 2..3, 3 for 4..7, ...
  return std::min(bucket, kSizeBuckets - 1);
}

double ProcessGraph::TotalTicks() const {
  double total = 0;
  for (const Node& n : nodes) total += n.time.total;
  for (const Edge& e : edges) total += e.kind == EdgeKind::kFlow ? e.time.total : 0;
  return total;
}

std::string NodeLabel(const Node& node) {
  return node.callsite.empty() ? node.callpath : node.callpath + " @ " + node.callsite;
}

}  // namespace cw::tag
