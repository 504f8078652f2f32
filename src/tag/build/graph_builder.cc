#include "tag/build/graph_builder.h"

#include <fnmatch.h>

#include <algorithm>
#include <atomic>
#include <string_view>
#include <unordered_map>
#include <utility>

#include "base/parallel.h"
#include "tag/build/internal/folded_paths.h"
#include "tag/model/graph_recorder.h"
#include "tag/model/loops.h"
#include "trace/thread_teams.h"

namespace cw::tag {

// The types of the builder's members are not in an anonymous namespace: a class with external
// linkage must not hold them (GCC's -Wsubobject-linkage, once the file is part of a unity build).
namespace internal {

// One target activity of a location: the events [first, last] (its Enter and Leave) and its
// node.
struct Activity {
  uint32_t first;
  uint32_t last;
  uint32_t node;
};

struct LocationWork {
  bool has_graph = false;
  std::unique_ptr<GraphRecorder> recorder;
  std::vector<Activity> activities;  // in event order
  uint64_t unresolved_peers = 0;
};

}  // namespace internal

namespace {

using internal::Activity;
using internal::FoldCallpaths;
using internal::FoldedPaths;
using internal::IsIterationMarker;
using internal::IsLoopRegion;
using internal::LocationWork;
using trace::EventKind;
using trace::kNone;

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

}  // namespace

class TraceGraphBuilder::Impl {
 public:
  Impl(const trace::Trace& t, const match::SyncGraph& sync, const GraphBuildOptions& options,
       std::vector<uint32_t> owned)
      : t_(t),
        sync_(sync),
        options_(options),
        folded_(FoldCallpaths(t, options.recursion_depth)),
        owned_(std::move(owned)) {
    if (owned_.empty()) {
      for (uint32_t l = 0; l < t.location_count(); ++l) owned_.push_back(l);
    }
    is_owned_.assign(t.location_count(), false);
    for (uint32_t l : owned_) {
      if (l < is_owned_.size()) is_owned_[l] = true;
    }
    is_target_.resize(t.defs.regions.size(), 0);
    for (uint32_t r = 0; r < t.defs.regions.size(); ++r) {
      const trace::Region& region = t.defs.regions[r];
      if (!region.defined) continue;
      // OpenSHMEM routines are activities as MPI calls are; their barriers and collectives link
      // their members as MPI's collectives do (they are collective instances on windows).
      if (region.mpi.is_mpi() || region.paradigm == trace::Paradigm::kShmem) {
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
      // A non-blocking collective's start and completion are activities of their own.
      if (ci.non_blocking) continue;
      for (uint32_t m = ci.first_member; m < ci.first_member + ci.member_count; ++m) {
        if (m >= member_instance_.size()) continue;
        member_instance_[m] = c;
        member_of_[{ci.origin, sync.members[m].location}] = m;
      }
    }
    work_.resize(t.location_count());
    masters_ = trace::MastersOfThreads(t.defs);
  }

  void WalkAll() {
    ParallelFor(owned_.size(), options_.threads, [this](size_t i) { Walk(owned_[i]); });
  }

  // Incoming edges name the sender's node, so every location's nodes must exist first.
  void AddAllIncoming(const RemoteFacts& remote) {
    remote_ = &remote;
    ParallelFor(owned_.size(), options_.threads, [this](size_t i) {
      if (work_[owned_[i]].has_graph) AddIncoming(owned_[i]);
    });
    remote_ = nullptr;
  }

  std::vector<NodeQuery> NodeQueries() const {
    std::vector<NodeQuery> queries;
    for (uint32_t loc : owned_) {
      if (loc >= sync_.by_location.size()) continue;
      const match::LocationSync& s = sync_.by_location[loc];
      for (uint32_t id = s.first_received; id < s.first_received + s.received_count; ++id) {
        const match::Message& m = sync_.messages[id];
        if (!Owns(m.sender)) queries.push_back({m.sender, m.send_event});
      }
    }
    return queries;
  }

  std::vector<MemberQuery> MemberQueries() const {
    std::vector<MemberQuery> queries;
    for (uint32_t loc : owned_) {
      if (loc >= sync_.by_location.size()) continue;
      for (uint32_t k : sync_.by_location[loc].collectives) {
        if (k >= member_instance_.size() || member_instance_[k] == kNone) continue;
        const match::CollectiveInstance& ci = sync_.collectives[member_instance_[k]];
        const uint32_t me = sync_.members[k].location;
        for (uint32_t other : LinkedMembers(ci, me)) {
          if (!Owns(other)) queries.push_back({ci.origin, other});
        }
      }
    }
    return queries;
  }

  uint32_t NodeOfEvent(uint32_t loc, uint32_t event) const {
    if (loc >= work_.size() || !work_[loc].has_graph) {
      if (remote_ == nullptr) return kNoNode;
      auto it = remote_->nodes.find((static_cast<uint64_t>(loc) << 32) | event);
      return it == remote_->nodes.end() ? kNoNode : it->second;
    }
    const Activity* a = ActivityOf(work_[loc].activities, event);
    return a == nullptr ? kNoNode : a->node;
  }

  MemberFact MemberOf(uint64_t origin, uint32_t loc) const {
    auto it = member_of_.find({origin, loc});
    if (it == member_of_.end()) return MemberFact{};
    const match::CollectiveMember& m = sync_.members[it->second];
    return MemberFact{m.location, NodeOfEvent(m.location, m.end_event), m.entered, m.sent,
                      m.received};
  }

  TraceGraphs Take() {
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

  bool Owns(uint32_t loc) const { return loc < is_owned_.size() && is_owned_[loc]; }

  // The operation's form (Sikora et al. 2016 §4.5) and the location that gathers its members'
  // links: the root of an all-to-one operation, rank 0 of the communicator for the rootless ones.
  static bool OneToAll(const match::CollectiveInstance& ci) {
    using trace::CollectiveOp;
    return ci.root != kNone && (ci.op == CollectiveOp::kBcast || ci.op == CollectiveOp::kScatter ||
                                ci.op == CollectiveOp::kScatterv);
  }
  uint32_t Gatherer(const match::CollectiveInstance& ci, uint32_t me) const {
    using trace::CollectiveOp;
    const bool all_to_one = ci.op == CollectiveOp::kGather || ci.op == CollectiveOp::kGatherv ||
                            ci.op == CollectiveOp::kReduce;
    if (all_to_one && ci.root != kNone) return ci.root;
    return ci.comm < t_.defs.comms.size() ? t_.defs.comms[ci.comm].LocationOfRank(0, me) : kNone;
  }
  // The other members member `me` links to (a one-to-all operation's root) or lists (as the
  // gatherer), in communicator rank order.
  std::vector<uint32_t> LinkedMembers(const match::CollectiveInstance& ci, uint32_t me) const {
    if (OneToAll(ci))
      return me == ci.root ? std::vector<uint32_t>{} : std::vector<uint32_t>{ci.root};
    if (me != Gatherer(ci, me) || ci.comm >= t_.defs.comms.size()) return {};
    std::vector<uint32_t> others;
    const trace::Comm& c = t_.defs.comms[ci.comm];
    for (uint32_t r = 0; r < c.size(); ++r) {
      const uint32_t loc = c.LocationOfRank(r, me);
      if (loc != kNone && loc != me) others.push_back(loc);
    }
    return others;
  }

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

  // An OpenMP thread other than its process's master that makes no MPI or OpenSHMEM call: its
  // work is part of its process's computation, which the master's graph times (one graph per
  // process, as the graphs recorded online have).
  bool IsOpenMpWorker(uint32_t loc, const trace::LocationEvents& ev) const {
    if (masters_[loc] == kNone) return false;
    bool in_team = false;
    for (uint32_t i = 0; i < ev.size(); ++i) {
      const EventKind kind = ev.kind(i);
      if (kind == EventKind::kThreadTeamBegin) in_team = true;
      if (kind == EventKind::kEnter && TargetOf(ev.ref(i)) == kMpiTarget) return false;
    }
    return in_team;
  }

  void Walk(uint32_t loc) {
    const trace::Location& def = t_.defs.locations[loc];
    const trace::LocationEvents& ev = t_.location(loc);
    if (def.type != trace::LocationType::kCpuThread || ev.empty() || IsOpenMpWorker(loc, ev))
      return;
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
                            NodeOfEvent(m.sender, m.send_event), MessageVia::kPointToPoint, m.bytes,
                            static_cast<double>(ev.time(completing->last) - entry),
                            static_cast<double>(m.send_entered) - static_cast<double>(entry));
    }
    for (uint32_t k : s.collectives) AddCollective(loc, w, k);
  }

