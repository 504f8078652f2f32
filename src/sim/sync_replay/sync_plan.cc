// Builds the points of SyncReplay (sync_replay.h): one walk over each location's events, in
// parallel, that finds its MPI calls and attaches the matched messages and collective members
// to the calls that hold their records, as the event replay's BeginCall and Publish do.
#include <algorithm>
#include <span>

#include "base/parallel.h"
#include "sim/internal/matching.h"
#include "sim/internal/network_model.h"
#include "sim/sync_replay/sync_replay.h"

namespace cw::sim {

using trace::EventKind;
using trace::kNone;

struct WalkState;

class SyncReplayBuilder {
 public:
  SyncReplayBuilder(SyncReplay& r, std::string& why) : r_(r), why_(why) {}

  bool Run(unsigned threads);

 private:
  bool TraceIsModelled();
  bool CollectivesAreModelled();
  void ClassifyCallpaths();
  void NumberRendezvous(unsigned threads);
  // Walks location `l`; false (with its reason in `reasons_[l]`) if it holds what only the
  // event replay models.
  bool WalkLocation(uint32_t l);
  // Attaches the message records of the call from `enter` to `leave` to `point`. Inlined into
  // WalkLocation, as AttachRecord is into it: called for every MPI call.
  [[gnu::always_inline]] bool WalkCall(uint32_t l, uint32_t enter, uint32_t leave,
                                       SyncReplay::Point& point, WalkState& state);
  // Attaches the message record `k` of the call of `point` to it. Inlined into WalkCall, which
  // calls it for every message record: the calls themselves cost a fifth of the walk.
  [[gnu::always_inline]] bool AttachRecord(uint32_t l, uint32_t k, SyncReplay::Point& point,
                                           WalkState& state);
  // Whether the call from `enter` to `leave` is one that no partner can make wait and that
  // publishes nothing a point must count but its send, taken here with what WalkCall would
  // record of it: most of a program's MPI calls (an MPI_Isend, an MPI_Irecv's posting, a call
  // without records) are such calls, and building a point for each cost half the walk.
  [[gnu::always_inline]] bool PassThrough(uint32_t enter, uint32_t leave, uint32_t callpath,
                                          uint8_t call, WalkState& state);
  void SummariseCollectives();

  SyncReplay& r_;
  std::string& why_;
  std::vector<std::string> reasons_;
  std::vector<std::vector<uint32_t>>
      p2p_callpaths_;  // per location: call paths that send or receive
  // Per sender: its rendezvous candidates, (send event, rendezvous index), ascending; per
  // receiver, the postings of those it posted before the call that completed them.
  std::vector<std::vector<std::pair<uint32_t, uint32_t>>> rendezvous_sends_;
  std::vector<std::vector<std::pair<uint32_t, uint32_t>>> rendezvous_postings_;
  // Per call path: kMpiCall, kSynchronous, kFinalize, kProbe (0: not an MPI call).
  std::vector<uint8_t> callpath_class_;
  // The traced network's eager limit, as the event replay's network model has it unchanged.
  uint64_t eager_limit_ = NetworkChange{}.base_eager_limit;
};

namespace {

constexpr uint8_t kMpiCall = 1, kSynchronous = 2, kFinalize = 4, kProbe = 8;

// What a walk does with an event of each kind: step over it, attach it to the call it is in
// (a message record), or give up (records only the event replay models).
enum RecordClass : uint8_t { kOther, kMessage, kUnmodelled };

struct RecordClasses {
  RecordClass of[256] = {};
  constexpr RecordClasses() {
    for (unsigned k = 0; k <= static_cast<unsigned>(EventKind::kThreadEnd); ++k) {
      const auto kind = static_cast<EventKind>(k);
      switch (kind) {
        case EventKind::kMpiSend:
        case EventKind::kMpiIsend:
        case EventKind::kMpiIsendComplete:
        case EventKind::kMpiIrecvRequest:
        case EventKind::kMpiRecv:
        case EventKind::kMpiIrecv:
        case EventKind::kMpiCollectiveEnd:
          of[k] = kMessage;
          continue;
        case EventKind::kRmaCollectiveBegin:
        case EventKind::kRmaCollectiveEnd:
        case EventKind::kNonBlockingCollectiveRequest:
        case EventKind::kNonBlockingCollectiveComplete:
        case EventKind::kMpiRequestCancelled:
          of[k] = kUnmodelled;
          continue;
        default:
          break;
      }
      const trace::PayloadFamily family = trace::PayloadFamilyOf(kind);
      if (family == trace::PayloadFamily::kRma || family == trace::PayloadFamily::kThread)
        of[k] = kUnmodelled;
    }
  }
};
// Built at compile time: the walk asks it per event.
constexpr RecordClasses kRecordClasses;

RecordClass ClassOf(EventKind kind) { return kRecordClasses.of[static_cast<uint8_t>(kind)]; }

}  // namespace

// The cursors of one location's walk over its matched messages and collective members, which
// come in the order of their records.
struct WalkState {
  WalkState(const trace::LocationEvents& events, SyncReplay::Lane& location_lane,
            std::span<const std::pair<uint32_t, uint32_t>> sends,
            std::span<const std::pair<uint32_t, uint32_t>> postings)
      : ev(events), lane(location_lane), rendezvous_sends(sends), rendezvous_postings(postings) {}

