#include "tag/build/trace_graphs.h"

#include <fnmatch.h>

#include <algorithm>
#include <atomic>
#include <string_view>
#include <unordered_map>
#include <utility>

#include "base/parallel.h"
#include "tag/model/graph_recorder.h"
#include "tag/model/loops.h"

namespace cw::tag {
namespace {

using trace::EventKind;
using trace::kNone;

// Loop markers: a region of the loop role (a loop's begin and end) and an iteration marker (a
// zero-length artificial region of the user's, include/causeway's causeway_loop_iteration).
// Neither is part of the call paths of what runs inside the loop: the task activity graph
// recorded online walks the stack, which holds no loops, and the two must agree.
bool IsLoopRegion(const trace::Region& r) { return r.role == trace::RegionRole::kLoop; }
bool IsIterationMarker(const trace::Region& r) {
  return r.role == trace::RegionRole::kArtificial && r.paradigm == trace::Paradigm::kUser;
}

// Call paths with recursion folded and loop markers left out: a tree of its own over the
// trace's call tree.
struct FoldedPaths {
  std::vector<uint32_t> of_callpath;  // trace call path -> folded path (its children's parent)
  std::vector<uint32_t> own;          // trace call path -> the folded path naming its node
  std::vector<std::string> name;      // folded path -> "main/solve/MPI_Send"
  uint64_t folded = 0;
};

FoldedPaths FoldCallpaths(const trace::Trace& t, uint32_t depth) {
  const trace::CallTree& tree = t.call_tree;
  FoldedPaths f;
  f.of_callpath.resize(tree.size());
  f.own.resize(tree.size());
  std::vector<trace::CallTree::Node> nodes;
  std::unordered_map<uint64_t, uint32_t> index;
  std::vector<uint32_t> occurrences;
  std::vector<bool> changed(tree.size(), false);  // the folded path differs from the call path
  auto intern = [&](uint32_t region, uint32_t parent) {
    uint64_t key = (static_cast<uint64_t>(parent) << 32) | region;
    auto [it, inserted] = index.try_emplace(key, static_cast<uint32_t>(nodes.size()));
    if (inserted) {
      nodes.push_back({region, parent});
      std::string name(t.defs.RegionName(region));
      f.name.push_back(parent == kNone ? name : f.name[parent] + "/" + name);
    }
    return it->second;
  };
  for (uint32_t c = 0; c < tree.size(); ++c) {  // parents come before their children
    uint32_t parent = tree.parent(c) == kNone ? kNone : f.of_callpath[tree.parent(c)];
    uint32_t region = tree.region(c);
    const bool inherited = tree.parent(c) != kNone && changed[tree.parent(c)];
    if (region < t.defs.regions.size() &&
        (IsLoopRegion(t.defs.regions[region]) || IsIterationMarker(t.defs.regions[region]))) {
      // Transparent: what runs inside has the parent's path; the marker's own node is named
      // by the parent's path and its name.
      f.of_callpath[c] = parent;
      f.own[c] = intern(region, parent);
      changed[c] = inherited;
      continue;
    }
    occurrences.clear();
    for (uint32_t p = parent; p != kNone; p = nodes[p].parent) {
      if (nodes[p].region == region) occurrences.push_back(p);  // deepest first
    }
    if (depth > 0 && occurrences.size() >= depth) {
      // A call deeper than the limit is a call at the limit's depth (the depth-th occurrence
      // from the root).
      f.of_callpath[c] = f.own[c] = occurrences[occurrences.size() - depth];
      changed[c] = true;
      ++f.folded;
      continue;
    }
    if (inherited) {
      changed[c] = true;
      ++f.folded;
    }
    f.of_callpath[c] = f.own[c] = intern(region, parent);
  }
  return f;
}

// One target activity of a location: the events [first, last] (its Enter and Leave) and its
// node.
struct Activity {
  uint32_t first;
  uint32_t last;
  uint32_t node;
};

// The activity holding event `event`, or nullptr.
const Activity* ActivityOf(const std::vector<Activity>& activities, uint32_t event) {
  auto it = std::upper_bound(activities.begin(), activities.end(), event,
                             [](uint32_t e, const Activity& a) { return e < a.first; });
  if (it == activities.begin()) return nullptr;
  --it;
  return event <= it->last ? &*it : nullptr;
}

uint64_t NodeKey(NodeKind kind, uint32_t folded_path) {
  return (static_cast<uint64_t>(kind) << 32) | folded_path;
}

struct LocationWork {
  bool has_graph = false;
  std::unique_ptr<GraphRecorder> recorder;
  std::vector<Activity> activities;  // in event order
  uint64_t unresolved_peers = 0;
};

class Builder {
 public:
  Builder(const trace::Trace& t, const match::SyncGraph& sync, const GraphBuildOptions& options)
      : t_(t), sync_(sync), options_(options), folded_(FoldCallpaths(t, options.recursion_depth)) {
    is_target_.resize(t.defs.regions.size(), 0);
    for (uint32_t r = 0; r < t.defs.regions.size(); ++r) {
      const trace::Region& region = t.defs.regions[r];
      if (!region.defined) continue;
      if (region.mpi.is_mpi()) {
        is_target_[r] = kMpiTarget;
      } else if (MatchesUserRegion(std::string(t.defs.RegionName(r)))) {
        is_target_[r] = kRegionTarget;
      } else if (IsLoopRegion(region)) {
        is_target_[r] = kLoopMarker;
      } else if (IsIterationMarker(region)) {
        is_target_[r] = kIterationMarker;
      }
    }
    member_instance_.resize(sync.members.size(), kNone);
    for (uint32_t c = 0; c < sync.collectives.size(); ++c) {
      const match::CollectiveInstance& ci = sync.collectives[c];
      for (uint32_t m = ci.first_member; m < ci.first_member + ci.member_count; ++m) {
        if (m < member_instance_.size()) member_instance_[m] = c;
      }
    }
  }