  // Sikora et al. 2016 §4.5: a one-to-all member links to its root; the root of an all-to-one
  // operation, and rank 0 of the communicator of any other, lists every other member.
  void AddCollective(uint32_t loc, LocationWork& w, uint32_t member) {
    if (member >= member_instance_.size() || member_instance_[member] == kNone) return;
    const match::CollectiveMember& me = sync_.members[member];
    const match::CollectiveInstance& ci = sync_.collectives[member_instance_[member]];
    const Activity* mine = ActivityOf(w.activities, me.end_event);
    if (mine == nullptr || ci.member_count == 0) return;
    const std::vector<uint32_t> linked = LinkedMembers(ci, me.location);
    if (linked.empty()) return;
    const trace::LocationEvents& ev = t_.location(loc);
    const double duration = static_cast<double>(ev.time(mine->last) - ev.time(mine->first));
    const MessageVia via = OneToAll(ci) ? MessageVia::kRootLink : MessageVia::kRootList;
    for (uint32_t other : linked) {
      // The member's facts: this process's own members of the instance, or another rank's.
      MemberFact f;
      if (Owns(other)) {
        f = MemberOf(ci.origin, other);
      } else if (remote_ != nullptr) {
        auto it = remote_->members.find({ci.origin, other});
        if (it != remote_->members.end()) f = it->second;
      }
      if (f.location == kNoRank) continue;  // it did not take part (an incomplete instance)
      w.recorder->MessageIn(mine->node, RankOf(other), other, f.node, via,
                            via == MessageVia::kRootLink ? me.received : f.sent, duration,
                            static_cast<double>(f.entered) - static_cast<double>(me.entered));
    }
  }

