#include "analysis/waitstates/internal/shmem_progress.h"

#include <algorithm>
#include <limits>
#include <string_view>
#include <unordered_map>

#include "base/parallel.h"
#include "comm/wire.h"
#include "trace/one_sided_pairing.h"

namespace cw::analysis::internal {
namespace {

using trace::EventKind;
using trace::kNone;

// A shmem_quiet (or shmem_ctx_quiet) that completed a transfer issued by an earlier call.
struct QuietCall {
  uint64_t entered = 0;
  uint64_t left = 0;
  uint32_t callpath = kNone;
  uint32_t enter = kNone;  // its Enter event
};

// One target of a quiet: `quiet` indexes the location's quiets.
struct QuietTarget {
  uint32_t location = kNone;  // of the quiet
  uint32_t quiet = kNone;
  uint32_t target = kNone;  // location
  uint64_t begun = 0;       // the quiet's Enter
};

// When a target entered the library after a quiet began: kNever if it was inside an OpenSHMEM
// routine at that moment (it could progress the transfers) or entered none afterwards.
struct Arrival {
  uint32_t location = kNone;
  uint32_t quiet = kNone;
  uint32_t target = kNone;
  uint64_t arrived = kNever;
};

bool IsShmemRegion(const trace::Trace& trace, uint32_t callpath) {
  if (callpath == kNone) return false;
  const uint32_t region = trace.CallpathRegion(callpath);
  return region < trace.defs.regions.size() &&
         trace.defs.regions[region].paradigm == trace::Paradigm::kShmem;
}

bool IsQuiet(const trace::Trace& trace, uint32_t callpath) {
  if (!IsShmemRegion(trace, callpath)) return false;
  const trace::Region& r = trace.defs.regions[trace.CallpathRegion(callpath)];
  return trace.defs.str(r.name).find("quiet") != std::string_view::npos;
}

// The location's quiets that completed earlier transfers, and their targets.
void ScanQuiets(const Context& ctx, uint32_t location, std::vector<QuietCall>& quiets,
                std::vector<QuietTarget>& targets) {
  const trace::Definitions& defs = ctx.trace.defs;
  const trace::LocationEvents& ev = ctx.trace.location(location);
  struct Pending {
    uint32_t target;
    uint32_t issue_call;
  };
  std::unordered_map<uint64_t, Pending> pending;    // matching id -> transfer
  std::unordered_map<uint32_t, uint32_t> quiet_of;  // quiet's Enter event -> index in quiets
  std::span<const EventKind> kinds = ev.kinds();
  for (uint32_t i = 0; i < kinds.size(); ++i) {
    if (trace::PayloadFamilyOf(kinds[i]) != trace::PayloadFamily::kRma) continue;
    const trace::RmaPayload& p = ev.rma(i);
    if (!IsShmemWindow(defs, p.window)) continue;
    switch (kinds[i]) {
      case EventKind::kRmaPut:
      case EventKind::kRmaGet:
      case EventKind::kRmaAtomic: {
        if (p.remote == kNone) break;
        const uint32_t target =
            defs.comms[defs.windows[p.window].comm].LocationOfRank(p.remote, location);
        if (target != kNone && target != location)
          pending[p.id] = Pending{target, CallOf(ev, i).enter};
        break;
      }
      case EventKind::kRmaOpCompleteBlocking:
      case EventKind::kRmaOpCompleteNonBlocking:
      case EventKind::kRmaOpCompleteRemote: {
        auto it = pending.find(p.id);
        if (it == pending.end()) break;
        const Pending transfer = it->second;
        pending.erase(it);
        const CallTimes call = CallOf(ev, i);
        if (call.enter == kNone || call.enter == transfer.issue_call) break;  // blocking
        if (!IsQuiet(ctx.trace, ev.ref(call.enter))) break;
        auto [q, inserted] = quiet_of.try_emplace(call.enter, static_cast<uint32_t>(quiets.size()));
        if (inserted) {
          quiets.push_back(QuietCall{call.entered, call.left, ev.ref(call.enter), call.enter});
        }
        targets.push_back(QuietTarget{location, q->second, transfer.target, call.entered});
        break;
      }
      default:
        break;
    }
  }
}

// The outermost OpenSHMEM routines of a location, as [Enter, Leave) intervals in time order.
std::vector<std::pair<uint64_t, uint64_t>> RoutineIntervals(const trace::Trace& trace,
                                                            uint32_t location) {
  const trace::LocationEvents& ev = trace.location(location);
  std::vector<std::pair<uint64_t, uint64_t>> intervals;
  int depth = 0;  // open OpenSHMEM routines
  std::vector<bool> shmem_open;
  std::span<const EventKind> kinds = ev.kinds();
  for (uint32_t i = 0; i < kinds.size(); ++i) {
    if (kinds[i] == EventKind::kEnter) {
      const bool shmem = IsShmemRegion(trace, ev.ref(i));
      shmem_open.push_back(shmem);
      if (shmem && depth++ == 0) intervals.emplace_back(ev.time(i), kNever);
    } else if (kinds[i] == EventKind::kLeave && !shmem_open.empty()) {
      const bool shmem = shmem_open.back();
      shmem_open.pop_back();
      if (shmem && --depth == 0) intervals.back().second = ev.time(i);
    }
  }
  return intervals;
}

// When `target` entered the library after `begun`, or kNever (see Arrival).
uint64_t ArrivalAfter(const std::vector<std::pair<uint64_t, uint64_t>>& intervals, uint64_t begun) {
  auto it = std::upper_bound(
      intervals.begin(), intervals.end(), begun,
      [](uint64_t t, const std::pair<uint64_t, uint64_t>& r) { return t < r.first; });
  if (it != intervals.begin() && (it - 1)->second > begun) return kNever;  // inside one
  return it == intervals.end() ? kNever : it->first;
}

}  // namespace

std::vector<std::vector<ProgressWait>> EvaluateShmemProgress(const Context& ctx, unsigned threads) {
  const uint32_t n = ctx.trace.location_count();
  std::vector<std::vector<ProgressWait>> out(n);
  if (!trace::HasWindowOf(ctx.trace.defs, trace::Paradigm::kShmem)) return out;
  std::vector<std::vector<QuietCall>> quiets(n);
  std::vector<std::vector<QuietTarget>> targets(n);
  ParallelFor(n, threads, [&](size_t loc) {
    if (ctx.Holds(static_cast<uint32_t>(loc)))
      ScanQuiets(ctx, static_cast<uint32_t>(loc), quiets[loc], targets[loc]);
  });
  // Every rank learns every quiet's targets (few: one per target PE and quiet), answers for the
  // targets it holds, and learns every answer.
  std::vector<QuietTarget> all;
  if (ctx.Distributed()) {
    comm::ByteWriter w;
    for (uint32_t loc : ctx.partition->owned[ctx.comm->rank()]) w.PutVector(targets[loc]);
    for (const comm::Bytes& bytes : ctx.comm->AllGather(w.Take())) {
      comm::ByteReader in(bytes);
      while (!in.done()) {
        std::vector<QuietTarget> part = in.GetVector<QuietTarget>();
        all.insert(all.end(), part.begin(), part.end());
      }
    }
  } else {
    for (const std::vector<QuietTarget>& t : targets) all.insert(all.end(), t.begin(), t.end());
  }
  std::vector<std::vector<QuietTarget>> by_target(n);
  for (const QuietTarget& t : all) {
    if (t.target < n && ctx.Holds(t.target)) by_target[t.target].push_back(t);
  }
  std::vector<std::vector<Arrival>> arrivals(n);
  ParallelFor(n, threads, [&](size_t t) {
    if (by_target[t].empty()) return;
    const auto intervals = RoutineIntervals(ctx.trace, static_cast<uint32_t>(t));
    for (const QuietTarget& q : by_target[t]) {
      arrivals[t].push_back(
          Arrival{q.location, q.quiet, q.target, ArrivalAfter(intervals, q.begun)});
    }
  });
  std::vector<Arrival> answers;
  if (ctx.Distributed()) {
    comm::ByteWriter w;
    for (uint32_t loc : ctx.partition->owned[ctx.comm->rank()]) w.PutVector(arrivals[loc]);
    for (const comm::Bytes& bytes : ctx.comm->AllGather(w.Take())) {
      comm::ByteReader in(bytes);
      while (!in.done()) {
        std::vector<Arrival> part = in.GetVector<Arrival>();
        answers.insert(answers.end(), part.begin(), part.end());
      }
    }
  } else {
    for (const std::vector<Arrival>& a : arrivals)
      answers.insert(answers.end(), a.begin(), a.end());
  }
  // Each quiet waited for its latest target that arrived while it ran, if it returned no later
  // than that target's arrival plus the time it had waited for it.
  std::vector<std::unordered_map<uint32_t, std::pair<uint64_t, uint32_t>>> latest(n);
  for (const Arrival& a : answers) {
    if (a.location >= n || !ctx.Holds(a.location) || a.arrived == kNever) continue;
    const QuietCall& q = quiets[a.location][a.quiet];
    if (a.arrived <= q.entered || a.arrived > q.left) continue;
    if (q.left - a.arrived > a.arrived - q.entered) continue;  // it returned long after
    auto [it, inserted] = latest[a.location].try_emplace(a.quiet, a.arrived, a.target);
    if (!inserted && a.arrived > it->second.first) it->second = {a.arrived, a.target};
  }
  for (uint32_t loc = 0; loc < n; ++loc) {
    for (const auto& [index, arrival] : latest[loc]) {
      const QuietCall& q = quiets[loc][index];
      out[loc].push_back(ProgressWait{
          q.callpath, q.entered, static_cast<int64_t>(arrival.first - q.entered), arrival.second});
    }
    std::sort(out[loc].begin(), out[loc].end(),
              [](const ProgressWait& a, const ProgressWait& b) { return a.entered < b.entered; });
  }
  return out;
}

void ApplyProgressWaits(const std::vector<ProgressWait>& waits, uint32_t location,
                        LocationOutput& out) {
  for (const ProgressWait& w : waits) {
    const auto value = static_cast<double>(w.value);
    out.severities.Add(MetricId::kShmemWaitForProgress, w.callpath, value);
    out.instances.Offer(Instance{MetricId::kShmemWaitForProgress, w.callpath, location, w.entered,
                                 value, w.partner});
  }
}

}  // namespace cw::analysis::internal