  TraceGraphs Run() {
    const uint32_t n = t_.location_count();
    work_.resize(n);
    ParallelFor(n, options_.threads, [this](size_t loc) { Walk(static_cast<uint32_t>(loc)); });
    // Incoming edges name the sender's node, so every location's nodes must exist first.
    ParallelFor(n, options_.threads, [this](size_t loc) {
      if (work_[loc].has_graph) AddIncoming(static_cast<uint32_t>(loc));
    });
    TraceGraphs result;
    result.folded_callpaths = folded_.folded;
    for (LocationWork& w : work_) {
      result.unresolved_peers += w.unresolved_peers;
      if (!w.has_graph) continue;
      ProcessGraph g = w.recorder->Take();
      MarkBackEdges(g);
      result.processes.push_back(std::move(g));
    }
    return result;
  }

 private:
  enum : uint8_t { kNotTarget, kMpiTarget, kRegionTarget, kLoopMarker, kIterationMarker };

  bool MatchesUserRegion(const std::string& name) const {
    for (const std::string& pattern : options_.regions) {
      if (fnmatch(pattern.c_str(), name.c_str(), 0) == 0) return true;
    }
    return false;
  }

  uint8_t TargetOf(uint32_t callpath) const {
    if (callpath >= t_.call_tree.size()) return kNotTarget;
    uint32_t region = t_.call_tree.region(callpath);
    return region < is_target_.size() ? is_target_[region] : uint8_t{kNotTarget};
  }

  uint32_t RankOf(uint32_t location) const {
    uint32_t rank = t_.defs.RankOfLocation(location);
    return rank == kNone ? location : rank;
  }

  // The location a point-to-point record names as its partner, or kNone.
  uint32_t PeerLocation(const trace::P2pPayload& p, uint32_t loc) const {
    if (p.comm >= t_.defs.comms.size()) return kNone;
    return t_.defs.comms[p.comm].LocationOfRank(p.peer, loc);
  }

