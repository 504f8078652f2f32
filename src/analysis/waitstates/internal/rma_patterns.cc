#include "analysis/waitstates/internal/rma_patterns.h"

#include <algorithm>
#include <map>
#include <tuple>
#include <unordered_map>

#include "analysis/waitstates/internal/rma_epochs.h"
#include "base/parallel.h"
#include "trace/one_sided_pairing.h"

namespace cw::analysis::internal {
namespace {

// ---- General active target -------------------------------------------------------------------

// Pairs the k-th access epoch of an origin that includes a target with the k-th exposure epoch
// of that target that includes the origin (MPI matches them in this order), and records in each
// epoch what it waits for.
void PairActiveTargetEpochs(std::vector<AccessEpoch>& access,
                            std::vector<ExposureEpoch>& exposure) {
  using Key = std::tuple<uint32_t, uint32_t, uint32_t>;  // window, origin, target
  std::map<Key, std::vector<uint32_t>> by_origin, by_target;
  for (uint32_t a = 0; a < access.size(); ++a) {
    if (!access[a].closed) continue;
    for (uint32_t t : access[a].targets) {
      if (t != kNone) by_origin[Key{access[a].window, access[a].location, t}].push_back(a);
    }
  }
  for (uint32_t x = 0; x < exposure.size(); ++x) {
    if (!exposure[x].closed) continue;
    for (uint32_t o : exposure[x].origins) {
      if (o != kNone) by_target[Key{exposure[x].window, o, exposure[x].location}].push_back(x);
    }
  }
  for (const auto& [key, origin_epochs] : by_origin) {
    auto it = by_target.find(key);
    if (it == by_target.end()) continue;
    const std::vector<uint32_t>& target_epochs = it->second;
    for (size_t k = 0; k < std::min(origin_epochs.size(), target_epochs.size()); ++k) {
      AccessEpoch& a = access[origin_epochs[k]];
      ExposureEpoch& x = exposure[target_epochs[k]];
      if (a.last_poster == kNone || x.posted > a.last_post) {
        a.last_post = x.posted;
        a.last_poster = x.location;
        a.last_post_event = x.post_event;
      }
      if (x.last_completer == kNone || a.complete.entered > x.last_complete) {
        x.last_complete = a.complete.entered;
        x.last_completer = a.location;
        x.last_complete_event = a.complete.enter;
      }
      for (const Operation& op : a.operations) {
        if (op.target == x.location) x.last_operation = std::max(x.last_operation, op.time);
      }
    }
  }
}

// Late Post: the origin waits for the last target's MPI_Win_post where the MPI library makes it
// wait: in MPI_Win_complete, in a blocking MPI_Win_start, or in a transfer of the epoch.
void LatePost(const AccessEpoch& a, std::vector<RmaWait>& out) {
  if (a.last_poster == kNone) return;
  const uint64_t post = a.last_post;
  const Call* waiting = nullptr;
  if (a.complete.Holds(post)) {
    waiting = &a.complete;
  } else if (a.start.Holds(post)) {
    waiting = &a.start;
  } else {
    for (const Operation& op : a.operations) {
      if (op.call.Holds(post)) {
        waiting = &op.call;
        break;
      }
    }
  }
  if (waiting == nullptr) return;
  const MetricId metric =
      waiting->transfer ? MetricId::kMpiRmaCommLatePost : MetricId::kMpiRmaSyncLatePost;
  out.push_back(RmaWait{metric, waiting->callpath, waiting->entered,
                        static_cast<double>(post - waiting->entered), a.last_poster, waiting->enter,
                        a.last_post_event, SyncPattern::kRmaLatePost});
}

// Early Wait: MPI_Win_wait entered before the last origin entered MPI_Win_complete; Late
// Complete is the part of it after the last transfer to this target was issued.
void EarlyWait(const ExposureEpoch& x, std::vector<RmaWait>& out) {
  if (!x.waited || x.last_completer == kNone || x.wait.callpath == kNone) return;
  if (x.last_complete <= x.wait.entered) return;
  const uint64_t bound = std::min(x.last_complete, x.wait.left);
  out.push_back(RmaWait{MetricId::kMpiRmaEarlyWait, x.wait.callpath, x.wait.entered,
                        static_cast<double>(bound - x.wait.entered), x.last_completer, x.wait.enter,
                        x.last_complete_event, SyncPattern::kRmaEarlyWait});
  const uint64_t from = std::max(x.last_operation, x.wait.entered);
  if (bound > from) {
    out.push_back(RmaWait{MetricId::kMpiRmaLateComplete, x.wait.callpath, x.wait.entered,
                          static_cast<double>(bound - from), x.last_completer});
  }
}

// ---- Passive target --------------------------------------------------------------------------

// Lock Contention. Which epoch waited for which, and in which call, is decided in
// trace/one_sided_pairing.h (the what-if replay pairs them the same way). The lock became free
// during the holder's MPI_Win_unlock; the waiting call waited from its Enter until the holder
// entered the unlock (or until it returned itself, if earlier): the unlock's own time is the
// release's cost, not waiting, and the root-cause analyses meet the holder where it began.
void LockContention(const trace::Definitions& defs, const std::vector<LockEpoch>& epochs,
                    std::vector<std::vector<RmaWait>>& out) {
  // The closed epochs, paired in trace/one_sided_pairing.h.
  std::vector<uint32_t> closed;
  std::vector<trace::PassiveEpoch> passive;
  for (uint32_t i = 0; i < epochs.size(); ++i) {
    const LockEpoch& e = epochs[i];
    if (!e.closed) continue;
    closed.push_back(i);
    passive.push_back(trace::PassiveEpoch{e.window, e.location, e.target, e.exclusive, e.released});
  }
  const std::vector<uint32_t> holds = trace::ConflictingHolds(defs, passive);
  std::vector<uint32_t> waited_for(epochs.size(), kNone);
  for (size_t k = 0; k < holds.size(); ++k) {
    if (holds[k] != kNone) waited_for[closed[k]] = closed[holds[k]];
  }
  for (uint32_t i = 0; i < epochs.size(); ++i) {
    if (waited_for[i] == kNone) continue;
    const LockEpoch& holder = epochs[waited_for[i]];
    const Call* call =
        trace::WaitingCall(std::span<const Call>(epochs[i].calls), holder.release_entered);
    if (call == nullptr) continue;
    const MetricId metric = call->transfer ? MetricId::kMpiRmaCommLockCompetition
                                           : MetricId::kMpiRmaSyncLockCompetition;
    const uint64_t until = std::min(call->left, holder.release_entered);
    out[epochs[i].location].push_back(
        RmaWait{metric, call->callpath, call->entered, static_cast<double>(until - call->entered),
                holder.location, call->enter, holder.release_event, SyncPattern::kRmaLock});
  }
}

// ---- Fence -----------------------------------------------------------------------------------

// Where each fence operation an origin issued arrives: its target's member of the closing fence.
std::vector<FenceArrival> FenceArrivals(
    const Context& ctx, const std::unordered_map<uint32_t, uint32_t>& member_instance,
    const LocationEpochs& epochs) {
  const std::vector<match::CollectiveMember>& members = ctx.graph.members;
  std::vector<FenceArrival> arrivals;
  for (const FenceOperation& op : epochs.fence_operations) {
    auto instance = member_instance.find(op.member);
    if (instance == member_instance.end() || op.target == kNone) continue;
    const match::CollectiveInstance& c = ctx.graph.collectives[instance->second];
    for (uint32_t k = c.first_member; k < c.first_member + c.member_count; ++k) {
      if (members[k].location != op.target) continue;
      arrivals.push_back(FenceArrival{op.target, members[k].end_event, op.time});
      break;
    }
  }
  return arrivals;
}

// Early Fence: a member that waited at a fence (Wait at Fence) while an operation targeting it
// was still being issued waited, until that operation, for pending transfers to it. `arrivals`
// is indexed by origin location; members whose events this process lacks are skipped.
void EarlyFence(const Context& ctx, const std::vector<MemberOutcome>& collective,
                const std::vector<std::unordered_map<uint32_t, uint32_t>>& fence_members,
                const std::vector<std::vector<FenceArrival>>& arrivals,
                std::vector<std::vector<RmaWait>>& out) {
  const std::vector<match::CollectiveMember>& members = ctx.graph.members;
  // The latest operation that targets each fence member, and its origin (the lowest on ties).
  std::unordered_map<uint32_t, std::pair<uint64_t, uint32_t>> last;
  for (uint32_t origin = 0; origin < arrivals.size(); ++origin) {
    for (const FenceArrival& a : arrivals[origin]) {
      if (a.target >= fence_members.size() || !ctx.Holds(a.target)) continue;
      auto member = fence_members[a.target].find(a.end_event);
      if (member == fence_members[a.target].end()) continue;
      auto [it, inserted] = last.try_emplace(member->second, a.time, origin);
      if (!inserted && a.time > it->second.first) it->second = {a.time, origin};
    }
  }
  for (const auto& [index, latest] : last) {
    const MemberOutcome& o = collective[index];
    if (o.wait_metric != MetricId::kMpiRmaWaitAtFence || o.wait <= 0) continue;
    const match::CollectiveMember& member = members[index];
    const trace::LocationEvents& ev = ctx.trace.location(member.location);
    const uint64_t entered = EnteredAt(ev, member.begin_event);
    const uint64_t ended = ev.time(member.end_event);
    const uint32_t callpath = ev.callpath(member.end_event);
    if (callpath == kNone || latest.first <= entered || latest.first > ended) continue;
    const double value = std::min(static_cast<double>(latest.first - entered), o.wait);
    out[member.location].push_back(
        RmaWait{MetricId::kMpiRmaEarlyFence, callpath, entered, value, latest.second});
  }
}

}  // namespace

std::vector<std::vector<RmaWait>> EvaluateRmaEpochs(const Context& ctx,
                                                    const std::vector<MemberOutcome>& collective,
                                                    unsigned threads) {
  const uint32_t n = ctx.trace.location_count();
  std::vector<std::vector<RmaWait>> out(n);
  if (!trace::HasWindowOf(ctx.trace.defs, trace::Paradigm::kMpi)) return out;

  // Fence members, by location and end event, and their instances.
  std::unordered_map<uint32_t, uint32_t> member_instance;
  std::vector<std::unordered_map<uint32_t, uint32_t>> fence_members(n);
  for (uint32_t i = 0; i < ctx.graph.collectives.size(); ++i) {
    const match::CollectiveInstance& c = ctx.graph.collectives[i];
    if (c.window == kNone || c.op != trace::CollectiveOp::kBarrier) continue;
    for (uint32_t k = c.first_member; k < c.first_member + c.member_count; ++k) {
      const match::CollectiveMember& m = ctx.graph.members[k];
      member_instance.emplace(k, i);
      if (m.location < n) fence_members[m.location].emplace(m.end_event, k);
    }
  }

  std::vector<LocationEpochs> epochs(n);
  std::vector<std::vector<FenceArrival>> arrivals(n);
  ParallelFor(n, threads, [&](size_t loc) {
    epochs[loc] = ScanLocation(ctx, static_cast<uint32_t>(loc), fence_members[loc]);
    arrivals[loc] = FenceArrivals(ctx, member_instance, epochs[loc]);
  });
  if (ctx.Distributed()) ShareEpochs(ctx, epochs, arrivals);

  std::vector<AccessEpoch> access;
  std::vector<ExposureEpoch> exposure;
  std::vector<LockEpoch> locks;
  for (LocationEpochs& e : epochs) {
    std::move(e.access.begin(), e.access.end(), std::back_inserter(access));
    std::move(e.exposure.begin(), e.exposure.end(), std::back_inserter(exposure));
    std::move(e.locks.begin(), e.locks.end(), std::back_inserter(locks));
  }
  PairActiveTargetEpochs(access, exposure);
  for (const AccessEpoch& a : access) LatePost(a, out[a.location]);
  for (const ExposureEpoch& x : exposure) EarlyWait(x, out[x.location]);
  LockContention(ctx.trace.defs, locks, out);
  EarlyFence(ctx, collective, fence_members, arrivals, out);
  // Each location's waits are charged where its events are.
  for (uint32_t loc = 0; loc < n; ++loc) {
    if (!ctx.Holds(loc)) out[loc].clear();
  }
  return out;
}

void ApplyRmaWaits(const Context& ctx, const std::vector<RmaWait>& waits, uint32_t location,
                   LocationOutput& out) {
  for (const RmaWait& w : waits) {
    if (w.value <= 0) continue;
    out.severities.Add(w.metric, w.callpath, w.value);
    out.instances.Offer(Instance{w.metric, w.callpath, location, w.entered, w.value, w.partner});
    // Early Fence and Late Complete are parts of waits that are followed as a whole.
    if (ctx.emit_edges && ctx.one_sided_sync && w.waiter_event != kNone &&
        w.partner_event != kNone) {
      out.edges.push_back(WaitEdge{location, w.waiter_event, w.partner, w.partner_event,
                                   static_cast<int64_t>(w.value), w.pattern});
    }
  }
}

}  // namespace cw::analysis::internal
