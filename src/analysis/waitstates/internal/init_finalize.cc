#include "analysis/waitstates/internal/init_finalize.h"

#include <algorithm>
#include <limits>

#include "base/parallel.h"

namespace cw::analysis::internal {

InitFinalize FindInitFinalize(const Context& ctx, unsigned threads) {
  const uint32_t n = ctx.trace.location_count();
  InitFinalize result;
  result.init.resize(n);
  result.finalize.resize(n);
  ParallelFor(n, threads, [&](size_t loc) {
    const trace::LocationEvents& ev = ctx.trace.location(static_cast<uint32_t>(loc));
    for (uint32_t i = 0; i < ev.size(); ++i) {
      if (ev.kind(i) != trace::EventKind::kEnter) continue;
      const trace::MpiFunction& mpi = MpiOf(ctx.trace, ev, i);
      InitFinalize::Call* call = mpi.has(trace::kMpiInit)       ? &result.init[loc]
                                 : mpi.has(trace::kMpiFinalize) ? &result.finalize[loc]
                                                                : nullptr;
      if (call == nullptr || call->enter != trace::kNone) continue;
      *call = InitFinalize::Call{i, static_cast<int64_t>(ev.time(i)),
                                 static_cast<int64_t>(ev.time(ev.pair(i)))};
    }
  });
  result.init_earliest_leave = std::numeric_limits<int64_t>::max();
  for (uint32_t loc = 0; loc < n; ++loc) {
    if (result.init[loc].enter != trace::kNone) {
      result.init_latest_enter = std::max(result.init_latest_enter, result.init[loc].entered);
      result.init_earliest_leave = std::min(result.init_earliest_leave, result.init[loc].left);
    }
    if (result.finalize[loc].enter != trace::kNone &&
        (result.finalize_latest_location == trace::kNone ||
         result.finalize[loc].entered > result.finalize_latest_enter)) {
      result.finalize_latest_enter = result.finalize[loc].entered;
      result.finalize_latest_location = loc;
    }
  }
  return result;
}

void ApplyInitFinalize(const Context& ctx, uint32_t location, const InitFinalize& calls,
                       LocationOutput& out) {
  const trace::LocationEvents& ev = ctx.trace.location(location);
  const InitFinalize::Call& init = calls.init[location];
  if (init.enter != trace::kNone) {
    int64_t bound = std::min(calls.init_latest_enter, init.left);
    int64_t completion = init.left - std::max(calls.init_earliest_leave, bound);
    if (calls.init_latest_enter > init.left) ++out.violations.collective;
    if (completion > 0) {
      out.severities.Add(MetricId::kMpiInitCompletion, ev.ref(init.enter),
                         static_cast<double>(completion));
    }
  }
  const InitFinalize::Call& fin = calls.finalize[location];
  if (fin.enter != trace::kNone) {
    int64_t wait = std::min(calls.finalize_latest_enter, fin.left) - fin.entered;
    if (calls.finalize_latest_enter > fin.left) ++out.violations.collective;
    if (wait > 0) {
      uint32_t callpath = ev.ref(fin.enter);
      out.severities.Add(MetricId::kMpiFinalizeWait, callpath, static_cast<double>(wait));
      out.instances.Offer(Instance{MetricId::kMpiFinalizeWait, callpath, location,
                                   static_cast<uint64_t>(fin.entered), static_cast<double>(wait),
                                   calls.finalize_latest_location});
    }
  }
}

}  // namespace cw::analysis::internal
