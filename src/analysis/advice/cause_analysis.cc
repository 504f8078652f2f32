#include "analysis/advice/cause_analysis.h"

#include <algorithm>
#include <map>
#include <optional>
#include <tuple>

#include "analysis/advice/internal/cause_facts.h"
#include "analysis/advice/internal/group_waits.h"
#include "analysis/advice/records.h"
#include "analysis/generic/construct_map.h"
#include "base/check.h"
#include "base/flat_hash_map.h"
#include "base/parallel.h"
#include "comm/wire.h"
#include "trace/event_kind.h"

namespace cw::analysis {

AdvicePattern PatternOfWait(SyncPattern p) {
  switch (p) {
    case SyncPattern::kLateSender:
      return AdvicePattern::kLateSender;
    case SyncPattern::kLateReceiver:
      return AdvicePattern::kLateReceiver;
    case SyncPattern::kRmaLock:
    case SyncPattern::kShmemLock:
    case SyncPattern::kOmpLock:
      return AdvicePattern::kWaitOnLock;
    case SyncPattern::kShmemWaitOnValue:
      return AdvicePattern::kWaitOnValue;
    default:
      // Collectives, fences, window creation and freeing, and general active target epochs
      // (MPI_Win_post/start/complete/wait synchronise the groups they name).
      return AdvicePattern::kWaitOnGroup;
  }
}

namespace {

using advice_internal::ByTarget;
using advice_internal::CallFacts;
using advice_internal::CallOf;
using advice_internal::GroupWait;
using advice_internal::HeldTransfers;
using advice_internal::IndexMembers;
using advice_internal::LearnOtherRanksCalls;
using advice_internal::MemberIndex;
using advice_internal::OtherCalls;
using advice_internal::Transfer;
using advice_internal::TransfersToSharedTargets;
using trace::EventKind;
using trace::kNone;

// Whom a member of an operation can wait for: a broadcast or scatter its root, a reduce or
// gather's root everyone, a prefix operation the lower ranks, every other operation (barriers,
// all-to-all, window handles) everyone.
enum class WaitedFor : uint8_t { kEveryone, kTheRoot, kEveryoneAtTheRoot, kLowerRanks };

WaitedFor WhomMembersWaitFor(trace::CollectiveOp op) {
  using trace::CollectiveOp;
  switch (op) {
    case CollectiveOp::kBcast:
    case CollectiveOp::kScatter:
    case CollectiveOp::kScatterv:
      return WaitedFor::kTheRoot;
    case CollectiveOp::kGather:
    case CollectiveOp::kGatherv:
    case CollectiveOp::kReduce:
      return WaitedFor::kEveryoneAtTheRoot;
    case CollectiveOp::kScan:
    case CollectiveOp::kExscan:
      return WaitedFor::kLowerRanks;
    default:
      return WaitedFor::kEveryone;
  }
}

// Whether collective member `self` of `c` can wait for member `other`.
bool CanWaitFor(const match::CollectiveInstance& c, const MemberIndex::Arrival& self,
                const MemberIndex::Arrival& other) {
  switch (WhomMembersWaitFor(c.op)) {
    case WaitedFor::kTheRoot:
      return other.location == c.root;
    case WaitedFor::kEveryoneAtTheRoot:
      return self.location == c.root;
    case WaitedFor::kLowerRanks:
      return other.rank < self.rank;
    case WaitedFor::kEveryone:
      return true;
  }
  return true;
}

// What one location's bottleneck instances add to one finding.
struct Partial {
  uint64_t instances = 0;
  uint64_t time = 0;
  std::array<uint64_t, kAdvicePatternCount> counts{};
  std::array<uint64_t, kAdvicePatternCount> pattern_time{};
  // By (location << 32 | callpath), with the serial of the last instance it took part in (so
  // that an instance counts once however many of the cause's operations were in its window).
  struct Cause {
    AdviceCause cause;
    uint64_t last_instance = UINT64_MAX;
  };
  FlatHashMap<uint64_t, Cause> causes;
  // Its waits for all of an all-to-all operation's later members, whose causes are summed per
  // instance (group_waits.h).
  std::vector<GroupWait> group_waits;
};

// The first of the arrivals [from, end), sorted by entry, that entered after `t`: found by
// doubling steps from `from` and a binary search in the last step, since the members a call
// waited for are mostly few and entered right after it (a binary search through all of an
// instance's arrivals reads as many cache lines, instance after instance).
const MemberIndex::Arrival* EnteredAfter(const MemberIndex::Arrival* from,
                                         const MemberIndex::Arrival* end, uint64_t t) {
  const size_t n = static_cast<size_t>(end - from);
  size_t bound = 1;
  while (bound < n && from[bound - 1].entered <= t) bound *= 2;  // from[bound / 2 - 1] <= t
  return std::upper_bound(from + bound / 2, from + std::min(bound, n), t,
                          [](uint64_t x, const MemberIndex::Arrival& m) { return x < m.entered; });
}

class LocationCauses {
 public:
  LocationCauses(const CauseInput& in, const std::vector<uint32_t>& finding_of,
                 const std::vector<std::vector<uint32_t>>& edges_by_location,
                 const MemberIndex& members, const std::vector<std::vector<Transfer>>& transfers,
                 const OtherCalls& calls, uint32_t location)
      : in_(in),
        trace_(*in.trace),
        ev_(trace_.location(location)),
        finding_of_(finding_of),
        members_(members),
        transfers_(transfers),
        other_calls_(calls),
        location_(location),
        measured_overhead_(std::find(in.region_types.begin(), in.region_types.end(),
                                     GenericType::kMeasurement) != in.region_types.end()) {
    calls_.reserve(edges_by_location[location].size());
    for (uint32_t e : edges_by_location[location]) {
      calls_.emplace_back(CallOf(ev_, in.edges[e].waiter_event), e);
    }
    // The edges come in the order of their waits, often in two runs (the point-to-point waits,
    // then the collective ones): merged, not sorted, if so.
    auto split = std::is_sorted_until(calls_.begin(), calls_.end());
    if (split != calls_.end()) {
      if (std::is_sorted(split, calls_.end())) {
        std::inplace_merge(calls_.begin(), split, calls_.end());
      } else {
        std::sort(calls_.begin(), calls_.end());
      }
    }
  }

