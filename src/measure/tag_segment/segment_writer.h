// Updates a task activity graph segment (layout.h) in constant time per activity: Sikora et al.
// 2016 §3.4's update routine (find or create the activity's node, add or update the flow edge from
// the previous activity, update both profiles) and §4's message and completion edges.
//
// One thread writes (the one that initialised MPI). Every change happens between Begin() and
// Commit(), which make the sequence counter odd and then even again, so that a reader copying
// the segment meanwhile knows to try again; the writer never waits for a reader. Lookups go
// through open-addressing tables in the writer's own memory, sized once from the capacities.
//
//   SegmentWriter w(memory, bytes, capacities, rank, size, now);
//   w.Begin();
//   uint32_t node = w.NodeFor(NodeKind::kMpi, w.Name("MPI_Send"), frames, n);
//   w.Visit(node, entry, exit);
//   w.MessageOut(node, dest_rank, bytes, exit - entry);
//   w.Commit();
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "measure/tag_segment/layout.h"

namespace cw::measure::tag_segment {

class SegmentWriter {
 public:
  // Lays out an empty graph (with its start node) in `memory`, which must hold
  // Layout(capacities) bytes and be zero-filled.
  SegmentWriter(void* memory, const Capacities& capacities, int32_t rank, int32_t size,
                uint64_t start_ticks);
  SegmentWriter(const SegmentWriter&) = delete;
  SegmentWriter& operator=(const SegmentWriter&) = delete;

  Header& header() { return *header_; }

  void Begin();
  void Commit();

  // The id of a name in the name pool (interned once: callers keep the ids of names they use
  // often); kNone if the pool is full.
  uint32_t Name(std::string_view name);

  // The node of (kind, name id, call path), kNone if there is none yet. Changes nothing: it
  // may run outside an update.
  uint32_t FindNode(NodeKind kind, uint32_t name, const Frame* frames, uint32_t count) const;
  // The node of (kind, name id, call path), created on first use (inside an update); kNone if
  // the node array is full (counted in Header::lost_nodes).
  uint32_t NodeFor(NodeKind kind, uint32_t name, const Frame* frames, uint32_t count,
                   bool truncated = false);

  // One occurrence of `node` from `entry` to `exit` following the previous activity (the flow
  // edge gets the time from the previous exit to `entry`). `resume` is when the program goes on
  // after the activity: later than `exit` by what the tool itself spent after the call, which
  // then counts neither in the node nor in the next flow edge.
  void Visit(uint32_t node, uint64_t entry, uint64_t exit, uint64_t resume);
  // An MPI call as the runtime times it: the program arrived at `arrive` (the flow edge ends
  // there), the call itself ran from `entry` to `exit`; the tool's own work before and after
  // (`arrive` to `entry`, and `exit` to the Resume() that follows) is nobody's.
  void VisitCall(uint32_t node, uint64_t arrive, uint64_t entry, uint64_t exit);
  // The program goes on at `at`; `tool_ticks` of the tool's own work are counted.
  void Resume(uint64_t at, uint64_t tool_ticks);
  // Loops the program marks (Sikora et al. 2016 §3.2, §3.7): the loop whose entry node is
  // `loop_entry` begins; an iteration of the innermost open loop begins at `at` (counted in its
  // entry node's Node::iterations, and ending the iteration before); the innermost loop ends at
  // `at`. Between them every Step() goes to the current iteration of each open loop, whose
  // sequence of steps becomes a causal path when the iteration ends.
  void LoopBegin(uint32_t loop_entry);
  void Iteration(uint64_t at);
  void LoopEnd(uint64_t at);
  void Step(uint32_t node, uint32_t peer);
  void Complete(uint32_t completion, uint32_t start, double gap);
  void MessageOut(uint32_t node, uint32_t peer, uint64_t bytes, double time);
  void MessageIn(uint32_t node, uint32_t peer, uint32_t sender, Via via, uint64_t bytes,
                 double time, double delta_t);

  // The end node, visited at `at`; the run state says how the program ended.
  void End(uint64_t at, RunState state);

  // Adds a calibration point (ticks, ns) as the latest one.
  void Calibrate(uint64_t ticks, uint64_t ns);

 private:
  struct OpenLoop {
    uint32_t entry = kNone;
    bool in_iteration = false;
    bool truncated = false;
    uint64_t began = 0;
    std::vector<PathStep> steps;
  };
  void EndIteration(OpenLoop& loop, uint64_t at);
  // The node's slot in the lookup table: where it is, or the empty slot where it would go.
  size_t Slot(uint64_t key, NodeKind kind, uint32_t name, const Frame* frames,
              uint32_t count) const;
  Edge* EdgeFor(EdgeKind kind, Via via, uint32_t from, uint32_t to, uint32_t peer);

  Header* header_;
  Node* nodes_;
  Edge* edges_;
  Message* messages_;
  Frame* frames_;
  char* names_;
  Path* paths_;
  PathStep* steps_;
  std::vector<OpenLoop> loops_;
  std::vector<uint32_t> path_slots_;
  // Writer-private lookup tables: slot -> id + 1 (0: empty).
  std::vector<uint32_t> node_slots_;
  std::vector<uint32_t> edge_slots_;
  std::vector<uint32_t> name_slots_;
};

// The key of a node: a hash over its kind, name id and frames, in order.
uint64_t NodeKey(NodeKind kind, uint32_t name, const Frame* frames, uint32_t count);

}  // namespace cw::measure::tag_segment
