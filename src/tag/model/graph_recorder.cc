#include "tag/model/graph_recorder.h"

#include <algorithm>
#include <utility>

namespace cw::tag {

size_t GraphRecorder::EdgeKeyHash::operator()(const EdgeKey& k) const {
  uint64_t h = (static_cast<uint64_t>(k.from) << 32) ^ k.to;
  h ^= (static_cast<uint64_t>(k.peer_location) << 16) * 0x9e3779b97f4a7c15ULL;
  h ^= (static_cast<uint64_t>(k.kind) << 8 | static_cast<uint64_t>(k.via)) * 0xff51afd7ed558ccdULL;
  return static_cast<size_t>(h ^ (h >> 29));
}

GraphRecorder::GraphRecorder(uint32_t rank, uint32_t location, std::string location_name,
                             double ticks_per_second, uint64_t start_time) {
  graph_.rank = rank;
  graph_.location = location;
  graph_.location_name = std::move(location_name);
  graph_.ticks_per_second = ticks_per_second;
  recent_ = NodeFor(kStartKey, NodeKind::kStart, "start", "start");
  graph_.nodes[recent_].time.Add(0);
  recent_exit_ = start_time;
}

uint32_t GraphRecorder::FindNode(uint64_t key) const {
  auto it = node_of_key_.find(key);
  return it == node_of_key_.end() ? kNoNode : it->second;
}

uint32_t GraphRecorder::NodeFor(uint64_t key, NodeKind kind, std::string_view name,
                                std::string_view callpath) {
  auto [it, inserted] = node_of_key_.try_emplace(key, static_cast<uint32_t>(graph_.nodes.size()));
  if (inserted) {
    Node& n = graph_.nodes.emplace_back();
    n.kind = kind;
    n.name = name;
    n.callpath = callpath;
  }
  return it->second;
}

Edge& GraphRecorder::EdgeFor(const EdgeKey& key, uint32_t peer) {
  auto [it, inserted] = edge_of_key_.try_emplace(key, static_cast<uint32_t>(graph_.edges.size()));
  if (inserted) {
    Edge& e = graph_.edges.emplace_back();
    e.kind = key.kind;
    e.via = key.via;
    e.from = key.from;
    e.to = key.to;
    e.peer = peer;
    e.peer_location = key.peer_location;
  }
  return graph_.edges[it->second];
}

void GraphRecorder::Visit(uint32_t node, uint64_t entry, uint64_t exit) {
  // A clock that went backwards between two activities (a damaged trace) gives the edge no
  // time rather than a huge unsigned one.
  double gap = entry >= recent_exit_ ? static_cast<double>(entry - recent_exit_) : 0;
  EdgeFor({EdgeKind::kFlow, MessageVia::kPointToPoint, recent_, node, kNoRank}, kNoRank)
      .time.Add(gap);
  graph_.nodes[node].time.Add(exit >= entry ? static_cast<double>(exit - entry) : 0);
  recent_ = node;
  recent_exit_ = std::max(exit, entry);
}

void GraphRecorder::Complete(uint32_t completion, uint32_t start, double gap) {
  EdgeFor({EdgeKind::kCompletion, MessageVia::kPointToPoint, completion, start, kNoRank}, kNoRank)
      .time.Add(gap);
}

void GraphRecorder::MessageOut(uint32_t node, uint32_t peer, uint32_t peer_location, uint64_t bytes,
                               double time) {
  Edge& e = EdgeFor(
      {EdgeKind::kMessageOut, MessageVia::kPointToPoint, node, kNoNode, peer_location}, peer);
  e.time.Add(time);
  e.bytes += bytes;
  ++e.size_histogram[static_cast<size_t>(SizeBucket(bytes))];
}

void GraphRecorder::MessageIn(uint32_t node, uint32_t peer, uint32_t peer_location, uint32_t sender,
                              MessageVia via, uint64_t bytes, double time, double delta_t) {
  Edge& e = EdgeFor({EdgeKind::kMessageIn, via, sender, node, peer_location}, peer);
  e.time.Add(time);
  e.bytes += bytes;
  ++e.size_histogram[static_cast<size_t>(SizeBucket(bytes))];
  e.delta_t.Add(delta_t);
  if (delta_t > 0) {
    ++e.late_senders;
    e.late_sender_ticks += std::min(delta_t, time);
  } else if (delta_t < 0) {
    ++e.late_receivers;
    e.late_receiver_ticks -= delta_t;
  }
}

void GraphRecorder::LoopBegin(uint32_t loop_entry) {
  OpenLoop& loop = loops_.emplace_back();
  loop.entry = loop_entry;
}

void GraphRecorder::Iteration(uint64_t at) {
  if (loops_.empty()) return;
  OpenLoop& loop = loops_.back();
  ++graph_.nodes[loop.entry].iterations;
  EndIteration(loop, at);
  loop.in_iteration = true;
  loop.began = at;
}

void GraphRecorder::LoopEnd(uint64_t at) {
  if (loops_.empty()) return;
  EndIteration(loops_.back(), at);
  loops_.pop_back();
}

void GraphRecorder::Step(uint32_t node, uint32_t peer) {
  for (OpenLoop& loop : loops_) {
    if (!loop.in_iteration) continue;
    if (loop.steps.size() < kMaxPathSteps) {
      loop.steps.push_back({node, peer});
    } else {
      loop.truncated = true;
    }
  }
}

void GraphRecorder::EndIteration(OpenLoop& loop, uint64_t at) {
  if (!loop.in_iteration) return;
  auto [it, inserted] =
      path_of_.try_emplace({loop.entry, loop.steps}, static_cast<uint32_t>(graph_.paths.size()));
  if (inserted) {
    CausalPath& p = graph_.paths.emplace_back();
    p.loop = loop.entry;
    p.steps = loop.steps;
  }
  CausalPath& path = graph_.paths[it->second];
  path.truncated |= loop.truncated;
  path.time.Add(at >= loop.began ? static_cast<double>(at - loop.began) : 0);
  loop.steps.clear();
  loop.truncated = false;
  loop.in_iteration = false;
}

void GraphRecorder::End(uint64_t end_time) {
  // Loops still open (a process that ended inside one) end where it did.
  while (!loops_.empty()) LoopEnd(std::max(end_time, recent_exit_));
  uint32_t end = NodeFor(kEndKey, NodeKind::kEnd, "end", "end");
  uint64_t at = std::max(end_time, recent_exit_);
  Visit(end, at, at);
}

}  // namespace cw::tag