  // Whether collective member `member` (of `instance`, `c`), inside its call from t0 to t1,
  // waited for the group: the last of the members it can wait for entered at least half of its
  // time after it. If so, its causes are charged: the members of an all-to-all operation as a
  // range, summed per instance later (group_waits.h); the others one by one.
  bool ClassifyGroupWait(const match::CollectiveInstance& c, uint32_t member, uint32_t instance,
                         uint64_t t0, uint64_t t1) {
    using Arrival = MemberIndex::Arrival;
    const Arrival* first = members_.arrivals.data() + c.first_member;
    const Arrival* end = first + c.member_count;
    // Its own arrival: the members after it entered no earlier. Its entry is mostly that of its
    // call, so those that entered while it was inside are found by stepping on from it.
    const Arrival* self_at = first + members_.position[member];
    const Arrival& self = *self_at;
    const Arrival* lo = EnteredAfter(self.entered <= t0 ? self_at : first, end, t0);
    const Arrival* hi = EnteredAfter(lo, end, t1);  // and before it left
    if (WhomMembersWaitFor(c.op) == WaitedFor::kEveryone) {
      // Itself, if it lies in the range (its entry after that of its call).
      const bool inside = self_at >= lo && self_at < hi;
      const Arrival* last = hi == lo ? nullptr : hi - 1;
      if (inside && last == self_at) last = last == lo ? nullptr : last - 1;
      const uint64_t latest = last == nullptr ? 0 : last->entered - t0;
      if (latest == 0 || 2 * latest < t1 - t0) return false;
      auto add = [&](const Arrival* from, const Arrival* to) {
        if (from < to) {
          partial_->group_waits.push_back(GroupWait{instance, static_cast<uint32_t>(from - first),
                                                    static_cast<uint32_t>(to - first), t0});
        }
      };
      add(lo, inside ? self_at : hi);
      if (inside) add(self_at + 1, hi);
      return true;
    }
    uint64_t latest = 0;
    later_.clear();
    for (const Arrival* m = lo; m != hi; ++m) {
      if (m->location == location_ || !CanWaitFor(c, self, *m)) continue;
      latest = std::max(latest, m->entered - t0);
      later_.push_back(*m);
    }
    if (latest == 0 || 2 * latest < t1 - t0) return false;
    for (const Arrival& m : later_)
      AddCause(m.location, members_.callpath[c.first_member + m.member], m.entered - t0, m.entered);
    return true;
  }

