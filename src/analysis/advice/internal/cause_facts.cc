#include "analysis/advice/internal/cause_facts.h"

#include <algorithm>
#include <map>
#include <tuple>

#include "analysis/advice/records.h"
#include "base/check.h"
#include "base/parallel.h"
#include "comm/wire.h"
#include "trace/event_kind.h"

namespace cw::analysis::advice_internal {

using trace::EventKind;
using trace::kNone;

uint32_t CallOf(const trace::LocationEvents& ev, uint32_t event) {
  if (ev.kind(event) == EventKind::kEnter) return event;
  const uint32_t enter = ev.pair(event);
  return enter == kNone ? event : enter;
}

std::vector<Transfer> HeldTransfers(const trace::Trace& trace) {
  const trace::Definitions& defs = trace.defs;
  std::vector<Transfer> out;
  for (uint32_t loc = 0; loc < trace.location_count(); ++loc) {
    const trace::LocationEvents& ev = trace.location(loc);
    std::span<const EventKind> kinds = ev.kinds();
    for (uint32_t i = 0; i < kinds.size(); ++i) {
      if (!IsOneSidedTransfer(kinds[i])) continue;
      const uint32_t target = TransferTarget(defs, ev, i, loc);
      if (target < trace.location_count() && target != loc) {
        out.push_back(Transfer{ev.time(i), loc, i, ev.callpath(CallOf(ev, i)), target});
      }
    }
  }
  return out;
}

std::vector<std::vector<Transfer>> ByTarget(uint32_t locations, std::vector<Transfer> all) {
  std::vector<std::vector<Transfer>> out(locations);
  for (const Transfer& t : all) out[t.target].push_back(t);
  for (auto& v : out) {
    std::sort(v.begin(), v.end(), [](const Transfer& a, const Transfer& b) {
      return std::tie(a.time, a.origin, a.event) < std::tie(b.time, b.origin, b.event);
    });
  }
  return out;
}

namespace {

uint64_t EventKey(uint32_t location, uint32_t event) { return (uint64_t{location} << 32) | event; }

}  // namespace

std::optional<CallFacts> OtherCalls::Find(uint32_t location, uint32_t event) const {
  if (location >= trace_.location_count()) return std::nullopt;
  const trace::LocationEvents& ev = trace_.location(location);
  if (event < ev.size()) {
    const uint32_t call = CallOf(ev, event);
    return CallFacts{ev.callpath(call), ev.time(call)};
  }
  if (const CallFacts* f = learnt_.Find(EventKey(location, event))) return *f;
  return std::nullopt;
}

void OtherCalls::Learn(const std::vector<std::pair<uint32_t, uint32_t>>& wanted,
                       const CauseInput& in) {
  comm::Communicator& comm = *in.comm;
  const trace::Partition& partition = *in.partition;
  std::vector<comm::ByteWriter> ask(comm.size());
  for (const auto& [location, event] : wanted) {
    if (location >= partition.owner.size()) continue;
    const uint32_t owner = partition.owner[location];
    ask[owner].Put(location);
    ask[owner].Put(event);
  }
  const std::vector<comm::Bytes> questions = comm.Exchange(comm::TakeAll(ask));
  std::vector<comm::ByteWriter> answer(comm.size());
  for (uint32_t r = 0; r < comm.size(); ++r) {
    comm::ByteReader q(questions[r]);
    while (!q.done()) {
      const auto location = q.Get<uint32_t>();
      const auto event = q.Get<uint32_t>();
      const std::optional<CallFacts> f = Find(location, event);
      answer[r].Put(location);
      answer[r].Put(event);
      answer[r].Put(f ? f->callpath : kNone);
      answer[r].Put(f ? f->enter : uint64_t{0});
    }
  }
  for (const comm::Bytes& bytes : comm.Exchange(comm::TakeAll(answer))) {
    comm::ByteReader a(bytes);
    while (!a.done()) {
      const auto location = a.Get<uint32_t>();
      const auto event = a.Get<uint32_t>();
      CallFacts f;
      f.callpath = a.Get<uint32_t>();
      f.enter = a.Get<uint64_t>();
      if (f.callpath != kNone) learnt_.Insert(EventKey(location, event), f);
    }
  }
}

std::vector<Transfer> TransfersToSharedTargets(std::vector<Transfer> held, const CauseInput& in) {
  if (in.comm == nullptr) return held;
  comm::Communicator& comm = *in.comm;
  // Which ranks transfer to which targets: each rank names its own targets to all.
  std::vector<uint32_t> targets;
  for (const Transfer& t : held) targets.push_back(t.target);
  std::sort(targets.begin(), targets.end());
  targets.erase(std::unique(targets.begin(), targets.end()), targets.end());
  comm::ByteWriter mine;
  mine.PutVector(targets);
  std::map<uint32_t, std::vector<uint32_t>> ranks_of_target;
  const std::vector<comm::Bytes> all = comm.AllGather(mine.Take());
  for (uint32_t r = 0; r < all.size(); ++r) {
    comm::ByteReader in_targets(all[r]);
    for (uint32_t target : in_targets.GetVector<uint32_t>()) ranks_of_target[target].push_back(r);
  }
  std::vector<comm::ByteWriter> out(comm.size());
  for (const Transfer& t : held) {
    for (uint32_t r : ranks_of_target[t.target]) out[r].Put(t);
  }
  std::vector<Transfer> shared;
  for (const comm::Bytes& bytes : comm.Exchange(comm::TakeAll(out))) {
    comm::ByteReader r(bytes);
    while (!r.done()) shared.push_back(r.Get<Transfer>());
  }
  return shared;
}

void LearnWholeInstances(const CauseInput& in, MemberIndex& members) {
  comm::Communicator& comm = *in.comm;
  const match::SyncGraph& g = *in.graph;
  std::vector<comm::ByteWriter> ask(comm.size());
  std::vector<bool> asked(g.collectives.size(), false);
  std::map<uint64_t, std::vector<uint32_t>> instances_of;  // origin -> this rank's instances
  for (const auto& calls : members.bottlenecks) {
    for (const auto& [call, k] : calls) {
      const uint32_t c = members.instance[k];
      if (c == kNone || asked[c] || g.collectives[c].window != kNone) continue;
      asked[c] = true;
      const uint64_t origin = g.collectives[c].origin;
      if (instances_of[origin].empty()) ask[origin >> 32].Put(origin);
      instances_of[origin].push_back(c);
    }
  }
  const std::vector<comm::Bytes> questions = comm.Exchange(comm::TakeAll(ask));
  std::vector<comm::ByteWriter> answer(comm.size());
  for (uint32_t r = 0; r < comm.size(); ++r) {
    comm::ByteReader q(questions[r]);
    while (!q.done()) {
      const auto origin = q.Get<uint64_t>();
      const uint64_t index = origin & 0xFFFFFFFFu;
      CW_CHECK(index < g.built.collectives.size());
      const match::CollectiveInstance& c = g.built.collectives[index];
      std::vector<match::CollectiveMember> list(
          g.built.members.begin() + c.first_member,
          g.built.members.begin() + c.first_member + c.member_count);
      answer[r].Put(origin);
      answer[r].PutVector(list);
    }
  }
  for (const comm::Bytes& bytes : comm.Exchange(comm::TakeAll(answer))) {
    comm::ByteReader a(bytes);
    while (!a.done()) {
      const auto origin = a.Get<uint64_t>();
      members.whole.push_back(a.GetVector<match::CollectiveMember>());
      for (uint32_t c : instances_of[origin]) {
        members.whole_of.Insert(c, static_cast<uint32_t>(members.whole.size() - 1));
      }
    }
  }
}

// Each collective member's instance, and for each location its members that are calls of a
// bottleneck call path (resolved by the location's own events, in event order).
MemberIndex IndexMembers(const CauseInput& in, const std::vector<uint32_t>& finding_of) {
  const trace::Trace& trace = *in.trace;
  const uint32_t n = trace.location_count();
  const std::vector<match::CollectiveMember>& all = in.graph->members;
  MemberIndex members;
  members.instance.assign(all.size(), kNone);
  members.callpath.assign(all.size(), kNone);
  members.arrivals.resize(all.size());
  members.position.resize(all.size());
  ParallelFor(in.graph->collectives.size(), in.threads, [&](size_t c) {
    const match::CollectiveInstance& inst = in.graph->collectives[c];
    const size_t first = inst.first_member;
    const size_t end = std::min<size_t>(first + inst.member_count, all.size());
    for (size_t k = first; k < end; ++k) {
      members.arrivals[k] = MemberIndex::Arrival{all[k].entered, all[k].location, all[k].rank,
                                                 static_cast<uint32_t>(k - first)};
    }
    std::sort(members.arrivals.begin() + static_cast<ptrdiff_t>(first),
              members.arrivals.begin() + static_cast<ptrdiff_t>(end),
              MemberIndex::Arrival::ByEntry);
    for (size_t k = first; k < end; ++k) {
      members.position[first + members.arrivals[k].member] = static_cast<uint32_t>(k - first);
    }
  });
  members.bottlenecks.resize(n);
  for (uint32_t c = 0; c < in.graph->collectives.size(); ++c) {
    const match::CollectiveInstance& inst = in.graph->collectives[c];
    // A non-blocking member's calls (the start and the completion) are no collective call.
    if (inst.non_blocking) continue;
    for (uint32_t k = inst.first_member; k < inst.first_member + inst.member_count; ++k) {
      members.instance[k] = c;
    }
  }
  ParallelFor(std::min<size_t>(n, in.graph->by_location.size()), in.threads, [&](size_t loc) {
    const trace::LocationEvents& ev = trace.location(static_cast<uint32_t>(loc));
    for (uint32_t k : in.graph->by_location[loc].collectives) {
      if (k >= all.size() || members.instance[k] == kNone || all[k].begin_event >= ev.size()) {
        continue;
      }
      const uint32_t call = CallOf(ev, all[k].begin_event);
      const uint32_t cp = ev.callpath(call);
      members.callpath[k] = cp;
      if (cp < finding_of.size() && finding_of[cp] != kNone) {
        members.bottlenecks[loc].emplace_back(call, k);
      }
    }
    // In the order of the location's members, which is that of their calls, but for a broken
    // trace.
    std::vector<std::pair<uint32_t, uint32_t>>& mine = members.bottlenecks[loc];
    if (!std::is_sorted(mine.begin(), mine.end())) std::sort(mine.begin(), mine.end());
  });
  return members;
}

// An MPI analysis job: the members of this rank's bottleneck collectives, their calls, and the
// calls of the delayers of its wait edges, from the ranks that hold them.
void LearnOtherRanksCalls(const CauseInput& in, MemberIndex& members, OtherCalls& other_calls) {
  const trace::Trace& trace = *in.trace;
  const uint32_t n = trace.location_count();
  const std::vector<match::CollectiveMember>& all = in.graph->members;
  LearnWholeInstances(in, members);
  std::vector<std::pair<uint32_t, uint32_t>> wanted;
  std::vector<bool> asked(in.graph->collectives.size(), false);
  for (uint32_t loc = 0; loc < n; ++loc) {
    for (const auto& [call, k] : members.bottlenecks[loc]) {
      const uint32_t c = members.instance[k];
      if (c == kNone || asked[c]) continue;
      asked[c] = true;
      if (const std::vector<match::CollectiveMember>* whole = members.Whole(c)) {
        for (const match::CollectiveMember& m : *whole) {
          if (m.location < n && m.begin_event >= trace.location(m.location).size()) {
            wanted.emplace_back(m.location, m.begin_event);
          }
        }
        continue;
      }
      const match::CollectiveInstance& inst = in.graph->collectives[c];
      for (uint32_t m = inst.first_member; m < inst.first_member + inst.member_count; ++m) {
        if (members.callpath[m] == kNone) wanted.emplace_back(all[m].location, all[m].begin_event);
      }
    }
  }
  for (const WaitEdge& w : in.edges) {
    if (w.delayer < n && w.delayer_event != kNone &&
        w.delayer_event >= trace.location(w.delayer).size()) {
      wanted.emplace_back(w.delayer, w.delayer_event);
    }
  }
  std::sort(wanted.begin(), wanted.end());
  wanted.erase(std::unique(wanted.begin(), wanted.end()), wanted.end());
  other_calls.Learn(wanted, in);
  for (uint32_t k = 0; k < all.size(); ++k) {
    if (members.callpath[k] != kNone) continue;
    if (std::optional<CallFacts> f = other_calls.Find(all[k].location, all[k].begin_event)) {
      members.callpath[k] = f->callpath;
    }
  }
}

}  // namespace cw::analysis::advice_internal
