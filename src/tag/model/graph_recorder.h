// Builds a ProcessGraph activity by activity, in the order the process executed them: the
// update routine of Sikora et al. 2016 §3.4 (find or create the node, add or update the flow edge
// from the previous activity, update both profiles) and §4's message and completion edges.
//
//   GraphRecorder r(rank, location, "rank 0", ticks_per_second, first_event_time);
//   uint32_t send = r.NodeFor(callpath_id, NodeKind::kMpi, "MPI_Send", "main/MPI_Send");
//   r.Visit(send, enter, leave);
//   r.MessageOut(send, /*peer=*/1, /*peer_location=*/1, bytes, leave - enter);
//   r.End(last_event_time);
//   ProcessGraph g = r.Take();
#pragma once

#include <cstdint>
#include <map>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "tag/model/activity_graph.h"

namespace cw::tag {

class GraphRecorder {
 public:
  GraphRecorder(uint32_t rank, uint32_t location, std::string location_name,
                double ticks_per_second, uint64_t start_time);

  // The node of the activity `key` (any number naming one activity on one call path in this
  // process, e.g. a call-path id), created with these names on first use.
  uint32_t NodeFor(uint64_t key, NodeKind kind, std::string_view name, std::string_view callpath);
  // The node of `key` if it exists, else kNoNode.
  uint32_t FindNode(uint64_t key) const;

  // One occurrence of `node` from `entry` to `exit` (equal for markers), following the previous
  // activity: the flow edge between them gets the time from the previous exit to this entry.
  void Visit(uint32_t node, uint64_t entry, uint64_t exit);
  // Marked loops (Sikora et al. 2016 §3.2, §3.7): the loop whose loop_entry node is `loop_entry`
  // begins at `at`; an iteration of the innermost open loop begins at `at` (ending the one before);
  // the innermost loop ends at `at`. Between them every activity is a step of the current
  // iteration's causal path, in each loop that is open.
  void LoopBegin(uint32_t loop_entry);
  void Iteration(uint64_t at);
  void LoopEnd(uint64_t at);
  // A step of the current iterations: `node` with the partner of one of its messages, or
  // kNoRank once for an activity without messages.
  void Step(uint32_t node, uint32_t peer);
  // `completion` completed a request that `start` began; `gap` is the time between them.
  void Complete(uint32_t completion, uint32_t start, double gap);
  void MessageOut(uint32_t node, uint32_t peer, uint32_t peer_location, uint64_t bytes,
                  double time);
  // `sender` is the sender's node in the TAG of `peer_location` (kNoNode if unknown): what
  // Sikora et al. 2016's piggyback carries with every message.
  void MessageIn(uint32_t node, uint32_t peer, uint32_t peer_location, uint32_t sender,
                 MessageVia via, uint64_t bytes, double time, double delta_t);

  // Visits the end node at `end_time`. Message edges may still be added afterwards (an offline
  // build adds the incoming ones once every sender's graph exists).
  void End(uint64_t end_time);
  // Hands the graph over; the recorder is empty afterwards.
  ProcessGraph Take() { return std::move(graph_); }
  const ProcessGraph& graph() const { return graph_; }

 private:
  struct EdgeKey {
    EdgeKind kind;
    MessageVia via;
    uint32_t from;
    uint32_t to;
    uint32_t peer_location;
    bool operator==(const EdgeKey&) const = default;
  };
  struct EdgeKeyHash {
    size_t operator()(const EdgeKey& k) const;
  };
  Edge& EdgeFor(const EdgeKey& key, uint32_t peer);

  struct OpenLoop {
    uint32_t entry;
    bool in_iteration = false;
    uint64_t began = 0;
    std::vector<PathStep> steps;
    bool truncated = false;
  };
  void EndIteration(OpenLoop& loop, uint64_t at);

  ProcessGraph graph_;
  std::vector<OpenLoop> loops_;
  std::map<std::pair<uint32_t, std::vector<PathStep>>, uint32_t> path_of_;
  std::unordered_map<uint64_t, uint32_t> node_of_key_;
  std::unordered_map<EdgeKey, uint32_t, EdgeKeyHash> edge_of_key_;
  uint32_t recent_ = 0;  // the start node until the first activity
  uint64_t recent_exit_ = 0;
};

// Node key of the start and end markers (no call path has them).
inline constexpr uint64_t kStartKey = UINT64_MAX;
inline constexpr uint64_t kEndKey = UINT64_MAX - 1;

}  // namespace cw::tag