  // The location's instances of the findings' call paths, each found by its Enter and measured
  // through the nesting the trace's `pair` column gives: only those instances are looked into.
  // The instances come in event order: the charged calls and collective members are taken in
  // step with them.
  std::map<uint32_t, Partial> Run() {
    if (location_ < in_.instances.size()) {
      for (uint32_t i : in_.instances[location_]) {
        if (i < ev_.size() && ev_.kind(i) == EventKind::kEnter) Visit(i);
      }
      return std::move(out_);
    }
    std::span<const EventKind> kinds = ev_.kinds();
    for (uint32_t i = 0; i < kinds.size(); ++i) {
      if (kinds[i] == EventKind::kEnter) Visit(i);
    }
    return std::move(out_);
  }

 private:
  // The instance entered at `enter`, if its call path is a bottleneck's and it lasted longer than
  // the bottleneck's bound. Inlined into Run, which calls it per instance; most instances end
  // at its first tests, and the call itself cost as much as they do.
  [[gnu::always_inline]] void Visit(uint32_t enter) {
    const uint32_t callpath = ev_.ref(enter);
    if (callpath >= finding_of_.size() || finding_of_[callpath] == kNone) return;
    const uint32_t leave = ev_.pair(enter);
    if (leave == kNone || leave <= enter) return;  // never left: no instance
    Measure(enter, leave, callpath);
  }

  // Visit's instance of a bottleneck's call path, from `enter` to `leave`: counted with its
  // pattern if it lasted longer than the bottleneck's bound.
  void Measure(uint32_t enter, uint32_t leave, uint32_t callpath) {
    const uint32_t f = finding_of_[callpath];
    const DetectedBottleneck& b = in_.bottlenecks[f];
    const GenericType type = TypeOf(callpath);
    const uint64_t inclusive = ev_.time(leave) - ev_.time(enter);
    const uint64_t measure = type == GenericType::kLocal
                                 ? InstanceMeasure(type, inclusive, ChildrenTime(enter, leave), 0)
                                 : InstanceMeasure(type, inclusive, 0, OverheadIn(enter, leave));
    if (static_cast<double>(measure) <= b.bound) return;
    Partial*& slot = partial_of_[f];
    if (slot == nullptr) slot = &out_[f];
    Partial& p = *slot;
    ++p.instances;
    p.time += measure;
    partial_ = &p;
    ++serial_;
    const AdvicePattern pattern = Classify(enter, leave, type);
    ++p.counts[static_cast<size_t>(pattern)];
    p.pattern_time[static_cast<size_t>(pattern)] += measure;
  }

  GenericType TypeOf(uint32_t callpath) const {
    return CallpathType(trace_, in_.region_types, callpath);
  }

  // The time of the regions directly inside the region entered at `enter` and left at `leave`.
  uint64_t ChildrenTime(uint32_t enter, uint32_t leave) const {
    uint64_t children = 0;
    for (uint32_t k = enter + 1; k < leave; ++k) {
      if (ev_.kind(k) != EventKind::kEnter) continue;
      const uint32_t child_leave = ev_.pair(k);
      if (child_leave == kNone || child_leave <= k || child_leave >= leave) continue;
      children += ev_.time(child_leave) - ev_.time(k);
      k = child_leave;
    }
    return children;
  }

  // The time of the measurement system's regions nested at any depth in the region entered at
  // `enter` and left at `leave` (OverheadOf: a measurement region's nested regions are its own).
  uint64_t OverheadIn(uint32_t enter, uint32_t leave) const {
    uint64_t overhead = 0;
    if (!measured_overhead_) return overhead;  // no region of the measurement system: none
    for (uint32_t k = enter + 1; k < leave; ++k) {
      if (ev_.kind(k) != EventKind::kEnter || TypeOf(ev_.ref(k)) != GenericType::kMeasurement)
        continue;
      const uint32_t nested_leave = ev_.pair(k);
      if (nested_leave == kNone || nested_leave <= k || nested_leave >= leave) continue;
      overhead += ev_.time(nested_leave) - ev_.time(k);  // all of it (OverheadOf)
      k = nested_leave;
    }
    return overhead;
  }

  // A remote operation (of `callpath`) that made the current instance (`serial_`) wait, for
  // finding `partial_`.
  void AddCause(uint32_t location, uint32_t callpath, uint64_t time, uint64_t at) {
    const uint64_t key = (uint64_t{location} << 32) | callpath;
    Partial::Cause* c = partial_->causes.Find(key);
    if (c == nullptr) {
      Partial::Cause fresh;
      fresh.cause.location = location;
      fresh.cause.callpath = callpath;
      fresh.cause.first = at;
      partial_->causes.Insert(key, fresh);
      c = partial_->causes.Find(key);
    }
    c->cause.time += time;
    c->cause.first = std::min(c->cause.first, at);
    if (c->last_instance != serial_) {
      c->last_instance = serial_;
      ++c->cause.instances;
    }
  }