  void Walk(uint32_t loc) {
    const trace::Location& def = t_.defs.locations[loc];
    const trace::LocationEvents& ev = t_.location(loc);
    if (def.type != trace::LocationType::kCpuThread || ev.empty()) return;
    LocationWork& w = work_[loc];
    w.has_graph = true;
    w.recorder = std::make_unique<GraphRecorder>(
        RankOf(loc), loc, std::string(t_.defs.str(def.name)),
        static_cast<double>(std::max<uint64_t>(1, t_.defs.clock.resolution)), ev.first_time());
    GraphRecorder& r = *w.recorder;

    // An MPI_Isend's record names the record that completed it; completion edges need the
    // other direction.
    std::unordered_map<uint32_t, uint32_t> isend_of_completion;
    for (uint32_t i = 0; i < ev.size(); ++i) {
      if (ev.kind(i) == EventKind::kMpiIsend && ev.p2p(i).request_link != kNone) {
        isend_of_completion[ev.p2p(i).request_link] = i;
      }
    }
    std::unordered_map<uint64_t, uint32_t> collective_started;  // request id -> activity index

    for (uint32_t i = 0; i < ev.size(); ++i) {
      EventKind kind = ev.kind(i);
      if (kind != EventKind::kEnter && kind != EventKind::kLeave) continue;
      uint32_t callpath = ev.ref(i);
      uint8_t target = TargetOf(callpath);
      if (target == kNotTarget) continue;
      uint32_t path = folded_.own[callpath];
      std::string_view name = t_.defs.RegionName(t_.call_tree.region(callpath));
      if (target == kIterationMarker) {
        if (kind == EventKind::kEnter) r.Iteration(ev.time(i));
        continue;
      }
      if (target == kLoopMarker) {
        NodeKind marker = kind == EventKind::kEnter ? NodeKind::kLoopEntry : NodeKind::kLoopExit;
        uint32_t node = r.NodeFor(NodeKey(marker, path), marker, name, folded_.name[path]);
        if (kind == EventKind::kLeave) r.LoopEnd(ev.time(i));
        r.Visit(node, ev.time(i), ev.time(i));
        if (kind == EventKind::kEnter) r.LoopBegin(node);
        continue;
      }
      if (kind != EventKind::kEnter) continue;  // a Leave of a target the walk skipped past
      uint32_t leave = ev.pair(i) == kNone ? ev.size() - 1 : ev.pair(i);
      NodeKind node_kind = target == kMpiTarget ? NodeKind::kMpi : NodeKind::kRegion;
      uint32_t node = r.NodeFor(NodeKey(node_kind, path), node_kind, name, folded_.name[path]);
      r.Visit(node, ev.time(i), ev.time(leave));
      w.activities.push_back({i, leave, node});
      Records(loc, w, isend_of_completion, collective_started);
      i = leave;  // whatever the activity encloses is part of it
    }
    r.End(ev.last_time());
  }

  // The MPI records of the activity just added: outgoing messages, completion edges, and the
  // steps of the current iterations' causal paths (the partners of what it sent, then of what
  // it received; one step without a partner if neither).
  void Records(uint32_t loc, LocationWork& w,
               const std::unordered_map<uint32_t, uint32_t>& isend_of_completion,
               std::unordered_map<uint64_t, uint32_t>& collective_started) {
    const trace::LocationEvents& ev = t_.location(loc);
    const uint32_t self = static_cast<uint32_t>(w.activities.size() - 1);
    const Activity a = w.activities[self];
    const double duration = static_cast<double>(ev.time(a.last) - ev.time(a.first));
    std::vector<uint32_t> sent_to, received_from;
    auto complete = [&](const Activity* start) {
      if (start == nullptr || start->first == a.first) return;  // begun and ended in one call
      uint64_t started_exit = ev.time(start->last);
      double gap = ev.time(a.first) >= started_exit
                       ? static_cast<double>(ev.time(a.first) - started_exit)
                       : 0;
      w.recorder->Complete(a.node, start->node, gap);
    };
    for (uint32_t j = a.first + 1; j < a.last; ++j) {
      switch (ev.kind(j)) {
        case EventKind::kMpiSend:
        case EventKind::kMpiIsend: {
          const trace::P2pPayload& p = ev.p2p(j);
          uint32_t peer = PeerLocation(p, loc);
          if (peer == kNone) {
            ++w.unresolved_peers;
            break;
          }
          w.recorder->MessageOut(a.node, RankOf(peer), peer, p.bytes, duration);
          sent_to.push_back(RankOf(peer));
          break;
        }
        case EventKind::kMpiRecv: {
          uint32_t peer = PeerLocation(ev.p2p(j), loc);
          if (peer != kNone) received_from.push_back(RankOf(peer));
          break;
        }
        case EventKind::kMpiIsendComplete: {
          auto it = isend_of_completion.find(j);
          if (it != isend_of_completion.end()) complete(ActivityOf(w.activities, it->second));
          break;
        }
        case EventKind::kMpiIrecv: {
          uint32_t posted = ev.p2p(j).request_link;
          if (posted != kNone && posted < a.first) complete(ActivityOf(w.activities, posted));
          uint32_t peer = PeerLocation(ev.p2p(j), loc);
          if (peer != kNone) received_from.push_back(RankOf(peer));
          break;
        }
        case EventKind::kNonBlockingCollectiveRequest:
          collective_started[ev.RequestId(j)] = self;
          break;
        case EventKind::kNonBlockingCollectiveComplete: {
          auto it = collective_started.find(ev.RequestId(j));
          if (it != collective_started.end()) {
            complete(&w.activities[it->second]);
            collective_started.erase(it);
          }
          break;
        }
        default:
          break;
      }
    }
    for (uint32_t peer : sent_to) w.recorder->Step(a.node, peer);
    for (uint32_t peer : received_from) w.recorder->Step(a.node, peer);
    if (sent_to.empty() && received_from.empty()) w.recorder->Step(a.node, kNoRank);
  }