  const trace::Trace& t_;
  const match::SyncGraph& sync_;
  const GraphBuildOptions& options_;
  FoldedPaths folded_;
  std::vector<uint32_t> owned_;
  std::vector<bool> is_owned_;
  std::vector<uint8_t> is_target_;
  std::vector<uint32_t> masters_;  // trace::MastersOfThreads
  std::vector<uint32_t> member_instance_;
  std::map<std::pair<uint64_t, uint32_t>, uint32_t> member_of_;  // (origin, location) -> member
  std::vector<LocationWork> work_;
  const RemoteFacts* remote_ = nullptr;  // during AddIncoming
};

TraceGraphBuilder::TraceGraphBuilder(const trace::Trace& trace, const match::SyncGraph& sync,
                                     const GraphBuildOptions& options, std::vector<uint32_t> owned)
    : impl_(std::make_unique<Impl>(trace, sync, options, std::move(owned))) {}
TraceGraphBuilder::~TraceGraphBuilder() = default;
void TraceGraphBuilder::Walk() { impl_->WalkAll(); }
std::vector<NodeQuery> TraceGraphBuilder::NodeQueries() const { return impl_->NodeQueries(); }
std::vector<MemberQuery> TraceGraphBuilder::MemberQueries() const { return impl_->MemberQueries(); }
uint32_t TraceGraphBuilder::NodeOfEvent(uint32_t location, uint32_t event) const {
  return impl_->NodeOfEvent(location, event);
}
MemberFact TraceGraphBuilder::MemberOf(uint64_t origin, uint32_t location) const {
  return impl_->MemberOf(origin, location);
}
void TraceGraphBuilder::AddIncoming(const RemoteFacts& remote) { impl_->AddAllIncoming(remote); }
TraceGraphs TraceGraphBuilder::Take() { return impl_->Take(); }

}  // namespace cw::tag
