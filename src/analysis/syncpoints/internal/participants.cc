#include "analysis/syncpoints/internal/participants.h"

#include <algorithm>

#include "analysis/syncpoints/internal/rank_exchange.h"

namespace cw::analysis::internal {
namespace {

using trace::EventKind;
using trace::kNone;

// Orders locations for "lowest rank on ties": by MPI rank, then by index.
uint64_t RankKey(const trace::Trace& trace, uint32_t location) {
  uint32_t rank = trace.defs.RankOfLocation(location);
  return (static_cast<uint64_t>(rank) << 32) | location;
}

}  // namespace

std::vector<bool> FindProcesses(const trace::Trace& trace) {
  const uint32_t n = trace.location_count();
  std::vector<bool> participant(n, false);
  std::vector<bool> group_taken(trace.defs.location_groups.size() + 1, false);
  for (uint32_t l = 0; l < n; ++l) {
    const trace::Location& loc = trace.defs.locations[l];
    if (loc.type != trace::LocationType::kCpuThread && loc.type != trace::LocationType::kUnknown)
      continue;
    if (loc.group == kNone || loc.group >= trace.defs.location_groups.size()) {
      participant[l] = true;
      continue;
    }
    if (group_taken[loc.group]) continue;
    group_taken[loc.group] = true;
    participant[l] = true;
  }
  return participant;
}

// The processes and, in a trace with OpenMP, every CPU thread of a process: OpenMP's threads
// synchronise with each other and with their master.
std::vector<bool> FindParticipants(const trace::Trace& trace, const std::vector<bool>& processes) {
  std::vector<bool> participant = processes;
  const std::vector<trace::Region>& regions = trace.defs.regions;
  if (std::none_of(regions.begin(), regions.end(),
                   [](const trace::Region& r) { return r.paradigm == trace::Paradigm::kOpenMp; })) {
    return participant;
  }
  for (uint32_t l = 0; l < trace.location_count(); ++l) {
    const trace::Location& loc = trace.defs.locations[l];
    if (loc.type == trace::LocationType::kCpuThread &&
        loc.group < trace.defs.location_groups.size())
      participant[l] = true;
  }
  return participant;
}

AnalysisWindow FindWindow(const trace::Trace& trace, const SyncEdges& sync,
                          const std::vector<uint32_t>& participants, const RankShare& share) {
  std::vector<internal::Presence> presence(trace.location_count());
  for (uint32_t l : participants) {
    if (!share.Holds(l)) continue;
    const trace::LocationEvents& ev = trace.location(l);
    if (ev.empty()) continue;
    uint32_t init = l < sync.init_call.size() ? sync.init_call[l] : kNone;
    uint32_t fin = l < sync.finalize_call.size() ? sync.finalize_call[l] : kNone;
    presence[l] = internal::Presence{
        true, static_cast<int64_t>(init != kNone ? ev.time(init) : ev.first_time()),
        static_cast<int64_t>(fin != kNone ? ev.time(fin) : ev.last_time())};
  }
  if (share.distributed()) internal::SharePresence(share, presence);
  AnalysisWindow w;
  bool first = true;
  int64_t latest_end = 0;
  for (uint32_t l : participants) {
    if (!presence[l].present) continue;
    const int64_t arrive = presence[l].arrive;
    const int64_t leave = presence[l].leave;
    if (first || arrive > w.begin) w.begin = arrive;
    if (first || leave > latest_end ||
        (leave == latest_end && RankKey(trace, l) < RankKey(trace, w.end_location))) {
      latest_end = leave;
      w.end_location = l;
    }
    first = false;
  }
  w.end = std::max(latest_end, w.begin);
  return w;
}

// An OpenMP worker's team starts: from its master's fork to its ThreadTeamBegin the worker was
// being woken, time of its own in the parallel region it then enters (omp_fork), which the
// synchronisation interval and the critical path from the team's start count there.
std::vector<TimeLead> TeamStartLeads(const trace::Trace& trace, uint32_t loc,
                                     const SyncPoints& sp) {
  std::vector<TimeLead> leads;
  const LocationSyncPoints& l = sp.locations[loc];
  const trace::LocationEvents& ev = trace.location(loc);
  for (const SyncRole& r : l.roles) {
    if (r.kind != RoleKind::kGroup) continue;
    const uint32_t leader = sp.groups[r.id].leader;
    if (leader == kNone || leader == loc) continue;
    const uint32_t member = sp.GroupMemberOf(r.id, leader);
    if (member == kNone || sp.group_members[member].event == kNone) continue;
    const auto forked =
        std::max(static_cast<int64_t>(trace.location(leader).time(sp.group_members[member].event)),
                 sp.window.begin);
    // Only the part of the wake-up inside the window counts, as all time does.
    const int64_t started = std::min(l.call_time[r.activity], sp.window.end);
    uint32_t region = l.calls[r.activity] + 1;
    while (region < ev.size() && ev.kind(region) != EventKind::kEnter) ++region;
    if (region >= ev.size() || started <= forked) continue;
    leads.push_back(TimeLead{r.activity, ev.ref(region), started - forked});
  }
  return leads;
}

}  // namespace cw::analysis::internal