  // The node of the activity holding `event` on `loc`, or kNoNode.
  uint32_t NodeOfEvent(uint32_t loc, uint32_t event) const {
    if (loc >= work_.size() || !work_[loc].has_graph) return kNoNode;
    const Activity* a = ActivityOf(work_[loc].activities, event);
    return a == nullptr ? kNoNode : a->node;
  }

  void AddIncoming(uint32_t loc) {
    LocationWork& w = work_[loc];
    const trace::LocationEvents& ev = t_.location(loc);
    if (loc >= sync_.by_location.size()) return;
    const match::LocationSync& s = sync_.by_location[loc];
    for (uint32_t id = s.first_received; id < s.first_received + s.received_count; ++id) {
      const match::Message& m = sync_.messages[id];
      uint32_t posting = m.recv_posting == kNone ? m.recv_event : m.recv_posting;
      const Activity* receiving = ActivityOf(w.activities, posting);
      const Activity* completing = ActivityOf(w.activities, m.recv_event);
      if (receiving == nullptr || completing == nullptr) continue;
      uint64_t entry = ev.time(completing->first);
      w.recorder->MessageIn(receiving->node, RankOf(m.sender), m.sender,
                            NodeOfEvent(m.sender, m.send_event), MessageVia::kPointToPoint,
                            m.bytes, static_cast<double>(ev.time(completing->last) - entry),
                            static_cast<double>(m.send_entered) - static_cast<double>(entry));
    }
    for (uint32_t k : s.collectives) AddCollective(loc, w, k);
  }

  // Seed 003 §4.5: a one-to-all member links to its root; the root of an all-to-one operation,
  // and the first member (communicator rank 0) of any other, lists every other member.
  void AddCollective(uint32_t loc, LocationWork& w, uint32_t member) {
    if (member >= member_instance_.size() || member_instance_[member] == kNone) return;
    const match::CollectiveMember& me = sync_.members[member];
    const match::CollectiveInstance& ci = sync_.collectives[member_instance_[member]];
    const Activity* mine = ActivityOf(w.activities, me.end_event);
    if (mine == nullptr || ci.member_count == 0) return;
    const trace::LocationEvents& ev = t_.location(loc);
    const double duration = static_cast<double>(ev.time(mine->last) - ev.time(mine->first));
    auto link = [&](const match::CollectiveMember& from, MessageVia via, uint64_t bytes) {
      w.recorder->MessageIn(mine->node, RankOf(from.location), from.location,
                            NodeOfEvent(from.location, from.end_event), via, bytes, duration,
                            static_cast<double>(from.entered) - static_cast<double>(me.entered));
    };
    using trace::CollectiveOp;
    const bool one_to_all = ci.op == CollectiveOp::kBcast || ci.op == CollectiveOp::kScatter ||
                            ci.op == CollectiveOp::kScatterv;
    const bool all_to_one = ci.op == CollectiveOp::kGather || ci.op == CollectiveOp::kGatherv ||
                            ci.op == CollectiveOp::kReduce;
    const match::CollectiveMember* first = &sync_.members[ci.first_member];
    const match::CollectiveMember* end = first + ci.member_count;
    if (one_to_all && ci.root != kNone) {
      if (me.location == ci.root) return;
      for (const match::CollectiveMember* m = first; m != end; ++m) {
        if (m->location == ci.root) link(*m, MessageVia::kRootLink, me.received);
      }
      return;
    }
    uint32_t root = all_to_one && ci.root != kNone ? ci.root : first->location;
    if (me.location != root) return;
    for (const match::CollectiveMember* m = first; m != end; ++m) {
      if (m->location != root) link(*m, MessageVia::kRootList, m->sent);
    }
  }

  const trace::Trace& t_;
  const match::SyncGraph& sync_;
  const GraphBuildOptions& options_;
  FoldedPaths folded_;
  std::vector<uint8_t> is_target_;
  std::vector<uint32_t> member_instance_;
  std::vector<LocationWork> work_;
};

}  // namespace

TraceGraphs BuildTraceGraphs(const trace::Trace& trace, const match::SyncGraph& sync,
                             const GraphBuildOptions& options) {
  return Builder(trace, sync, options).Run();
}

}  // namespace cw::tag
