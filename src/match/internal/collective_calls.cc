#include "match/internal/collective_calls.h"

#include <algorithm>
#include <string>
#include <unordered_map>

#include "match/matcher.h"
#include "trace/collective_senders.h"

namespace cw::match::internal {

using trace::EventKind;

bool IsMatchedNonBlocking(trace::CollectiveOp op) {
  // The operations of MPI's non-blocking collectives on communicators (not the handle and
  // allocation operations of the RMA collectives).
  return op <= trace::CollectiveOp::kReduceScatterBlock;
}

LocationCalls ScanCollectiveCalls(const trace::LocationEvents& ev) {
  LocationCalls calls;
  uint32_t last_begin = kNone;
  // The non-blocking collectives started and not yet completed, by request id.
  std::unordered_map<uint64_t, uint32_t> started;
  for (uint32_t i = 0; i < ev.size(); ++i) {
    EventKind kind = ev.kind(i);
    if (kind == EventKind::kNonBlockingCollectiveRequest) {
      started[ev.RequestId(i)] = i;
    } else if (kind == EventKind::kNonBlockingCollectiveComplete) {
      auto start = started.find(ev.RequestId(i));
      if (start == started.end()) continue;  // the reader reported the unlinked request
      if (IsMatchedNonBlocking(ev.collective(i).op)) {
        calls.by_nbc[ev.collective(i).comm_or_window].push_back(CollectiveCall{start->second, i});
      }
      started.erase(start);
    } else if (kind == EventKind::kMpiCollectiveBegin || kind == EventKind::kRmaCollectiveBegin) {
      last_begin = i;
    } else if (kind == EventKind::kMpiCollectiveEnd || kind == EventKind::kRmaCollectiveEnd) {
      // The begin record belongs to this call if both sit in the same region instance;
      // otherwise the Enter of the call stands in for it.
      uint32_t begin =
          last_begin != kNone && ev.pair(last_begin) == ev.pair(i) ? last_begin : ev.pair(i);
      if (begin == kNone) begin = i;
      CallsByComm& calls_of_kind =
          kind == EventKind::kRmaCollectiveEnd ? calls.by_window : calls.by_comm;
      calls_of_kind[ev.collective(i).comm_or_window].push_back(CollectiveCall{begin, i});
      last_begin = kNone;
    }
  }
  // Members of a collective start it in the same order; they may complete it in any.
  for (auto& [comm, list] : calls.by_nbc) {
    std::sort(list.begin(), list.end(),
              [](const CollectiveCall& a, const CollectiveCall& b) { return a.begin < b.begin; });
  }
  return calls;
}

uint32_t RankIn(const std::vector<trace::Comm>& comms, uint32_t c, uint32_t loc) {
  if (c >= comms.size() || !comms[c].defined) return kNone;
  if (comms[c].is_self) return 0;
  const std::vector<uint32_t>& ranks = comms[c].rank_to_location;
  auto it = std::find(ranks.begin(), ranks.end(), loc);
  return it == ranks.end() ? kNone : static_cast<uint32_t>(it - ranks.begin());
}

namespace {

// The location of `c` (a communicator that does not contain `loc`) in `loc`'s process: a thread's
// collective call is its process's.
uint32_t ProcessMemberIn(const trace::Trace& trace, uint32_t c, uint32_t loc) {
  const std::vector<trace::Comm>& comms = trace.defs.comms;
  if (c >= comms.size() || !comms[c].defined || comms[c].is_self) return kNone;
  const uint32_t group = trace.defs.locations[loc].group;
  for (uint32_t member : comms[c].rank_to_location) {
    if (member != kNone && trace.defs.locations[member].group == group) return member;
  }
  return kNone;
}

}  // namespace

uint32_t RankInWindow(const trace::Definitions& defs, uint32_t w, uint32_t loc) {
  if (w >= defs.windows.size() || !defs.windows[w].defined) return kNone;
  const uint32_t c = defs.windows[w].comm;
  if (c >= defs.comms.size() || defs.comms[c].is_self) return kNone;
  return RankIn(defs.comms, c, loc);
}

void FoldThreadCalls(const trace::Trace& trace, const std::vector<uint32_t>& locations,
                     std::vector<LocationCalls>& calls) {
  const trace::Definitions& defs = trace.defs;
  std::vector<bool> listed(trace.location_count(), false);
  for (uint32_t loc : locations) listed[loc] = true;
  for (uint32_t loc : locations) {
    for (uint32_t phase = 0; phase < kPhaseCount; ++phase) {
      CallsByComm& of_loc = CallsOfPhase(calls[loc], phase);
      for (auto it = of_loc.begin(); it != of_loc.end();) {
        const uint32_t id = it->first;
        const uint32_t c = phase != 1 ? id
                                      : (id < defs.windows.size() && defs.windows[id].defined
                                             ? defs.windows[id].comm
                                             : kNone);
        const bool member =
            phase != 1 ? RankIn(defs.comms, c, loc) != kNone : RankInWindow(defs, id, loc) != kNone;
        const uint32_t into = member ? kNone : ProcessMemberIn(trace, c, loc);
        if (into == kNone || !listed[into]) {
          ++it;
          continue;
        }
        std::vector<CollectiveCall>& target = CallsOfPhase(calls[into], phase)[id];
        for (CollectiveCall call : it->second) {
          call.location = loc;
          target.push_back(call);
        }
        auto began = [&](const CollectiveCall& call) {
          const uint32_t at = call.location != kNone ? call.location : into;
          return trace.location(at).time(call.begin);
        };
        std::stable_sort(
            target.begin(), target.end(),
            [&](const CollectiveCall& a, const CollectiveCall& b) { return began(a) < began(b); });
        it = of_loc.erase(it);
      }
    }
  }
}

MemberCall ReadMember(const trace::Trace& trace, uint32_t loc, const CollectiveCall& call,
                      uint32_t rank) {
  if (call.location != kNone) loc = call.location;
  const trace::LocationEvents& ev = trace.location(loc);
  const trace::CollectivePayload& p = ev.collective(call.end);
  // The call's Enter: `begin` itself when the trace has no begin record, else its pair.
  const uint32_t enter =
      ev.kind(call.begin) == EventKind::kEnter ? call.begin : ev.pair(call.begin);
  const uint64_t entered = ev.time(enter == kNone ? call.begin : enter);
  MemberCall m;
  m.non_blocking = ev.kind(call.end) == EventKind::kNonBlockingCollectiveComplete;
  // A non-blocking member completes in a later call, and its senders are recorded where it
  // started (the request record).
  const uint32_t completion = m.non_blocking ? ev.pair(call.end) : kNone;
  m.member = CollectiveMember{
      loc,
      call.begin,
      call.end,
      rank,
      entered,
      ev.time(call.end),
      completion == kNone ? entered : ev.time(completion),
      p.sent,
      p.received,
      trace::CollectiveSenders(trace.defs, ev, m.non_blocking ? call.begin : call.end)};
  m.op = p.op;
  m.root_rank = p.root;
  return m;
}

namespace {

// Whether every member missing from `round` belongs to a rank whose recording the tracer noted
// ended early: ranks stop independently (each at its own share of --max-size, or when it
// crashes), so the ranks still recording call collectives the stopped ones are absent from.
// That is what the trace says happened, not an inconsistency.
bool MissingOnlyRanksThatEnded(const trace::Trace& trace,
                               const std::vector<uint32_t>& rank_locations,
                               const std::vector<const MemberCall*>& round) {
  std::vector<bool> present(rank_locations.size(), false);
  for (const MemberCall* m : round) {
    if (m->member.rank < present.size()) present[m->member.rank] = true;
  }
  for (size_t r = 0; r < rank_locations.size(); ++r) {
    if (present[r]) continue;
    if (rank_locations[r] == kNone) return false;
    if (!trace.defs.LocationEndedEarly(rank_locations[r])) return false;
  }
  return true;
}

}  // namespace

void AddInstance(const trace::Trace& trace, uint32_t comm_id, uint32_t window,
                 const std::vector<uint32_t>& rank_locations,
                 const std::vector<const MemberCall*>& round, SyncGraph& graph) {
  CollectiveInstance instance;
  instance.comm = comm_id;
  instance.window = window;
  instance.first_member = static_cast<uint32_t>(graph.members.size());
  instance.non_blocking = round.front()->non_blocking;
  bool mismatch = false;
  uint32_t root_rank = round.front()->root_rank;
  instance.op = round.front()->op;
  for (const MemberCall* m : round) {
    mismatch |= m->op != instance.op;
    graph.members.push_back(m->member);
  }
  const trace::Comm& comm = trace.defs.comms[comm_id];
  if (comm.is_inter()) {
    // Each member names the root from its side (trace::kRootSelf ...): they agree if they
    // name one location.
    instance.root = kNone;
    root_rank = kNone;
    for (const MemberCall* m : round) {
      if (m->root_rank == kNone || m->root_rank == trace::kRootThisGroup) continue;
      const uint32_t root = m->root_rank == trace::kRootSelf
                                ? m->member.location
                                : comm.LocationOfRank(m->root_rank, m->member.location);
      if (root == kNone) root_rank = m->root_rank;  // reported below, as outside
      if (instance.root == kNone) {
        instance.root = root;
      } else {
        mismatch |= root != instance.root;
      }
    }
  } else {
    for (const MemberCall* m : round) mismatch |= m->root_rank != root_rank;
    instance.root = root_rank == kNone ? kNone : comm.LocationOfRank(root_rank, rank_locations[0]);
  }
  instance.member_count = static_cast<uint32_t>(round.size());
  instance.complete = instance.member_count == rank_locations.size();
  const CollectiveMember& head = graph.members[instance.first_member];
  // The example is the lowest place, wherever (on whichever analysis rank) the instance is built.
  const uint64_t place = uint64_t{head.location} << 32 | head.end_event;
  if (mismatch) {
    graph.diagnostics.Report(kCollectiveMismatch, trace::EventPlace(head.location, head.end_event),
                             1, place);
  }
  if (root_rank != kNone && instance.root == kNone) {
    graph.diagnostics.Report(kCollectiveRootOutside,
                             trace::EventPlace(head.location, head.end_event) + ", root " +
                                 std::to_string(root_rank) + " of " +
                                 std::to_string(rank_locations.size()) + " ranks",
                             1, place);
  }
  if (!instance.complete) {
    ++graph.stats.incomplete_collectives;
    graph.diagnostics.Report(MissingOnlyRanksThatEnded(trace, rank_locations, round)
                                 ? kCollectiveAfterRankEnded
                                 : kIncompleteCollective,
                             trace::EventPlace(head.location, head.end_event), 1, place);
  }
  graph.collectives.push_back(instance);
}

void BuildCommInstances(const trace::Trace& trace, uint32_t comm_id, uint32_t window,
                        const std::vector<uint32_t>& rank_locations,
                        const std::vector<const std::vector<MemberCall>*>& lists,
                        SyncGraph& graph) {
  size_t rounds = 0;
  for (const std::vector<MemberCall>* list : lists) {
    if (list != nullptr) rounds = std::max(rounds, list->size());
  }
  std::vector<const MemberCall*> round;
  for (size_t k = 0; k < rounds; ++k) {
    round.clear();
    for (const std::vector<MemberCall>* list : lists) {
      if (list != nullptr && k < list->size()) round.push_back(&(*list)[k]);
    }
    AddInstance(trace, comm_id, window, rank_locations, round, graph);
  }
}

void BuildFromScans(const trace::Trace& trace, uint32_t phase, uint32_t comm_id, uint32_t window,
                    const std::vector<uint32_t>& rank_locations,
                    const std::vector<LocationCalls>& calls, SyncGraph& graph) {
  std::vector<std::vector<MemberCall>> lists(rank_locations.size());
  std::vector<const std::vector<MemberCall>*> present(rank_locations.size(), nullptr);
  for (size_t r = 0; r < rank_locations.size(); ++r) {
    uint32_t loc = rank_locations[r];
    if (loc == kNone) continue;
    const CallsByComm& of_loc = CallsOfPhase(calls[loc], phase);
    auto it = of_loc.find(phase == 1 ? window : comm_id);
    if (it == of_loc.end()) continue;
    for (const CollectiveCall& call : it->second) {
      lists[r].push_back(ReadMember(trace, loc, call, static_cast<uint32_t>(r)));
    }
    present[r] = &lists[r];
  }
  BuildCommInstances(trace, comm_id, window, rank_locations, present, graph);
}

}  // namespace cw::match::internal