  AdvicePattern Classify(uint32_t enter, uint32_t leave, GenericType type) {
    const uint64_t t0 = ev_.time(enter);
    const uint64_t t1 = ev_.time(leave);
    // 1. A collective member: the members it can wait for that entered after it, before it
    //    ended (all of them; the wait-state edges name only the last).
    if (const uint32_t member = NextMember(enter); member != kNone) {
      const uint32_t instance = members_.instance[member];
      const match::CollectiveInstance& c = in_.graph->collectives[instance];
      // All its members: in the graph, or (a rank of a job, which lists only its own) as the
      // rank that built the instance sent them.
      std::span<const match::CollectiveMember> all(in_.graph->members.data() + c.first_member,
                                                   c.member_count);
      const std::vector<match::CollectiveMember>* whole = members_.Whole(instance);
      if (whole != nullptr) all = *whole;
      // A wait for the group when the last of them kept it at least half of its time; else
      // the operation itself was slow (a member a microsecond late explains nothing).
      if (whole == nullptr) {
        if (ClassifyGroupWait(c, member, instance, t0, t1)) return AdvicePattern::kWaitOnGroup;
      } else {
        // The members are read once: those it can have waited for are kept for the causes.
        const match::CollectiveMember& own = in_.graph->members[member];
        const MemberIndex::Arrival self{own.entered, own.location, own.rank,
                                        member - c.first_member};
        uint64_t latest = 0;
        later_.clear();
        for (size_t i = 0; i < all.size(); ++i) {
          const MemberIndex::Arrival m{all[i].entered, all[i].location, all[i].rank,
                                       static_cast<uint32_t>(i)};
          if (m.location == location_ || m.entered <= t0 || m.entered > t1) continue;
          if (!CanWaitFor(c, self, m)) continue;
          latest = std::max(latest, m.entered - t0);
          later_.push_back(m);
        }
        if (latest > 0 && 2 * latest >= t1 - t0) {
          for (const MemberIndex::Arrival& m : later_) {
            const match::CollectiveMember& w = all[m.member];
            const std::optional<CallFacts> f = other_calls_.Find(w.location, w.begin_event);
            AddCause(m.location, f ? f->callpath : kNone, m.entered - t0, m.entered);
          }
          return AdvicePattern::kWaitOnGroup;
        }
      }
    }
    // 2. The waits the analysis charged to this call: the largest decides the pattern, if it
    //    took at least half of the call (as for a group).
    while (next_call_ < calls_.size() && calls_[next_call_].first < enter) ++next_call_;
    const auto charged = calls_.begin() + static_cast<ptrdiff_t>(next_call_);
    auto charged_end = charged;
    while (charged_end != calls_.end() && charged_end->first == enter) ++charged_end;
    if (charged != charged_end) {
      int64_t largest = 0;
      AdvicePattern pattern = AdvicePattern::kNoRemoteCause;
      for (auto it = charged; it != charged_end; ++it) {
        const uint32_t e = it->second;
        const WaitEdge& w = in_.edges[e];
        if (w.wait > largest) {
          largest = w.wait;
          pattern = PatternOfWait(w.pattern);
        }
      }
      if (largest > 0 && 2 * static_cast<uint64_t>(largest) >= t1 - t0) {
        for (auto it = charged; it != charged_end; ++it) {
          const uint32_t e = it->second;
          const WaitEdge& w = in_.edges[e];
          const std::optional<CallFacts> delayer =
              w.delayer_event == kNone ? std::nullopt
                                       : other_calls_.Find(w.delayer, w.delayer_event);
          AddCause(w.delayer, delayer ? delayer->callpath : kNone, static_cast<uint64_t>(w.wait),
                   delayer ? delayer->enter : t0);
        }
        return pattern;
      }
    }
    // 3. A one-sided transfer: other processes' transfers to its targets inside its window.
    if (type == GenericType::kPut || type == GenericType::kGet || type == GenericType::kAtomic) {
      bool any = false;
      for (uint32_t target : TargetsOf(enter, leave)) {
        const std::vector<Transfer>& to = transfers_[target];
        auto first = std::lower_bound(to.begin(), to.end(), t0,
                                      [](const Transfer& x, uint64_t t) { return x.time < t; });
        for (auto it = first; it != to.end() && it->time <= t1; ++it) {
          if (it->origin == location_) continue;
          AddCause(it->origin, it->callpath, t1 - it->time, it->time);
          any = true;
        }
      }
      if (any) return AdvicePattern::kCompetingTransfer;
    }
    return AdvicePattern::kNoRemoteCause;
  }

