#include "analysis/waitstates/internal/init_finalize.h"

#include <algorithm>
#include <limits>

namespace cw::analysis::internal {

void InitFinalize::Summarize() {
  init_earliest_leave = std::numeric_limits<int64_t>::max();
  for (uint32_t loc = 0; loc < init.size(); ++loc) {
    if (init[loc].enter != trace::kNone) {
      init_latest_enter = std::max(init_latest_enter, init[loc].entered);
      init_earliest_leave = std::min(init_earliest_leave, init[loc].left);
    }
    if (finalize[loc].enter != trace::kNone && (finalize_latest_location == trace::kNone ||
                                                finalize[loc].entered > finalize_latest_enter)) {
      finalize_latest_enter = finalize[loc].entered;
      finalize_latest_location = loc;
    }
  }
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
    if (ctx.interval_completions) {
      out.completions.push_back(EventCompletion{init.enter, std::max<int64_t>(completion, 0)});
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
      uint32_t latest = calls.finalize_latest_location;
      if (ctx.emit_edges)
        out.edges.push_back(WaitEdge{location, fin.enter, latest, calls.finalize[latest].enter,
                                     wait, SyncPattern::kFinalize});
    }
  }
}

void CollectInitFinalizeGroups(const Context& ctx, const InitFinalize& calls, SyncEdges& sync) {
  sync.init_call.resize(calls.init.size());
  sync.finalize_call.resize(calls.finalize.size());
  for (int which = 0; which < 2; ++which) {
    const std::vector<InitFinalize::Call>& list = which == 0 ? calls.init : calls.finalize;
    std::vector<uint32_t>& first_call = which == 0 ? sync.init_call : sync.finalize_call;
    const uint32_t key = which == 0 ? kInitGroupKey : kFinalizeGroupKey;
    SyncGroup group{key, static_cast<uint32_t>(sync.group_members.size()), 0,
                    GroupOriginOfKey(key)};
    for (uint32_t loc = 0; loc < list.size(); ++loc) {
      first_call[loc] = list[loc].enter;
      if (list[loc].enter == trace::kNone) continue;
      sync.group_members.push_back(
          GroupMember{loc, ctx.Holds(loc) ? list[loc].enter : trace::kNone});
      ++group.member_count;
    }
    if (group.member_count >= 2) {
      sync.groups.push_back(group);
    } else {
      sync.group_members.resize(group.first_member);
    }
  }
}

}  // namespace cw::analysis::internal
