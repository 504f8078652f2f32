#include "analysis/waitstates/internal/rma_patterns.h"

#include <algorithm>
#include <map>
#include <tuple>
#include <unordered_map>

#include "base/parallel.h"
#include "comm/wire.h"
#include "trace/one_sided_pairing.h"

namespace cw::analysis::internal {
namespace {

using trace::EventKind;
using trace::kNone;

// An MPI call of an epoch, where it may have waited.
struct Call {
  uint32_t callpath = kNone;
  uint32_t enter = kNone;  // its Enter event
  uint64_t entered = 0;
  uint64_t left = 0;
  bool transfer = false;  // a put, get or atomic (else a synchronisation call)

  // Whether `t` fell inside the call, after its Enter.
  bool Holds(uint64_t t) const { return callpath != kNone && entered < t && t <= left; }
};

struct Operation {
  uint32_t target = kNone;  // location
  uint64_t time = 0;        // of the put/get/atomic record
  Call call;
};

// An access epoch of general active-target synchronisation: MPI_Win_start ... MPI_Win_complete.
struct AccessEpoch {
  uint32_t location = kNone;
  uint32_t window = kNone;
  std::vector<uint32_t> targets;  // locations
  Call start;
  Call complete;
  bool closed = false;
  std::vector<Operation> operations;
  // Filled by pairing: the latest MPI_Win_post of its targets' exposure epochs.
  uint64_t last_post = 0;
  uint32_t last_poster = kNone;
  uint32_t last_post_event = kNone;  // the Enter of that MPI_Win_post
};

// An exposure epoch: MPI_Win_post ... MPI_Win_wait (or a successful MPI_Win_test).
struct ExposureEpoch {
  uint32_t location = kNone;
  uint32_t window = kNone;
  std::vector<uint32_t> origins;  // locations
  uint64_t posted = 0;            // Enter of MPI_Win_post
  uint32_t post_event = kNone;    // that Enter event
  Call wait;
  bool closed = false;
  bool waited = false;  // closed by MPI_Win_wait: MPI_Win_test never waits
  // Filled by pairing: the latest MPI_Win_complete of its origins' access epochs, and the
  // latest operation they issued to this location.
  uint64_t last_complete = 0;
  uint32_t last_completer = kNone;
  uint32_t last_complete_event = kNone;  // the Enter of that MPI_Win_complete
  uint64_t last_operation = 0;
};

// A passive-target epoch: MPI_Win_lock ... MPI_Win_unlock, or lock_all ... unlock_all.
struct LockEpoch {
  uint32_t location = kNone;
  uint32_t window = kNone;
  uint32_t target = kNone;  // location; kNone: every rank of the window (lock_all)
  bool exclusive = false;
  bool closed = false;
  // The call that released the lock (MPI_Win_unlock): the lock became free during it.
  uint64_t release_entered = 0;
  uint64_t released = 0;           // when that call returned
  uint32_t release_event = kNone;  // its Enter event