  // The collective member whose call is entered at `enter`, or none. Run classifies the calls
  // in the order of their Enters, and the location's members are sorted by them: a cursor
  // replaces a binary search per instance.
  uint32_t NextMember(uint32_t enter) {
    const std::vector<std::pair<uint32_t, uint32_t>>& mine = members_.bottlenecks[location_];
    while (next_member_ < mine.size() && mine[next_member_].first < enter) ++next_member_;
    return next_member_ < mine.size() && mine[next_member_].first == enter
               ? mine[next_member_].second
               : kNone;
  }

  // The target locations of the one-sided transfers directly inside the call.
  std::vector<uint32_t> TargetsOf(uint32_t enter, uint32_t leave) const {
    std::vector<uint32_t> targets;
    const trace::Definitions& defs = trace_.defs;
    for (uint32_t i = enter + 1; i < leave; ++i) {
      if (!IsOneSidedTransfer(ev_.kind(i))) continue;
      const uint32_t target = TransferTarget(defs, ev_, i, location_);
      if (target < transfers_.size() &&
          std::find(targets.begin(), targets.end(), target) == targets.end()) {
        targets.push_back(target);
      }
    }
    return targets;
  }

  const CauseInput& in_;
  const trace::Trace& trace_;
  const trace::LocationEvents& ev_;
  const std::vector<uint32_t>& finding_of_;
  const MemberIndex& members_;
  const std::vector<std::vector<Transfer>>& transfers_;
  const OtherCalls& other_calls_;
  uint32_t location_;
  bool measured_overhead_;  // the trace defines regions of the measurement system (OverheadIn)
  // (call Enter, edge) of the waits charged to the location's calls, ascending: one
  // allocation for all of them rather than a list per call.
  std::vector<std::pair<uint32_t, uint32_t>> calls_;
  // Cursors into calls_ and the location's bottleneck members: the first entry not before the
  // call being classified (Run goes through the calls in the order of their Enters).
  size_t next_call_ = 0;
  size_t next_member_ = 0;
  std::map<uint32_t, Partial> out_;  // by finding
  // By finding, its entry in out_ once made: one map lookup per finding, not per instance.
  std::vector<Partial*> partial_of_ = std::vector<Partial*>(in_.bottlenecks.size(), nullptr);
  Partial* partial_ = nullptr;               // the current instance's finding
  uint64_t serial_ = 0;                      // the current instance's number
  std::vector<MemberIndex::Arrival> later_;  // the members a collective call can have waited for
};

// The locations' partial findings summed per finding, in location order, and each finding's
// causes merged by (location, call path).
void CombinePartials(const CauseInput& in, const MemberIndex& members,
                     std::vector<std::map<uint32_t, Partial>>& partials,
                     std::vector<AdviceFinding>& findings) {
  std::vector<std::map<uint64_t, AdviceCause>> causes(findings.size());  // by (location, callpath)
  std::vector<std::vector<GroupWait>> group_waits(findings.size());
  for (uint32_t loc = 0; loc < partials.size(); ++loc) {
    for (auto& [f, p] : partials[loc]) {
      AdviceFinding& finding = findings[f];
      finding.locations.push_back(loc);
      finding.bottleneck_instances += p.instances;
      finding.bottleneck_time += p.time;
      for (size_t k = 0; k < kAdvicePatternCount; ++k) {
        finding.pattern_counts[k] += p.counts[k];
        finding.pattern_time[k] += p.pattern_time[k];
      }
      group_waits[f].insert(group_waits[f].end(), p.group_waits.begin(), p.group_waits.end());
      std::map<uint64_t, AdviceCause>& into = causes[f];  // (lambdas cannot name a binding)
      p.causes.ForEach([&into](uint64_t key, const Partial::Cause& c) {
        auto [it, inserted] = into.try_emplace(key, c.cause);
        if (inserted) return;
        it->second.time += c.cause.time;
        it->second.instances += c.cause.instances;
        it->second.first = std::min(it->second.first, c.cause.first);
      });
    }
  }
  ParallelFor(findings.size(), in.threads, [&](size_t f) {
    advice_internal::AddGroupWaitCauses(group_waits[f], *in.graph, members, causes[f]);
  });
  for (uint32_t f = 0; f < findings.size(); ++f) {
    AdviceFinding& finding = findings[f];
    finding.callpath = in.bottlenecks[f].callpath;
    finding.filter = in.bottlenecks[f].filter;
    finding.expected = in.bottlenecks[f].expected;
    for (auto& [key, c] : causes[f]) finding.causes.push_back(c);
  }
}

}  // namespace

std::vector<AdviceFinding> AnalyzeCauses(const CauseInput& in) {
  const trace::Trace& trace = *in.trace;
  const uint32_t n = trace.location_count();
  std::vector<AdviceFinding> findings(in.bottlenecks.size());
  if (in.bottlenecks.empty()) return findings;
  std::vector<uint32_t> finding_of(trace.call_tree.size(), kNone);
  bool transfers_needed = false;
  for (uint32_t f = 0; f < in.bottlenecks.size(); ++f) {
    finding_of[in.bottlenecks[f].callpath] = f;
    const GenericType t = CallpathType(trace, in.region_types, in.bottlenecks[f].callpath);
    transfers_needed |=
        t == GenericType::kPut || t == GenericType::kGet || t == GenericType::kAtomic;
  }
  std::vector<std::vector<uint32_t>> edges_by_location(n);
  for (uint32_t e = 0; e < in.edges.size(); ++e) {
    const WaitEdge& w = in.edges[e];
    if (w.waiter < n && w.waiter_event < trace.location(w.waiter).size()) {
      edges_by_location[w.waiter].push_back(e);
    }
  }
  MemberIndex members = IndexMembers(in, finding_of);
  OtherCalls other_calls(trace);
  if (in.comm != nullptr) LearnOtherRanksCalls(in, members, other_calls);
  const std::vector<std::vector<Transfer>> transfers =
      transfers_needed ? ByTarget(n, TransfersToSharedTargets(HeldTransfers(trace), in))
                       : std::vector<std::vector<Transfer>>(n);

  std::vector<std::map<uint32_t, Partial>> partials(n);
  ParallelFor(n, in.threads, [&](size_t loc) {
    partials[loc] = LocationCauses(in, finding_of, edges_by_location, members, transfers,
                                   other_calls, static_cast<uint32_t>(loc))
                        .Run();
  });
  CombinePartials(in, members, partials, findings);
  return findings;
}

void MergeCauses(std::vector<AdviceFinding>& into, const std::vector<AdviceFinding>& share) {
  CW_CHECK(into.size() == share.size());
  for (size_t f = 0; f < into.size(); ++f) {
    AdviceFinding& a = into[f];
    const AdviceFinding& b = share[f];
    a.locations.insert(a.locations.end(), b.locations.begin(), b.locations.end());
    a.bottleneck_instances += b.bottleneck_instances;
    a.bottleneck_time += b.bottleneck_time;
    for (size_t k = 0; k < kAdvicePatternCount; ++k) {
      a.pattern_counts[k] += b.pattern_counts[k];
      a.pattern_time[k] += b.pattern_time[k];
    }
    for (const AdviceCause& c : b.causes) {
      auto same = std::find_if(a.causes.begin(), a.causes.end(), [&c](const AdviceCause& x) {
        return x.location == c.location && x.callpath == c.callpath;
      });
      if (same == a.causes.end()) {
        a.causes.push_back(c);
        continue;
      }
      same->time += c.time;
      same->instances += c.instances;
      same->first = std::min(same->first, c.first);
    }
  }
}

void FinishCauses(std::vector<AdviceFinding>& findings) {
  for (AdviceFinding& finding : findings) {
    std::sort(finding.locations.begin(), finding.locations.end());
    std::sort(finding.causes.begin(), finding.causes.end(),
              [](const AdviceCause& a, const AdviceCause& b) {
                return std::tie(b.time, a.location, a.callpath) <
                       std::tie(a.time, b.location, b.callpath);
              });
    size_t best = static_cast<size_t>(AdvicePattern::kNoRemoteCause);
    for (size_t k = 0; k < kAdvicePatternCount; ++k) {
      if (finding.pattern_time[k] > finding.pattern_time[best]) best = k;
    }
    finding.pattern = static_cast<AdvicePattern>(best);
  }
}

}  // namespace cw::analysis
