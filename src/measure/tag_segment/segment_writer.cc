#include "measure/tag_segment/segment_writer.h"

#include <cstring>

namespace cw::measure::tag_segment {
namespace {

uint64_t Mix(uint64_t x) {  // splitmix64's finaliser
  x ^= x >> 30;
  x *= 0xbf58476d1ce4e5b9ULL;
  x ^= x >> 27;
  x *= 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

// Open addressing tables hold twice the capacity, rounded up to a power of two: probes stay
// short while the array fills.
size_t TableSize(uint32_t capacity) {
  size_t size = 16;
  while (size < 2ull * capacity) size <<= 1;
  return size;
}

uint64_t EdgeKey(EdgeKind kind, Via via, uint32_t from, uint32_t to, uint32_t peer) {
  uint64_t h = Mix((static_cast<uint64_t>(from) << 32) | to);
  h = Mix(h ^ ((static_cast<uint64_t>(peer) << 16) | (static_cast<uint64_t>(kind) << 8) |
               static_cast<uint64_t>(via)));
  return h;
}

uint64_t StringKey(std::string_view s) {
  uint64_t h = 0xcbf29ce484222325ULL;  // FNV-1a
  for (char c : s) h = (h ^ static_cast<unsigned char>(c)) * 0x100000001b3ULL;
  return Mix(h);
}

}  // namespace

uint64_t Layout(const Capacities& c, Header& h) {
  uint64_t at = kHeaderBytes;
  auto place = [&at](uint64_t& offset, uint64_t bytes) {
    offset = at;
    at = RoundUp(at + bytes, 64);
  };
  place(h.nodes_offset, uint64_t{c.nodes} * sizeof(Node));
  place(h.edges_offset, uint64_t{c.edges} * sizeof(Edge));
  place(h.messages_offset, uint64_t{c.messages} * sizeof(Message));
  place(h.frames_offset, uint64_t{c.frames} * sizeof(Frame));
  place(h.names_offset, c.names);
  place(h.paths_offset, uint64_t{c.paths} * sizeof(Path));
  place(h.steps_offset, uint64_t{c.steps} * sizeof(PathStep));
  h.path_capacity = c.paths;
  h.step_capacity = c.steps;
  h.node_capacity = c.nodes;
  h.edge_capacity = c.edges;
  h.message_capacity = c.messages;
  h.frame_capacity = c.frames;
  h.name_capacity = c.names;
  h.segment_bytes = RoundUp(at, 4096);
  return h.segment_bytes;
}

uint64_t NodeKey(NodeKind kind, uint32_t name, const Frame* frames, uint32_t count) {
  uint64_t h = Mix((static_cast<uint64_t>(kind) << 32) | name);
  for (uint32_t i = 0; i < count; ++i) {
    h = Mix(h ^ frames[i].address) + frames[i].depth;
  }
  return h;
}

SegmentWriter::SegmentWriter(void* memory, const Capacities& capacities, int32_t rank, int32_t size,
                             uint64_t start_ticks)
    : header_(static_cast<Header*>(memory)) {
  Header& h = *header_;
  std::memcpy(h.magic, kMagic, sizeof kMagic);
  h.version = kVersion;
  h.header_bytes = kHeaderBytes;
  h.sequence.store(0, std::memory_order_relaxed);
  h.rank = rank;
  h.size = size;
  h.state.store(static_cast<uint32_t>(RunState::kRunning), std::memory_order_relaxed);
  h.start_ticks = h.last_ticks = start_ticks;
  Layout(capacities, h);
  nodes_ = At<Node>(memory, h.nodes_offset);
  edges_ = At<Edge>(memory, h.edges_offset);
  messages_ = At<Message>(memory, h.messages_offset);
  frames_ = At<Frame>(memory, h.frames_offset);
  names_ = At<char>(memory, h.names_offset);
  paths_ = At<Path>(memory, h.paths_offset);
  steps_ = At<PathStep>(memory, h.steps_offset);
  path_slots_.assign(TableSize(h.path_capacity), 0);
  loops_.reserve(8);
  node_slots_.assign(TableSize(h.node_capacity), 0);
  edge_slots_.assign(TableSize(h.edge_capacity), 0);
  name_slots_.assign(TableSize(h.name_capacity / 8 + 1), 0);
  Begin();
  const uint32_t start = NodeFor(NodeKind::kStart, Name("start"), nullptr, 0);
  if (start != kNone) Add(nodes_[start].time, 0);
  h.recent = start;
  h.recent_exit = start_ticks;
  Commit();
}

void SegmentWriter::Begin() {
  // Odd: a reader that sees this, or sees the counter change while it copies, tries again.
  header_->sequence.fetch_add(1, std::memory_order_relaxed);
  std::atomic_thread_fence(std::memory_order_release);
}

void SegmentWriter::Commit() { header_->sequence.fetch_add(1, std::memory_order_release); }

uint32_t SegmentWriter::Name(std::string_view name) {
  Header& h = *header_;
  const size_t mask = name_slots_.size() - 1;
  for (size_t slot = StringKey(name) & mask;; slot = (slot + 1) & mask) {
    const uint32_t entry = name_slots_[slot];
    if (entry == 0) break;
    const char* stored = names_ + (entry - 1);
    if (std::strlen(stored) == name.size() && std::memcmp(stored, name.data(), name.size()) == 0) {
      return entry - 1;
    }
  }
  if (uint64_t{h.name_bytes} + name.size() + 1 > h.name_capacity) return kNone;
  const uint32_t offset = h.name_bytes;
  std::memcpy(names_ + offset, name.data(), name.size());
  names_[offset + name.size()] = '\0';
  h.name_bytes = static_cast<uint32_t>(offset + name.size() + 1);
  for (size_t slot = StringKey(name) & mask;; slot = (slot + 1) & mask) {
    if (name_slots_[slot] == 0) {
      name_slots_[slot] = offset + 1;
      break;
    }
  }
  return offset;
}

size_t SegmentWriter::Slot(uint64_t key, NodeKind kind, uint32_t name, const Frame* frames,
                           uint32_t count) const {
  const size_t mask = node_slots_.size() - 1;
  for (size_t slot = key & mask;; slot = (slot + 1) & mask) {
    const uint32_t entry = node_slots_[slot];
    if (entry == 0) return slot;
    const Node& n = nodes_[entry - 1];
    if (n.key == key && n.kind == kind && n.name == name && n.frame_count == count &&
        (count == 0 || std::memcmp(frames_ + n.first_frame, frames, count * sizeof(Frame)) == 0)) {
      return slot;
    }
  }
}

uint32_t SegmentWriter::FindNode(NodeKind kind, uint32_t name, const Frame* frames,
                                 uint32_t count) const {
  const uint32_t entry =
      node_slots_[Slot(NodeKey(kind, name, frames, count), kind, name, frames, count)];
  return entry == 0 ? kNone : entry - 1;
}

uint32_t SegmentWriter::NodeFor(NodeKind kind, uint32_t name, const Frame* frames, uint32_t count,
                                bool truncated) {
  Header& h = *header_;
  const uint64_t key = NodeKey(kind, name, frames, count);
  const size_t slot = Slot(key, kind, name, frames, count);
  if (node_slots_[slot] != 0) return node_slots_[slot] - 1;
  if (h.node_count == h.node_capacity || uint64_t{h.frame_count} + count > h.frame_capacity ||
      name == kNone) {
    ++h.lost_nodes;
    return kNone;
  }
  const uint32_t id = h.node_count;
  Node& n = nodes_[id];
  n.kind = kind;
  n.truncated = truncated ? 1 : 0;
  n.name = name;
  n.first_frame = h.frame_count;
  n.frame_count = count;
  n.key = key;
  if (count > 0) std::memcpy(frames_ + h.frame_count, frames, count * sizeof(Frame));
  h.frame_count += count;
  node_slots_[slot] = id + 1;
  // Published last: a reader copies node_count entries, and this one is complete now.
  h.node_count = id + 1;
  return id;
}

Edge* SegmentWriter::EdgeFor(EdgeKind kind, Via via, uint32_t from, uint32_t to, uint32_t peer) {
  Header& h = *header_;
  const bool message = kind == EdgeKind::kMessageIn || kind == EdgeKind::kMessageOut;
  const size_t mask = edge_slots_.size() - 1;
  size_t slot = EdgeKey(kind, via, from, to, peer) & mask;
  for (;; slot = (slot + 1) & mask) {
    const uint32_t entry = edge_slots_[slot];
    if (entry == 0) break;
    Edge& e = edges_[entry - 1];
    if (e.kind == kind && e.via == via && e.from == from && e.to == to && e.peer == peer) return &e;
  }
  if (h.edge_count == h.edge_capacity || (message && h.message_count == h.message_capacity)) {
    ++(message && h.edge_count < h.edge_capacity ? h.lost_messages : h.lost_edges);
    return nullptr;
  }
  const uint32_t id = h.edge_count;
  Edge& e = edges_[id];
  e.kind = kind;
  e.via = via;
  e.from = from;
  e.to = to;
  e.peer = peer;
  e.message = message ? h.message_count++ : kNone;
  edge_slots_[slot] = id + 1;
  h.edge_count = id + 1;
  return &e;
}

void SegmentWriter::Visit(uint32_t node, uint64_t entry, uint64_t exit, uint64_t resume) {
  VisitCall(node, entry, entry, exit);
  if (node != kNone) Resume(resume, 0);
}

void SegmentWriter::Resume(uint64_t at, uint64_t tool_ticks) {
  Header& h = *header_;
  if (at > h.recent_exit) h.recent_exit = at;
  h.last_ticks = h.recent_exit;
  h.tool_ticks += tool_ticks;
}

void SegmentWriter::VisitCall(uint32_t node, uint64_t arrive, uint64_t entry, uint64_t exit) {
  Header& h = *header_;
  if (node == kNone) return;  // lost: the flow goes on from the previous activity
  // A timer that went backwards (it does not, but a bad calibration must not make a huge
  // unsigned gap) gives no time.
  const double gap = arrive >= h.recent_exit ? static_cast<double>(arrive - h.recent_exit) : 0;
  if (h.recent != kNone) {
    if (Edge* e = EdgeFor(EdgeKind::kFlow, Via::kPointToPoint, h.recent, node, kNone)) {
      Add(e->time, gap);
    }
  }
  Add(nodes_[node].time, exit >= entry ? static_cast<double>(exit - entry) : 0);
  h.recent = node;
  h.recent_exit = exit;
  h.last_ticks = exit;
}

void SegmentWriter::LoopBegin(uint32_t loop_entry) {
  OpenLoop& loop = loops_.emplace_back();
  loop.entry = loop_entry;
  loop.steps.reserve(kMaxPathSteps);
}

void SegmentWriter::Iteration(uint64_t at) {
  if (loops_.empty()) return;
  OpenLoop& loop = loops_.back();
  if (loop.entry != kNone) ++nodes_[loop.entry].iterations;
  EndIteration(loop, at);
  loop.in_iteration = true;
  loop.began = at;
}

void SegmentWriter::LoopEnd(uint64_t at) {
  if (loops_.empty()) return;
  EndIteration(loops_.back(), at);
  loops_.pop_back();
}

void SegmentWriter::Step(uint32_t node, uint32_t peer) {
  if (node == kNone) return;
  for (OpenLoop& loop : loops_) {
    if (!loop.in_iteration) continue;
    if (loop.steps.size() < kMaxPathSteps) {
      loop.steps.push_back(PathStep{node, peer});
    } else {
      loop.truncated = true;
    }
  }
}

void SegmentWriter::EndIteration(OpenLoop& loop, uint64_t at) {
  if (!loop.in_iteration) return;
  loop.in_iteration = false;
  Header& h = *header_;
  const uint32_t count = static_cast<uint32_t>(loop.steps.size());
  uint64_t key = Mix(loop.entry);
  for (const PathStep& step : loop.steps)
    key = Mix(key ^ ((uint64_t{step.node} << 32) | step.peer));
  const size_t mask = path_slots_.size() - 1;
  size_t slot = key & mask;
  Path* path = nullptr;
  for (;; slot = (slot + 1) & mask) {
    const uint32_t entry = path_slots_[slot];
    if (entry == 0) break;
    Path& p = paths_[entry - 1];
    if (p.key == key && p.loop == loop.entry && p.step_count == count &&
        std::memcmp(steps_ + p.first_step, loop.steps.data(), count * sizeof(PathStep)) == 0) {
      path = &p;
      break;
    }
  }
  if (path == nullptr) {
    if (h.path_count == h.path_capacity || uint64_t{h.step_count} + count > h.step_capacity) {
      ++h.lost_paths;
      loop.steps.clear();
      loop.truncated = false;
      return;
    }
    path = &paths_[h.path_count];
    path->loop = loop.entry;
    path->first_step = h.step_count;
    path->step_count = count;
    path->key = key;
    if (count > 0) std::memcpy(steps_ + h.step_count, loop.steps.data(), count * sizeof(PathStep));
    h.step_count += count;
    path_slots_[slot] = ++h.path_count;
  }
  path->truncated |= loop.truncated ? 1u : 0u;
  Add(path->time, at >= loop.began ? static_cast<double>(at - loop.began) : 0);
  loop.steps.clear();
  loop.truncated = false;
}

void SegmentWriter::Complete(uint32_t completion, uint32_t start, double gap) {
  if (completion == kNone || start == kNone) return;
  if (Edge* e = EdgeFor(EdgeKind::kCompletion, Via::kPointToPoint, completion, start, kNone)) {
    Add(e->time, gap);
  }
}

void SegmentWriter::MessageOut(uint32_t node, uint32_t peer, uint64_t bytes, double time) {
  if (node == kNone) return;
  Edge* e = EdgeFor(EdgeKind::kMessageOut, Via::kPointToPoint, node, kNone, peer);
  if (e == nullptr) return;
  Add(e->time, time);
  Message& m = messages_[e->message];
  m.bytes += bytes;
  ++m.size_histogram[SizeBucket(bytes)];
}

void SegmentWriter::MessageIn(uint32_t node, uint32_t peer, uint32_t sender, Via via,
                              uint64_t bytes, double time, double delta_t) {
  if (node == kNone) return;
  Edge* e = EdgeFor(EdgeKind::kMessageIn, via, sender, node, peer);
  if (e == nullptr) return;
  Add(e->time, time);
  Message& m = messages_[e->message];
  m.bytes += bytes;
  ++m.size_histogram[SizeBucket(bytes)];
  Add(m.delta_t, delta_t);
  if (delta_t > 0) {
    ++m.late_senders;
    m.late_sender_ticks += delta_t < time ? delta_t : time;
  } else if (delta_t < 0) {
    ++m.late_receivers;
    m.late_receiver_ticks -= delta_t;
  }
}

void SegmentWriter::End(uint64_t at, RunState state) {
  Header& h = *header_;
  // Loops still open (the program ended inside one) end where it did.
  while (!loops_.empty()) LoopEnd(at >= h.recent_exit ? at : h.recent_exit);
  const uint32_t end = NodeFor(NodeKind::kEnd, Name("end"), nullptr, 0);
  const uint64_t when = at >= h.recent_exit ? at : h.recent_exit;
  Visit(end, when, when, when);
  h.state.store(static_cast<uint32_t>(state), std::memory_order_release);
}

void SegmentWriter::Calibrate(uint64_t ticks, uint64_t ns) {
  Header& h = *header_;
  if (h.calibration_ns[0] == 0) {
    h.calibration_ticks[0] = ticks;
    h.calibration_ns[0] = ns;
  }
  h.calibration_ticks[1] = ticks;
  h.calibration_ns[1] = ns;
}

}  // namespace cw::measure::tag_segment