  std::vector<Call> calls;  // lock, transfers to the target, flushes, unlock: in order
};

// An operation issued in a fence epoch, with the fence member of its origin that closed it.
struct FenceOperation {
  uint32_t member = kNone;  // the origin's member of the closing MPI_Win_fence
  uint32_t target = kNone;  // location
  uint64_t time = 0;
};

// The same from the target's side: the target's member of that fence, named by its location and
// end event (which every analysis rank can name, unlike a member index of one rank's graph).
struct FenceArrival {
  uint32_t target = kNone;     // location
  uint32_t end_event = kNone;  // the target member's MpiCollectiveEnd
  uint64_t time = 0;           // of the operation
};

struct LocationEpochs {
  std::vector<AccessEpoch> access;
  std::vector<ExposureEpoch> exposure;
  std::vector<LockEpoch> locks;
  std::vector<FenceOperation> fence_operations;
};

// What one location's scan remembers per window.
struct WindowState {
  uint32_t access = kNone;    // open access epoch (index in LocationEpochs::access)
  uint32_t exposure = kNone;  // open exposure epoch
  std::unordered_map<uint32_t, uint32_t> locks;      // target location (kNone: all) -> epoch
  std::unordered_map<uint64_t, uint32_t> op_target;  // matching id -> target location
  std::vector<std::pair<uint32_t, uint64_t>> since_collective;  // (target, time) of operations
};

Call CallAt(const Context& ctx, const trace::LocationEvents& ev, uint32_t event) {
  const CallTimes times = CallOf(ev, event);
  Call call;
  if (times.enter == kNone) return call;
  call.callpath = ev.ref(times.enter);
  call.enter = times.enter;
  call.entered = times.entered;
  call.left = times.left;
  call.transfer = MpiOf(ctx, ev, times.enter).category == trace::MpiCategory::kRmaComm;
  return call;
}

void AddCall(LockEpoch& epoch, const Call& call) {
  if (call.callpath == kNone) return;
  if (!epoch.calls.empty() && epoch.calls.back().entered == call.entered &&
      epoch.calls.back().callpath == call.callpath) {
    return;  // another record of the same call
  }
  epoch.calls.push_back(call);
}

// The lock epochs of window `w` open on `target` (a location): its own and a lock_all's.
template <typename F>
void ForOpenLocks(WindowState& w, uint32_t target, F&& f) {
  if (auto it = w.locks.find(target); it != w.locks.end()) f(it->second);
  if (target != kNone) {
    if (auto it = w.locks.find(kNone); it != w.locks.end()) f(it->second);
  }
}

LocationEpochs ScanLocation(const Context& ctx, uint32_t location,
                            const std::unordered_map<uint32_t, uint32_t>& fence_members) {
  const trace::Trace& trace = ctx.trace;
  const trace::Definitions& defs = trace.defs;
  const trace::LocationEvents& ev = trace.location(location);
  LocationEpochs out;
  std::unordered_map<uint32_t, WindowState> windows;
  auto target_of = [&](uint32_t window, uint32_t rank) {
    if (rank == kNone) return kNone;
    return defs.comms[defs.windows[window].comm].LocationOfRank(rank, location);
  };
  std::span<const EventKind> kinds = ev.kinds();
  for (uint32_t i = 0; i < kinds.size(); ++i) {
    const EventKind kind = kinds[i];
    if (kind == EventKind::kRmaCollectiveEnd) {
      const uint32_t window = ev.collective(i).comm_or_window;
      auto w = windows.find(window);
      if (w == windows.end()) continue;
      // An RMA collective ends the fence epoch: its operations belong to this fence (if it is
      // one), and the next epoch starts empty.
      if (auto member = fence_members.find(i); member != fence_members.end()) {
        for (const auto& [target, time] : w->second.since_collective) {
          out.fence_operations.push_back(FenceOperation{member->second, target, time});
        }
      }
      w->second.since_collective.clear();
      continue;
    }
    if (trace::PayloadFamilyOf(kind) != trace::PayloadFamily::kRma) continue;
    const trace::RmaPayload& p = ev.rma(i);
    if (!IsMpiWindow(defs, p.window)) continue;
    WindowState& w = windows[p.window];
    switch (kind) {
      case EventKind::kRmaGroupSync: {
        const CallTimes times = CallOf(ev, i);
        const Call call = CallAt(ctx, ev, i);
        switch (MpiOf(ctx, ev, times.enter).rma_group) {
          case trace::MpiRmaGroupCall::kPost:
            w.exposure = static_cast<uint32_t>(out.exposure.size());
            out.exposure.emplace_back();
            out.exposure.back().location = location;
            out.exposure.back().window = p.window;
            out.exposure.back().origins = defs.GroupLocations(p.remote);
            out.exposure.back().posted = times.entered;
            out.exposure.back().post_event = times.enter;
            break;
          case trace::MpiRmaGroupCall::kStart:
            w.access = static_cast<uint32_t>(out.access.size());
            out.access.emplace_back();
            out.access.back().location = location;
            out.access.back().window = p.window;
            out.access.back().targets = defs.GroupLocations(p.remote);
            out.access.back().start = call;
            break;
          case trace::MpiRmaGroupCall::kComplete:
            if (w.access == kNone) break;
            out.access[w.access].complete = call;
            out.access[w.access].closed = true;
            w.access = kNone;
            break;
          case trace::MpiRmaGroupCall::kWait:
          case trace::MpiRmaGroupCall::kTest: {
            if (w.exposure == kNone) break;
            ExposureEpoch& x = out.exposure[w.exposure];
            x.wait = call;
            x.closed = true;
            x.waited = MpiOf(ctx, ev, times.enter).rma_group == trace::MpiRmaGroupCall::kWait;
            w.exposure = kNone;
            break;
          }
          case trace::MpiRmaGroupCall::kOther:
            break;
        }
        break;
      }
      case EventKind::kRmaPut:
      case EventKind::kRmaGet:
      case EventKind::kRmaAtomic: {
        const uint32_t target = target_of(p.window, p.remote);
        const Call call = CallAt(ctx, ev, i);
        w.op_target[p.id] = target;
        bool in_epoch = false;
        if (w.access != kNone) {
          out.access[w.access].operations.push_back(Operation{target, ev.time(i), call});
          in_epoch = true;
        }
        ForOpenLocks(w, target, [&](uint32_t e) {
          AddCall(out.locks[e], call);
          in_epoch = true;
        });
        // Outside access and lock epochs, an operation belongs to the fence epoch.
        if (!in_epoch) w.since_collective.emplace_back(target, ev.time(i));
        break;
      }
      case EventKind::kRmaOpCompleteBlocking:
      case EventKind::kRmaOpCompleteNonBlocking:
      case EventKind::kRmaOpTest: {
        // A flush or unlock that completes a transfer may wait for the lock as well.
        auto it = w.op_target.find(p.id);
        if (it == w.op_target.end()) break;
        const Call call = CallAt(ctx, ev, i);
        ForOpenLocks(w, it->second, [&](uint32_t e) { AddCall(out.locks[e], call); });
        if (kind != EventKind::kRmaOpTest) w.op_target.erase(it);
        break;
      }
      case EventKind::kRmaRequestLock:
      case EventKind::kRmaTryLock: {
        const uint32_t target = target_of(p.window, p.remote);
        if (p.remote != kNone && target == kNone) break;  // a rank outside the window
        w.locks[target] = static_cast<uint32_t>(out.locks.size());
        LockEpoch& epoch = out.locks.emplace_back();
        epoch.location = location;
        epoch.window = p.window;
        epoch.target = target;
        epoch.exclusive = p.detail == trace::kLockExclusive;
        AddCall(epoch, CallAt(ctx, ev, i));
        break;
      }
      case EventKind::kRmaAcquireLock:
      case EventKind::kRmaReleaseLock: {
        auto it = w.locks.find(target_of(p.window, p.remote));
        if (it == w.locks.end()) break;
        LockEpoch& epoch = out.locks[it->second];
        AddCall(epoch, CallAt(ctx, ev, i));
        if (kind == EventKind::kRmaReleaseLock) {
          const CallTimes release = CallOf(ev, i);
          epoch.release_entered = release.entered;
          epoch.released = release.left;
          epoch.release_event = release.enter;
          epoch.closed = true;
          w.locks.erase(it);
        }
        break;
      }
      default:
        break;
    }
  }
  return out;
}

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

// The latest lock epoch seen so far, and the latest of another location than that one's.
struct LatestReleases {
  uint32_t epoch[2] = {kNone, kNone};
  uint32_t location[2] = {kNone, kNone};