  // The location's events, lane and rendezvous candidates, looked up once: the walk's inlined
  // steps would each look them up again per call.
  const trace::LocationEvents& ev;
  SyncReplay::Lane& lane;
  std::span<const std::pair<uint32_t, uint32_t>> rendezvous_sends;
  std::span<const std::pair<uint32_t, uint32_t>> rendezvous_postings;
  size_t next_sent = 0;
  uint32_t next_received = 0;
  uint32_t received_end = 0;
  size_t next_member = 0;
  size_t next_posting = 0;              // into rendezvous_postings
  size_t next_rendezvous_send = 0;      // into rendezvous_sends
  size_t sends_published = 0;           // sends before the last point
  bool p2p = false;                     // the current call sends or receives
  std::vector<uint32_t> p2p_callpaths;  // each once, in the order first found
  std::vector<uint8_t> is_p2p;          // by call path: in p2p_callpaths
  // Rendezvous sends started by MPI_Isend and not completed yet: (request, rendezvous index).
  std::vector<std::pair<uint64_t, uint32_t>> open_sends;
};

namespace {

// Notes that calls of `callpath` send or receive (SyncReplay::p2p_callpath_).
void MarkPointToPoint(uint32_t callpath, WalkState& state) {
  if (state.is_p2p[callpath]) return;
  state.is_p2p[callpath] = 1;
  state.p2p_callpaths.push_back(callpath);
}

}  // namespace

void SyncReplayBuilder::ClassifyCallpaths() {
  const trace::Definitions& defs = r_.trace_.defs;
  const uint32_t callpaths = r_.trace_.call_tree.size();
  callpath_class_.assign(callpaths, 0);
  for (uint32_t cp = 0; cp < callpaths; ++cp) {
    const uint32_t region = r_.trace_.CallpathRegion(cp);
    if (region >= defs.regions.size() || !defs.regions[region].mpi.is_mpi()) continue;
    const trace::MpiFunction& f = defs.regions[region].mpi;
    callpath_class_[cp] = static_cast<uint8_t>(
        kMpiCall | (f.has(trace::kMpiSynchronous) ? kSynchronous : 0) |
        (f.has(trace::kMpiFinalize) ? kFinalize : 0) | (f.has(trace::kMpiProbe) ? kProbe : 0));
  }
}

// A message is a rendezvous candidate if its sender may wait for the receive's posting: sent
// by MPI_Ssend or MPI_Issend (the call holding the send record), or above the eager limit. Only
// a trace with synchronous sends needs their calls looked up; each location then finds its
// candidates in the order of their send records and postings.
void SyncReplayBuilder::NumberRendezvous(unsigned threads) {
  const match::SyncGraph& g = r_.graph_;
  const bool any_synchronous = std::any_of(callpath_class_.begin(), callpath_class_.end(),
                                           [](uint8_t c) { return (c & kSynchronous) != 0; });
  std::vector<uint8_t> synchronous(any_synchronous ? g.messages.size() : 0, 0);
  if (any_synchronous) {
    ParallelFor(r_.trace_.location_count(), threads, [&](size_t l) {
      const trace::LocationEvents& ev = r_.trace_.location(static_cast<uint32_t>(l));
      for (uint32_t id : g.by_location[l].sent) {
        const uint32_t call = ev.pair(g.messages[id].send_event);
        if (call == kNone || ev.kind(call) != EventKind::kEnter) continue;
        const uint32_t cp = ev.ref(call);
        synchronous[id] = cp < callpath_class_.size() && (callpath_class_[cp] & kSynchronous) != 0;
      }
    });
  }
  r_.rendezvous_of_.assign(g.messages.size(), kNone);
  // The loop runs once per message: without synchronous sends, only the size decides.
  const auto number = [&](uint32_t id, bool sync) {
    r_.rendezvous_of_[id] = static_cast<uint32_t>(r_.rendezvous_.size());
    r_.rendezvous_.push_back(SyncReplay::Rendezvous{0, sync});
  };
  if (any_synchronous) {
    for (uint32_t id = 0; id < g.messages.size(); ++id) {
      const bool sync = synchronous[id] != 0;
      if (sync || g.messages[id].bytes > eager_limit_) number(id, sync);
    }
  } else {
    for (uint32_t id = 0; id < g.messages.size(); ++id) {
      if (g.messages[id].bytes > eager_limit_) number(id, false);
    }
  }
  // Each location's candidates among its sends, in the order of its sends, and among its
  // receives with a posting of their own, by posting (receives are listed by completion).
  const uint32_t locations = r_.trace_.location_count();
  rendezvous_sends_.assign(locations, {});
  rendezvous_postings_.assign(locations, {});
  if (r_.rendezvous_.empty()) return;  // every message eager: no location has a candidate
  ParallelFor(std::min<size_t>(locations, g.by_location.size()), threads, [&](size_t l) {
    const match::LocationSync& sync = g.by_location[l];
    for (uint32_t id : sync.sent) {
      if (r_.rendezvous_of_[id] != kNone)
        rendezvous_sends_[l].emplace_back(g.messages[id].send_event, r_.rendezvous_of_[id]);
    }
    std::vector<std::pair<uint32_t, uint32_t>>& postings = rendezvous_postings_[l];
    for (uint32_t id = sync.first_received; id < sync.first_received + sync.received_count; ++id) {
      const match::Message& m = g.messages[id];
      if (r_.rendezvous_of_[id] != kNone && m.recv_posting != m.recv_event)
        postings.emplace_back(m.recv_posting, r_.rendezvous_of_[id]);
    }
    if (!std::is_sorted(postings.begin(), postings.end()))
      std::sort(postings.begin(), postings.end());
  });
}

bool SyncReplayBuilder::TraceIsModelled() {
  const trace::Definitions& defs = r_.trace_.defs;
  for (const trace::Region& region : defs.regions) {
    if (region.defined && region.paradigm == trace::Paradigm::kShmem) {
      why_ = "an OpenSHMEM program";
      return false;
    }
  }
  std::vector<bool> group_taken(defs.location_groups.size());
  for (uint32_t l = 0; l < r_.trace_.location_count(); ++l) {
    const trace::Location& loc = defs.locations[l];
    const uint32_t group = loc.group;
    if (loc.type != trace::LocationType::kCpuThread || group >= defs.location_groups.size() ||
        defs.location_groups[group].rank == kNone || group_taken[group]) {
      why_ = "a location that is not the one thread of an MPI rank";
      return false;
    }
    group_taken[group] = true;
    if (r_.trace_.location(l).empty()) {
      why_ = "a location without events";
      return false;
    }
  }
  const match::MatchStats& s = r_.graph_.stats;
  if (s.unmatched_sends + s.unmatched_receives + s.cancelled_requests + s.incomplete_collectives >
      0) {
    why_ = "unmatched or cancelled messages, or incomplete collectives";
    return false;
  }
  if (s.probes_linked + s.probes_repeated + s.probes_unlinked + s.probes_unresolved > 0) {
    why_ = "probes";
    return false;
  }
  return CollectivesAreModelled();
}

bool SyncReplayBuilder::CollectivesAreModelled() {
  const match::SyncGraph& g = r_.graph_;
  r_.instances_.resize(g.collectives.size());
  r_.instance_of_member_.assign(g.members.size(), kNone);
  for (uint32_t i = 0; i < g.collectives.size(); ++i) {
    const match::CollectiveInstance& c = g.collectives[i];
    const internal::CollectiveFamily family = internal::FamilyOf(c.op);
    if (c.non_blocking || c.window != kNone || !c.complete ||
        family == internal::CollectiveFamily::kPrefix) {
      why_ = "non-blocking, one-sided, incomplete or prefix collectives";
      return false;
    }
    SyncReplay::Instance& inst = r_.instances_[i];
    inst.size = c.member_count;
    inst.family = static_cast<uint8_t>(family);
    for (uint32_t m = c.first_member; m < c.first_member + c.member_count; ++m) {
      r_.instance_of_member_[m] = i;
      if (c.root != kNone && g.members[m].location == c.root) inst.root_member = m;
    }
    const bool rooted = family == internal::CollectiveFamily::kOneToAll ||
                        family == internal::CollectiveFamily::kAllToOne;
    if (rooted && inst.root_member == kNone) {
      why_ = "a rooted collective whose root took no part";
      return false;
    }
  }
  return true;
}

inline bool SyncReplayBuilder::WalkCall(uint32_t l, uint32_t enter, uint32_t leave,
                                        SyncReplay::Point& point, WalkState& state) {
  const trace::LocationEvents& ev = state.ev;
  SyncReplay::Lane& lane = state.lane;
  const size_t first_extra = lane.extras.size();
  const std::span<const EventKind> kinds = ev.kinds();
  for (uint32_t k = enter + 1; k < leave; ++k) {
    const EventKind kind = kinds[k];
    if (kind == EventKind::kEnter) {
      const uint32_t cp = ev.ref(k);
      if (cp < callpath_class_.size() && callpath_class_[cp] != 0) {
        reasons_[l] = "an MPI call inside another";
        return false;
      }
      continue;
    }
    const RecordClass c = ClassOf(kind);
    if (c == kOther) continue;
    if (c == kUnmodelled) {
      reasons_[l] = "one-sided, threading, non-blocking collective or cancellation records";
      return false;
    }
    if (ev.pair(k) != enter) {
      reasons_[l] = "a message record inside a region inside the call";
      return false;
    }
    if (!AttachRecord(l, k, point, state)) return false;
  }
  if (lane.extras.size() - first_extra >= UINT16_MAX || point.receives == UINT16_MAX) {
    reasons_[l] = "a call with too many messages";
    return false;
  }
  point.extras = static_cast<uint16_t>(lane.extras.size() - first_extra);
  return true;
}

inline bool SyncReplayBuilder::AttachRecord(uint32_t l, uint32_t k, SyncReplay::Point& point,
                                            WalkState& state) {
  const match::SyncGraph& g = r_.graph_;
  const trace::LocationEvents& ev = state.ev;
  SyncReplay::Lane& lane = state.lane;
  const EventKind kind = ev.kind(k);
  // A removed call with any point-to-point record would change how messages pair.
  state.p2p = state.p2p || kind != EventKind::kMpiCollectiveEnd;
  switch (kind) {
    case EventKind::kMpiSend:
    case EventKind::kMpiIsend: {
      // The matching paired every send (TraceIsModelled), so the k-th send record is the k-th
      // message of `sent`; the count is checked at the end of the walk.
      ++state.next_sent;
      lane.sends.push_back(point.enter);
      const auto& candidates = state.rendezvous_sends;
      if (state.next_rendezvous_send >= candidates.size() ||
          candidates[state.next_rendezvous_send].first != k)
        return true;
      const uint32_t rendezvous = candidates[state.next_rendezvous_send++].second;
      if (kind == EventKind::kMpiSend) {
        lane.extras.push_back(rendezvous);
      } else {
        state.open_sends.emplace_back(ev.RequestId(k), rendezvous);
      }
      return true;
    }
    case EventKind::kMpiIsendComplete: {
      if (state.open_sends.empty()) return true;
      const uint64_t request = ev.RequestId(k);
      auto it = std::find_if(state.open_sends.begin(), state.open_sends.end(),
                             [request](const auto& s) { return s.first == request; });
      if (it == state.open_sends.end()) return true;
      lane.extras.push_back(it->second);
      state.open_sends.erase(it);
      return true;
    }
    case EventKind::kMpiIrecvRequest:
      if (state.next_posting < state.rendezvous_postings.size() &&
          state.rendezvous_postings[state.next_posting].first == k) {
        const uint32_t rendezvous = state.rendezvous_postings[state.next_posting++].second;
        lane.extras.push_back(rendezvous | SyncReplay::kPosting);
        r_.rendezvous_[rendezvous].posted_enter = point.enter;
      }
      return true;
    case EventKind::kMpiRecv:
    case EventKind::kMpiIrecv: {
      const uint32_t id = state.next_received;
      if (id >= state.received_end || g.messages[id].recv_event != k) {
        reasons_[l] = "a receive the matching did not pair";
        return false;
      }
      // The event replay posts a non-blocking receive when it finds its completion record by
      // reading ahead from the posting; one further ahead is posted later, in another order.
      if (k >= g.messages[id].recv_posting + (1u << 14)) {
        reasons_[l] = "a receive completed more than 16384 events after its posting";
        return false;
      }
      ++state.next_received;
      ++point.receives;
      // A receive posted by its own call (a blocking one, or one whose posting is not known)
      // posts when the call is entered.
      const uint32_t rendezvous = r_.rendezvous_of_[id];
      if (g.messages[id].recv_posting == k && rendezvous != kNone) {
        lane.extras.push_back(rendezvous | SyncReplay::kPosting);
        r_.rendezvous_[rendezvous].posted_enter = point.enter;
      }
      return true;
    }
    case EventKind::kMpiCollectiveEnd: {
      const std::vector<uint32_t>& collectives = g.by_location[l].collectives;
      if (state.next_member >= collectives.size() ||
          g.members[collectives[state.next_member]].end_event != k ||
          (point.flags & SyncReplay::kCollective) != 0) {
        reasons_[l] = "a collective record the matching did not pair";
        return false;
      }
      point.flags |= SyncReplay::kCollective;
      r_.member_enter_[collectives[state.next_member++]] = point.enter;
      return true;
    }
    default:
      return true;
  }
}

inline bool SyncReplayBuilder::PassThrough(uint32_t enter, uint32_t leave, uint32_t callpath,
                                           uint8_t call, WalkState& state) {
  if ((call & kFinalize) != 0 || leave > enter + 2) return false;
  // No record: nothing to attach, and the sends before it are as many as after the previous
  // call, which published them if they were many (WalkLocation).
  if (leave == enter + 1) return true;
  // The one event between the call's Enter and Leave is a record directly inside the call (its
  // `pair` is the call's Enter, LocationEvents): no nesting to check.
  const trace::LocationEvents& ev = state.ev;
  const uint32_t k = enter + 1;
  SyncReplay::Lane& lane = state.lane;
  switch (ev.kind(k)) {
    case EventKind::kMpiIsend: {
      // Not a rendezvous candidate, and not the send that makes the sends since the last point
      // many enough for a point of their own.
      const auto& candidates = state.rendezvous_sends;
      if (state.next_rendezvous_send < candidates.size() &&
          candidates[state.next_rendezvous_send].first == k)
        return false;
      if (lane.sends.size() + 1 - state.sends_published >= UINT16_MAX / 2) return false;
      ++state.next_sent;
      lane.sends.push_back(static_cast<int64_t>(ev.time(enter)) - r_.base_);
      break;
    }
    case EventKind::kMpiIrecvRequest: {
      // Not the posting of a rendezvous message, which its sender waits for.
      const auto& postings = state.rendezvous_postings;
      if (state.next_posting < postings.size() && postings[state.next_posting].first == k)
        return false;
      break;
    }
    default:
      return false;
  }
  MarkPointToPoint(callpath, state);
  return true;
}

bool SyncReplayBuilder::WalkLocation(uint32_t l) {
  const match::SyncGraph& g = r_.graph_;
  const trace::LocationEvents& ev = r_.trace_.location(l);
  SyncReplay::Lane& lane = r_.lanes_[l];
  const match::LocationSync& sync = g.by_location[l];
  lane.events = ev.size();
  lane.first = static_cast<int64_t>(ev.first_time()) - r_.base_;
  lane.last = static_cast<int64_t>(ev.last_time()) - r_.base_;
  lane.rank = r_.trace_.defs.location_groups[r_.trace_.defs.locations[l].group].rank;
  WalkState state(ev, lane, rendezvous_sends_[l], rendezvous_postings_[l]);
  state.next_received = sync.first_received;
  state.received_end = sync.first_received + sync.received_count;
  state.is_p2p.assign(callpath_class_.size(), 0);
  lane.sends.reserve(sync.sent.size());
  const std::span<const EventKind> kinds = ev.kinds();
  // Many calls are points (they receive or synchronise): a reservation of one point per 16
  // events costs only address space where fewer are.
  lane.points.reserve(kinds.size() / 16);
  for (uint32_t i = 0; i < kinds.size(); ++i) {
    const EventKind kind = kinds[i];
    if (kind != EventKind::kEnter) {
      if (ClassOf(kind) != kOther) {
        reasons_[l] = "a message, one-sided or threading record outside an MPI call";
        return false;
      }
      continue;
    }
    const uint32_t cp = ev.ref(i);
    const uint8_t call = cp < callpath_class_.size() ? callpath_class_[cp] : 0;
    if (call == 0) continue;
    const uint32_t leave = ev.pair(i);
    if (leave <= i || leave >= kinds.size()) {  // kNone among them
      reasons_[l] = "an MPI call without its end";
      return false;
    }
    if ((call & kProbe) != 0) {
      reasons_[l] = "probes";
      return false;
    }
    if (PassThrough(i, leave, cp, call, state)) {
      i = leave;
      continue;
    }
    SyncReplay::Point point;
    point.enter = static_cast<int64_t>(ev.time(i)) - r_.base_;
    point.leave = static_cast<int64_t>(ev.time(leave)) - r_.base_;
    point.callpath = cp;
    point.enter_event = i;
    if ((call & kFinalize) != 0) point.flags |= SyncReplay::kFinalize;
    state.p2p = false;
    if (!WalkCall(l, i, leave, point, state)) return false;
    if (state.p2p) MarkPointToPoint(cp, state);
    // A call that waits is a point; so is one after many sends that wait for nothing, which
    // then waits for nothing either (the count of sends before a point is 16 bits).
    const size_t unpublished = lane.sends.size() - state.sends_published;
    if (point.receives + point.extras > 0 || point.flags != 0 || unpublished >= UINT16_MAX / 2) {
      if (unpublished >= UINT16_MAX) {
        reasons_[l] = "a call with too many messages";
        return false;
      }
      point.sends = static_cast<uint16_t>(unpublished);
      state.sends_published = lane.sends.size();
      lane.points.push_back(point);
    }
    i = leave;
  }
  p2p_callpaths_[l] = std::move(state.p2p_callpaths);
  if (state.next_sent != sync.sent.size() || state.next_received != state.received_end ||
      state.next_member != sync.collectives.size() ||
      state.next_rendezvous_send != rendezvous_sends_[l].size() ||
      state.next_posting != rendezvous_postings_[l].size()) {
    reasons_[l] = "matched records outside the location's MPI calls";
    return false;
  }
  return true;
}

void SyncReplayBuilder::SummariseCollectives() {
  const match::SyncGraph& g = r_.graph_;
  for (uint32_t i = 0; i < g.collectives.size(); ++i) {
    const match::CollectiveInstance& c = g.collectives[i];
    SyncReplay::Instance& inst = r_.instances_[i];
    for (uint32_t m = c.first_member; m < c.first_member + c.member_count; ++m) {
      inst.latest =
          m == c.first_member ? r_.member_enter_[m] : std::max(inst.latest, r_.member_enter_[m]);
    }
    if (inst.root_member != kNone) inst.root_enter = r_.member_enter_[inst.root_member];
  }
}

bool SyncReplayBuilder::Run(unsigned threads) {
  r_.base_ = static_cast<int64_t>(r_.trace_.defs.clock.global_offset);
  if (!TraceIsModelled()) return false;
  const match::SyncGraph& g = r_.graph_;
  const uint32_t locations = r_.trace_.location_count();
  if (g.by_location.size() < locations) {
    why_ = "a matching without every location";
    return false;
  }
  ClassifyCallpaths();
  NumberRendezvous(threads);
  r_.member_enter_.assign(g.members.size(), 0);
  r_.lanes_.resize(locations);
  reasons_.assign(locations, {});
  p2p_callpaths_.assign(locations, {});
  std::vector<uint8_t> walked(locations);
  ParallelFor(locations, threads,
              [&](size_t l) { walked[l] = WalkLocation(static_cast<uint32_t>(l)); });
  for (uint32_t l = 0; l < locations; ++l) {
    if (!walked[l]) {
      why_ = reasons_[l];
      return false;
    }
  }
  r_.p2p_callpath_.assign(r_.trace_.call_tree.size(), 0);
  for (const std::vector<uint32_t>& callpaths : p2p_callpaths_) {
    for (uint32_t cp : callpaths) r_.p2p_callpath_[cp] = 1;
  }
  r_.processes_ = locations;
  uint32_t finalizing = 0;
  for (const SyncReplay::Lane& lane : r_.lanes_) {
    for (const SyncReplay::Point& p : lane.points) {
      if ((p.flags & SyncReplay::kFinalize) == 0) continue;
      r_.finalize_latest_ = finalizing == 0 ? p.enter : std::max(r_.finalize_latest_, p.enter);
      ++finalizing;
    }
  }
  if (finalizing != 0 && finalizing != locations) {
    why_ = "processes that do not all call MPI_Finalize once";
    return false;
  }
  SummariseCollectives();
  return true;
}

std::unique_ptr<SyncReplay> SyncReplay::Build(const trace::Trace& trace,
                                              const match::SyncGraph& graph, std::string& why,
                                              unsigned threads) {
  std::unique_ptr<SyncReplay> replay(new SyncReplay(trace, graph));
  SyncReplayBuilder builder(*replay, why);
  if (!builder.Run(threads)) return nullptr;
  return replay;
}

}  // namespace cw::sim
