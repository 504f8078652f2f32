#include "analysis/waitstates/internal/shmem_patterns.h"

#include <algorithm>
#include <limits>
#include <tuple>
#include <unordered_map>

#include "base/parallel.h"
#include "comm/wire.h"
#include "trace/one_sided_pairing.h"
#include "trace/shmem_sync_scan.h"

namespace cw::analysis::internal {
namespace {

using trace::EventKind;
using trace::kNone;

// One acquisition of a distributed lock, and the release that ended the hold.
struct LockHold {
  uint64_t lock = 0;
  uint64_t acquired = 0;  // time of the AcquireLock record
  uint64_t entered = 0;   // of the acquiring call
  uint64_t left = 0;
  uint64_t release_entered = kNever;  // Enter of the call that released the lock
  uint32_t location = kNone;
  uint32_t event = kNone;  // the acquiring call's Enter event
  uint32_t callpath = kNone;
  uint32_t requested = 0;          // 1: acquired by a call that asked for it and could wait
  uint32_t release_event = kNone;  // the releasing call's Enter event
};

// A put or writing atomic to another PE's symmetric heap.
struct Transfer {
  trace::ValueWrite write;
  uint64_t issued = 0;           // Enter of the call that issued it
  uint32_t issue_event = kNone;  // that call's Enter event
};

// A shmem_wait_until (or shmem_wait) call.
struct WaitCall {
  uint32_t callpath = kNone;
  uint64_t entered = 0;
  uint64_t left = 0;
  uint32_t event = kNone;  // its Enter event
};

struct LocationRecords {
  std::vector<LockHold> holds;
  std::vector<Transfer> transfers;
  std::vector<WaitCall> waits;
};

// The holds and writes come from the scan the what-if replay makes too (trace::ShmemSyncScan),
// named by their records' event indices; a hold or write whose record is outside every call (a
// damaged trace) has no call to wait in or to wait for, and is left out.
LocationRecords ScanLocation(const Context& ctx, uint32_t location) {
  const trace::Definitions& defs = ctx.trace.defs;
  const trace::LocationEvents& ev = ctx.trace.location(location);
  LocationRecords out;
  trace::ShmemSyncScan scan(location);
  std::span<const EventKind> kinds = ev.kinds();
  for (uint32_t i = 0; i < kinds.size(); ++i) {
    const EventKind kind = kinds[i];
    if (trace::PayloadFamilyOf(kind) != trace::PayloadFamily::kRma) continue;
    const trace::RmaPayload& p = ev.rma(i);
    if (!IsShmemWindow(defs, p.window)) continue;
    switch (kind) {
      case EventKind::kRmaRequestLock:
        scan.RequestLock(p.id);
        break;
      case EventKind::kRmaAcquireLock:
        scan.AcquireLock(p.id, ev.time(i), i);
        break;
      case EventKind::kRmaReleaseLock:
        scan.ReleaseLock(p.id, i);
        break;
      case EventKind::kRmaPut:
      case EventKind::kRmaAtomic: {
        const uint32_t target =
            p.remote == kNone
                ? kNone
                : defs.comms[defs.windows[p.window].comm].LocationOfRank(p.remote, location);
        scan.Transfer(p.id, target, p.sent, ev.time(i), i);
        break;
      }
      case EventKind::kRmaOpCompleteBlocking:
      case EventKind::kRmaOpCompleteNonBlocking:
      case EventKind::kRmaOpCompleteRemote:
        scan.Complete(p.id, ev.time(i), i);
        break;
      case EventKind::kRmaWaitChange: {
        const CallTimes call = CallOf(ev, i);
        if (call.enter == kNone) break;
        out.waits.push_back(WaitCall{ev.callpath(i), call.entered, call.left, call.enter});
        break;
      }
      default:
        break;
    }
  }
  for (const trace::ShmemSyncScan::Hold& h : scan.holds()) {
    const CallTimes call = CallOf(ev, h.acquire_ref);
    LockHold hold;
    hold.lock = h.acquisition.lock;
    hold.acquired = h.acquisition.acquired;
    hold.location = location;
    hold.event = call.enter;
    hold.callpath = ev.callpath(h.acquire_ref);
    hold.entered = call.entered;
    hold.left = call.left;
    hold.requested = h.acquisition.requested ? 1 : 0;
    if (h.release_ref != kNone) {
      const CallTimes release = CallOf(ev, h.release_ref);
      hold.release_entered = release.entered;
      hold.release_event = release.enter;
    }
    out.holds.push_back(hold);
  }
  for (const trace::ShmemSyncScan::Write& w : scan.writes()) {
    const CallTimes issue = CallOf(ev, w.issue_ref);
    if (issue.enter == kNone) continue;
    out.transfers.push_back(Transfer{w.write, issue.entered, issue.enter});
  }
  return out;
}

// Lock Contention: a requested acquisition waited for the hold before it (trace::PreviousHolds),
// until that PE entered the call that released the lock.
void LockContention(const std::vector<LockHold>& holds, std::vector<std::vector<ShmemWait>>& out) {
  std::vector<trace::LockAcquisition> acquisitions(holds.size());
  for (size_t i = 0; i < holds.size(); ++i) {
    acquisitions[i] = trace::LockAcquisition{holds[i].lock, holds[i].acquired, holds[i].location,
                                             holds[i].requested != 0};
  }
  const std::vector<uint32_t> previous = trace::PreviousHolds(acquisitions);
  for (size_t k = 0; k < holds.size(); ++k) {
    if (previous[k] == kNone) continue;
    const LockHold& before = holds[previous[k]];
    const LockHold& hold = holds[k];
    if (before.release_event == kNone || hold.callpath == kNone || hold.event == kNone) continue;
    const uint64_t until = std::min(hold.left, before.release_entered);
    if (until <= hold.entered) continue;
    out[hold.location].push_back(ShmemWait{MetricId::kShmemLockContention, hold.callpath,
                                           hold.entered, static_cast<int64_t>(until - hold.entered),
                                           hold.event, before.location, before.release_event});
  }
}

// Wait on Value: a wait ended with the latest write to its PE that completed before it ended,
// or else with the one in flight then (trace::EndingWrites); it waited until that write was issued,
// as a receive waits until its sender entered the send (the transfer's own time is communication,
// not waiting).
void WaitOnValue(const std::vector<LocationRecords>& records,
                 const std::vector<Transfer>& transfers, std::vector<std::vector<ShmemWait>>& out) {
  std::vector<trace::ValueWrite> writes(transfers.size());
  for (size_t i = 0; i < transfers.size(); ++i) {
    writes[i] = transfers[i].write;
  }
  std::vector<trace::ValueWait> waits;
  std::vector<const WaitCall*> calls;
  for (uint32_t loc = 0; loc < records.size(); ++loc) {
    for (const WaitCall& w : records[loc].waits) {
      waits.push_back(trace::ValueWait{loc, w.entered, w.left});
      calls.push_back(&w);
    }
  }
  const std::vector<uint32_t> ending = trace::EndingWrites(waits, writes);
  for (size_t i = 0; i < waits.size(); ++i) {
    if (ending[i] == kNone || calls[i]->callpath == kNone) continue;
    const WaitCall& w = *calls[i];
    const Transfer& t = transfers[ending[i]];
    const uint64_t until = std::min(t.issued, w.left);
    if (until <= w.entered) continue;  // the write was under way before the wait began
    out[waits[i].location].push_back(ShmemWait{MetricId::kShmemWaitOnValue, w.callpath, w.entered,
                                               static_cast<int64_t>(until - w.entered), w.event,
                                               t.write.origin, t.issue_event});
  }
}

// Every rank learns every location's holds, transfers and waits from the rank that scanned
// them: pairing needs the PEs on both sides, and a process pairs them all as one process would.
void ShareRecords(const Context& ctx, std::vector<LocationRecords>& records) {
  comm::ByteWriter out;
  for (uint32_t loc : ctx.partition->owned[ctx.comm->rank()]) {
    out.Put(loc);
    out.PutVector(records[loc].holds);
    out.PutVector(records[loc].transfers);
    out.PutVector(records[loc].waits);
  }
  for (const comm::Bytes& bytes : ctx.comm->AllGather(out.Take())) {
    comm::ByteReader in(bytes);
    while (!in.done()) {
      const auto loc = in.Get<uint32_t>();
      CW_CHECK(loc < records.size());
      records[loc].holds = in.GetVector<LockHold>();
      records[loc].transfers = in.GetVector<Transfer>();
      records[loc].waits = in.GetVector<WaitCall>();
    }
  }
}

}  // namespace

std::vector<std::vector<ShmemWait>> EvaluateShmemWaits(const Context& ctx, unsigned threads) {
  const uint32_t n = ctx.trace.location_count();
  std::vector<std::vector<ShmemWait>> out(n);
  if (!trace::HasWindowOf(ctx.trace.defs, trace::Paradigm::kShmem)) return out;
  std::vector<LocationRecords> records(n);
  ParallelFor(n, threads, [&](size_t loc) {
    if (ctx.Holds(static_cast<uint32_t>(loc)))
      records[loc] = ScanLocation(ctx, static_cast<uint32_t>(loc));
  });
  if (ctx.Distributed()) ShareRecords(ctx, records);
  std::vector<LockHold> holds;
  std::vector<Transfer> transfers;
  for (const LocationRecords& r : records) {
    holds.insert(holds.end(), r.holds.begin(), r.holds.end());
    transfers.insert(transfers.end(), r.transfers.begin(), r.transfers.end());
  }
  LockContention(holds, out);
  WaitOnValue(records, transfers, out);
  for (uint32_t loc = 0; loc < n; ++loc) {
    if (!ctx.Holds(loc)) out[loc].clear();
  }
  return out;
}

void ApplyShmemWaits(const Context& ctx, const std::vector<ShmemWait>& waits, uint32_t location,
                     LocationOutput& out) {
  for (const ShmemWait& w : waits) {
    const auto value = static_cast<double>(w.value);
    out.severities.Add(w.metric, w.callpath, value);
    out.instances.Offer(Instance{w.metric, w.callpath, location, w.entered, value, w.partner});
    if (ctx.emit_edges && ctx.one_sided_sync) {
      const SyncPattern pattern = w.metric == MetricId::kShmemLockContention
                                      ? SyncPattern::kShmemLock
                                      : SyncPattern::kShmemWaitOnValue;
      out.edges.push_back(
          WaitEdge{location, w.waiter_event, w.partner, w.partner_event, w.value, pattern});
    }
  }
}

}  // namespace cw::analysis::internal