  void Add(uint32_t e, uint32_t loc) {  // released no earlier than any added before
    if (loc != location[0]) {
      epoch[1] = epoch[0];
      location[1] = location[0];
    }
    epoch[0] = e;
    location[0] = loc;
  }
  // The latest epoch of a location other than `loc`, or kNone.
  uint32_t Other(uint32_t loc) const {
    if (location[0] != kNone && location[0] != loc) return epoch[0];
    return epoch[1];
  }
};

// Lock Contention. The holders of conflicting locks on one target are serialised, so they
// release in the order they held the lock: an epoch waited for the latest conflicting release
// before its own by another process (exclusive locks conflict with every lock, shared ones with
// exclusive ones). The lock became free during that process's MPI_Win_unlock. The waiting call
// is the epoch's first call still running when that unlock began: MPI_Win_lock if the library
// acquires locks eagerly, else a transfer, a flush or MPI_Win_unlock. It waited from its Enter
// until the holder entered the unlock (or until it returned itself, if earlier), as a receive
// waits until its sender entered the send: the unlock's own time is the release's cost, not
// waiting, and the root-cause analyses meet the holder where its unlock began.
void LockContention(const trace::Definitions& defs, const std::vector<LockEpoch>& epochs,
                    std::vector<std::vector<RmaWait>>& out) {
  struct Entry {
    uint32_t window;
    uint32_t target;
    uint64_t released;
    uint32_t epoch;
  };
  std::vector<bool> window_has_exclusive;
  for (const LockEpoch& e : epochs) {
    if (!e.closed || !e.exclusive) continue;
    if (window_has_exclusive.size() <= e.window) window_has_exclusive.resize(e.window + 1, false);
    window_has_exclusive[e.window] = true;
  }
  std::vector<Entry> entries;
  for (uint32_t i = 0; i < epochs.size(); ++i) {
    const LockEpoch& e = epochs[i];
    // Shared locks never wait for each other: windows without an exclusive lock are skipped.
    if (!e.closed || e.window >= window_has_exclusive.size() || !window_has_exclusive[e.window])
      continue;
    if (e.target != kNone) {
      entries.push_back(Entry{e.window, e.target, e.released, i});
      continue;
    }
    const trace::Comm& comm = defs.comms[defs.windows[e.window].comm];
    for (uint32_t rank = 0; rank < comm.size(); ++rank) {
      const uint32_t target = comm.LocationOfRank(rank, e.location);
      if (target != kNone) entries.push_back(Entry{e.window, target, e.released, i});
    }
  }
  std::sort(entries.begin(), entries.end(), [](const Entry& a, const Entry& b) {
    return std::tie(a.window, a.target, a.released, a.epoch) <
           std::tie(b.window, b.target, b.released, b.epoch);
  });
  // The epoch each epoch waited for (a lock_all waits for the latest over its targets).
  std::vector<uint32_t> waited_for(epochs.size(), kNone);
  LatestReleases any, exclusive;
  for (size_t i = 0; i < entries.size(); ++i) {
    if (i == 0 || entries[i].window != entries[i - 1].window ||
        entries[i].target != entries[i - 1].target) {
      any = exclusive = LatestReleases{};
    }
    const uint32_t e = entries[i].epoch;
    const uint32_t holder = (epochs[e].exclusive ? any : exclusive).Other(epochs[e].location);
    if (holder != kNone &&
        (waited_for[e] == kNone || epochs[holder].released > epochs[waited_for[e]].released)) {
      waited_for[e] = holder;
    }
    any.Add(e, epochs[e].location);
    if (epochs[e].exclusive) exclusive.Add(e, epochs[e].location);
  }
  for (uint32_t i = 0; i < epochs.size(); ++i) {
    if (waited_for[i] == kNone) continue;
    const LockEpoch& holder = epochs[waited_for[i]];
    for (const Call& call : epochs[i].calls) {
      if (call.callpath == kNone || call.left <= holder.release_entered) continue;
      if (call.entered < holder.release_entered) {
        const MetricId metric = call.transfer ? MetricId::kMpiRmaCommLockCompetition
                                              : MetricId::kMpiRmaSyncLockCompetition;
        const uint64_t until = std::min(call.left, holder.release_entered);
        out[epochs[i].location].push_back(
            RmaWait{metric, call.callpath, call.entered, static_cast<double>(until - call.entered),
                    holder.location, call.enter, holder.release_event, SyncPattern::kRmaLock});
      }
      break;
    }
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

// ---- Across analysis ranks -------------------------------------------------------------------

// Every rank learns every location's epochs and fence arrivals from the rank that scanned them:
// pairing epochs needs both sides, and a process pairs them all as one process would.
void ShareEpochs(const Context& ctx, std::vector<LocationEpochs>& epochs,
                 std::vector<std::vector<FenceArrival>>& arrivals) {
  comm::ByteWriter out;
  for (uint32_t loc : ctx.partition->owned[ctx.comm->rank()]) {
    const LocationEpochs& e = epochs[loc];
    out.Put(loc);
    out.Put(static_cast<uint64_t>(e.access.size()));
    for (const AccessEpoch& a : e.access) {
      out.Put(a.window);
      out.PutVector(a.targets);
      out.Put(a.start);
      out.Put(a.complete);
      out.Put(a.closed);
      out.PutVector(a.operations);
    }
    out.Put(static_cast<uint64_t>(e.exposure.size()));
    for (const ExposureEpoch& x : e.exposure) {
      out.Put(x.window);
      out.PutVector(x.origins);
      out.Put(x.posted);
      out.Put(x.post_event);
      out.Put(x.wait);
      out.Put(x.closed);
      out.Put(x.waited);
    }
    out.Put(static_cast<uint64_t>(e.locks.size()));
    for (const LockEpoch& l : e.locks) {
      out.Put(l.window);
      out.Put(l.target);
      out.Put(l.exclusive);
      out.Put(l.closed);
      out.Put(l.release_entered);
      out.Put(l.released);
      out.Put(l.release_event);
      out.PutVector(l.calls);
    }
    out.PutVector(arrivals[loc]);
  }
  for (const comm::Bytes& bytes : ctx.comm->AllGather(out.Take())) {
    comm::ByteReader in(bytes);
    while (!in.done()) {
      const auto loc = in.Get<uint32_t>();
      CW_CHECK(loc < epochs.size());
      LocationEpochs& e = epochs[loc];
      e.access.resize(in.Get<uint64_t>());
      for (AccessEpoch& a : e.access) {
        a.location = loc;
        a.window = in.Get<uint32_t>();
        a.targets = in.GetVector<uint32_t>();
        a.start = in.Get<Call>();
        a.complete = in.Get<Call>();
        a.closed = in.Get<bool>();
        a.operations = in.GetVector<Operation>();
      }
      e.exposure.resize(in.Get<uint64_t>());
      for (ExposureEpoch& x : e.exposure) {
        x.location = loc;
        x.window = in.Get<uint32_t>();
        x.origins = in.GetVector<uint32_t>();
        x.posted = in.Get<uint64_t>();
        x.post_event = in.Get<uint32_t>();
        x.wait = in.Get<Call>();
        x.closed = in.Get<bool>();
        x.waited = in.Get<bool>();
      }
      e.locks.resize(in.Get<uint64_t>());
      for (LockEpoch& l : e.locks) {
        l.location = loc;
        l.window = in.Get<uint32_t>();
        l.target = in.Get<uint32_t>();
        l.exclusive = in.Get<bool>();
        l.closed = in.Get<bool>();
        l.release_entered = in.Get<uint64_t>();
        l.released = in.Get<uint64_t>();
        l.release_event = in.Get<uint32_t>();
        l.calls = in.GetVector<Call>();
      }
      arrivals[loc] = in.GetVector<FenceArrival>();
    }
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
