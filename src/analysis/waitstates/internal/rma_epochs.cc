#include "analysis/waitstates/internal/rma_epochs.h"

#include <optional>

#include "comm/wire.h"
#include "trace/passive_epoch_scan.h"

namespace cw::analysis::internal {
namespace {

using trace::EventKind;

// What one location's scan remembers per window (its lock epochs: trace::PassiveEpochScan).
struct WindowState {
  uint32_t access = kNone;    // open access epoch (index in LocationEpochs::access)
  uint32_t exposure = kNone;  // open exposure epoch
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

// Feeds record `i` (`r`) to the lock-epoch scan shared with the what-if replay: an epoch it
// opens becomes a LockEpoch of `out` (the scan's and out.locks' indices agree), the call holding
// the record joins the epochs it belongs to, and a release closes its epoch. Returns whether the
// record joined an epoch.
bool ScanLockRecord(const Context& ctx, const trace::LocationEvents& ev, uint32_t i,
                    const trace::PassiveRecord& r, trace::PassiveEpochScan& scan, uint32_t location,
                    LocationEpochs& out) {
  std::optional<Call> call;  // looked up only for a record an epoch concerns
  return scan.Add(r, [&](uint32_t e, trace::EpochStep step) {
    switch (step) {
      case trace::EpochStep::kOpened: {
        LockEpoch& epoch = out.locks.emplace_back();
        epoch.location = location;
        epoch.window = r.window;
        epoch.target = scan.epochs()[e].target;
        epoch.exclusive = r.exclusive;
        break;
      }
      case trace::EpochStep::kJoined:
        if (!call) call = CallAt(ctx, ev, i);
        AddCall(out.locks[e], *call);
        break;
      case trace::EpochStep::kClosed: {
        const CallTimes release = CallOf(ev, i);
        LockEpoch& epoch = out.locks[e];
        epoch.release_entered = release.entered;
        epoch.released = release.left;
        epoch.release_event = release.enter;
        epoch.closed = true;
        break;
      }
    }
  });
}

}  // namespace

LocationEpochs ScanLocation(const Context& ctx, uint32_t location,
                            const std::unordered_map<uint32_t, uint32_t>& fence_members) {
  const trace::Trace& trace = ctx.trace;
  const trace::Definitions& defs = trace.defs;
  const trace::LocationEvents& ev = trace.location(location);
  LocationEpochs out;
  std::unordered_map<uint32_t, WindowState> windows;
  trace::PassiveEpochScan locks;
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
        bool in_epoch = false;
        if (w.access != kNone) {
          out.access[w.access].operations.push_back(
              Operation{target, ev.time(i), CallAt(ctx, ev, i)});
          in_epoch = true;
        }
        const trace::PassiveRecord record{kind, p.window, target, false, false, p.id};
        in_epoch |= ScanLockRecord(ctx, ev, i, record, locks, location, out);
        // Outside access and lock epochs, an operation belongs to the fence epoch.
        if (!in_epoch) w.since_collective.emplace_back(target, ev.time(i));
        break;
      }
      case EventKind::kRmaOpCompleteBlocking:
      case EventKind::kRmaOpCompleteNonBlocking:
      case EventKind::kRmaOpCompleteRemote:
      case EventKind::kRmaOpTest:
      case EventKind::kRmaRequestLock:
      case EventKind::kRmaTryLock:
      case EventKind::kRmaAcquireLock:
      case EventKind::kRmaReleaseLock: {
        const trace::PassiveRecord record{kind,
                                          p.window,
                                          target_of(p.window, p.remote),
                                          p.remote == kNone,
                                          p.detail == trace::kLockExclusive,
                                          p.id};
        ScanLockRecord(ctx, ev, i, record, locks, location, out);
        break;
      }
      default:
        break;
    }
  }
  return out;
}

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

}  // namespace cw::analysis::internal
