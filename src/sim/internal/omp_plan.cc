#include "sim/internal/omp_plan.h"

#include <algorithm>
#include <map>
#include <memory>
#include <span>
#include <utility>

#include "trace/thread_teams.h"

namespace cw::sim::internal {
namespace {

using trace::EventKind;

constexpr uint64_t kNever = UINT64_MAX;

// A record the plan names: when, and its ordinal among the location's records of its kind.
struct Named {
  uint64_t time = 0;
  uint32_t ordinal = 0;
};

// A team a thread forked outside any team of its own: its fork and join.
struct Team {
  uint64_t begin = 0;
  uint64_t end = kNever;  // never joined
  uint32_t ordinal = 0;   // of the fork
};

struct LockRecord {
  uint64_t lock = 0;
  uint32_t order = 0;  // acquisition order
  uint32_t ordinal = 0;
};

// One thread's OpenMP records, as the plan needs them.
struct ThreadRecords {
  std::vector<Team> teams;
  std::vector<Named> team_begins;
  std::vector<Named> barriers;
  std::vector<LockRecord> acquisitions;
  std::vector<LockRecord> releases;
  OmpOrdinals counts;
};

ThreadRecords ScanThread(const ReplayInput& input, uint32_t location,
                         const std::vector<uint8_t>& barrier_regions) {
  ThreadRecords out;
  std::unique_ptr<EventSource> source = input.open(location);
  if (source == nullptr) return out;
  int depth = 0;  // of forks: a team forked inside a team is nested
  std::vector<SimEvent> chunk;
  while (true) {
    chunk.clear();
    if (source->Read(chunk, 1 << 14) == 0) break;
    for (const SimEvent& e : chunk) {
      const OmpRecord kind = OmpRecordOf(e, barrier_regions);
      if (e.kind == EventKind::kThreadJoin && e.omp && depth > 0 && --depth == 0) {
        out.teams.back().end = e.time;
      }
      if (kind == OmpRecord::kUnnamed) continue;
      const uint32_t ordinal = out.counts.Take(kind);
      switch (kind) {
        case OmpRecord::kFork:
          if (depth++ == 0) out.teams.push_back(Team{e.time, kNever, ordinal});
          break;
        case OmpRecord::kTeamBegin:
          out.team_begins.push_back({e.time, ordinal});
          break;
        case OmpRecord::kBarrierEnter:
          out.barriers.push_back({e.time, ordinal});
          break;
        case OmpRecord::kAcquire:
          out.acquisitions.push_back({e.request, e.tag, ordinal});
          break;
        case OmpRecord::kRelease:
          out.releases.push_back({e.request, e.tag, ordinal});
          break;
        case OmpRecord::kUnnamed:
          break;
      }
    }
  }
  return out;
}

// The records of `records` (in time order) from `begin` to `end`.
std::span<const Named> Within(const std::vector<Named>& records, uint64_t begin, uint64_t end) {
  auto first = std::lower_bound(records.begin(), records.end(), begin,
                                [](const Named& n, uint64_t t) { return n.time < t; });
  auto last = std::upper_bound(first, records.end(), end,
                               [](uint64_t t, const Named& n) { return t < n.time; });
  return {records.data() + (first - records.begin()), static_cast<size_t>(last - first)};
}

// Whether a thread other than the master forked a team inside `team` (nested parallelism).
bool HasNestedTeam(std::span<const uint32_t> threads, const std::vector<ThreadRecords>& records,
                   const Team& team) {
  for (size_t i = 1; i < threads.size(); ++i) {
    for (const Team& t : records[threads[i]].teams) {
      if (t.begin >= team.begin && t.begin <= team.end) return true;
    }
  }
  return false;
}

// The team `master` forked: its workers' team begins and its barrier instances.
void PlanTeam(std::span<const uint32_t> threads, const std::vector<ThreadRecords>& records,
              const Team& team, OmpPlan& plan) {
  const uint32_t master = threads[0];
  for (size_t i = 1; i < threads.size(); ++i) {
    std::span<const Named> begins = Within(records[threads[i]].team_begins, team.begin, team.end);
    if (begins.empty()) continue;
    plan.team_from[threads[i]][begins.front().ordinal] = master;
    plan.fork_to[master][team.ordinal].push_back(threads[i]);
    ++plan.team_starts;
  }
  std::vector<std::pair<uint32_t, std::span<const Named>>> members;
  size_t instances = 0;
  for (uint32_t t : threads) {
    std::span<const Named> barriers = Within(records[t].barriers, team.begin, team.end);
    if (barriers.empty()) continue;
    members.emplace_back(t, barriers);
    instances = std::max(instances, barriers.size());
  }
  for (size_t k = 0; k < instances; ++k) {
    uint32_t count = 0;
    for (const auto& m : members) {
      if (k < m.second.size()) ++count;
    }
    if (count < 2) continue;
    const auto instance = static_cast<uint32_t>(plan.barrier_instances++);
    for (const auto& m : members) {
      if (k < m.second.size()) plan.barriers[m.first][m.second[k].ordinal] = {instance, count};
    }
  }
}

// Each acquisition of a lock of the process waits for the release of the one before it.
void PlanLocks(std::span<const uint32_t> threads, const std::vector<ThreadRecords>& records,
               OmpPlan& plan) {
  std::map<std::pair<uint64_t, uint32_t>, std::pair<uint32_t, uint32_t>> released;
  for (uint32_t t : threads) {
    for (const LockRecord& r : records[t].releases) released[{r.lock, r.order}] = {t, r.ordinal};
  }
  for (uint32_t t : threads) {
    for (const LockRecord& a : records[t].acquisitions) {
      if (a.order == 0) continue;
      auto before = released.find({a.lock, a.order - 1});
      if (before == released.end() || before->second.first == t) continue;
      plan.acquire_from[t][a.ordinal] = before->second.first;
      plan.release_to[before->second.first][before->second.second] = t;
      ++plan.lock_handovers;
    }
  }
}

}  // namespace

std::vector<uint8_t> OmpBarrierRegions(const trace::Definitions& defs) {
  std::vector<uint8_t> barrier(defs.regions.size(), 0);
  for (uint32_t r = 0; r < defs.regions.size(); ++r) {
    const trace::Region& region = defs.regions[r];
    barrier[r] = region.defined && region.paradigm == trace::Paradigm::kOpenMp &&
                 (region.role == trace::RegionRole::kBarrier ||
                  region.role == trace::RegionRole::kImplicitBarrier);
  }
  return barrier;
}

OmpRecord OmpRecordOf(const SimEvent& e, const std::vector<uint8_t>& barrier_regions) {
  switch (e.kind) {
    case EventKind::kEnter:
      return e.region < barrier_regions.size() && barrier_regions[e.region] != 0
                 ? OmpRecord::kBarrierEnter
                 : OmpRecord::kUnnamed;
    case EventKind::kThreadFork:
      return e.omp ? OmpRecord::kFork : OmpRecord::kUnnamed;
    case EventKind::kThreadTeamBegin:
      return OmpRecord::kTeamBegin;
    case EventKind::kThreadAcquireLock:
      return e.omp ? OmpRecord::kAcquire : OmpRecord::kUnnamed;
    case EventKind::kThreadReleaseLock:
      return e.omp ? OmpRecord::kRelease : OmpRecord::kUnnamed;
    default:
      return OmpRecord::kUnnamed;
  }
}

OmpPlan BuildOmpPlan(const ReplayInput& input) {
  OmpPlan plan;
  const trace::Definitions& defs = *input.defs;
  const bool any_omp = std::any_of(defs.regions.begin(), defs.regions.end(), [](const auto& r) {
    return r.defined && r.paradigm == trace::Paradigm::kOpenMp;
  });
  if (!any_omp) return plan;
  const uint32_t n =
      std::min<uint32_t>(input.locations, static_cast<uint32_t>(defs.locations.size()));
  // The threads of each process with more than one: its master first.
  const std::vector<uint32_t> masters = trace::MastersOfThreads(defs);
  std::map<uint32_t, std::vector<uint32_t>> processes;
  for (uint32_t loc = 0; loc < n; ++loc) {
    if (masters[loc] != kNone && masters[loc] < n) processes[masters[loc]].push_back(loc);
  }
  const std::vector<uint8_t> barrier_regions = OmpBarrierRegions(defs);
  std::vector<ThreadRecords> records(input.locations);
  for (auto& [master, workers] : processes) {
    workers.insert(workers.begin(), master);
    for (uint32_t t : workers) records[t] = ScanThread(input, t, barrier_regions);
  }
  auto count = [&](uint32_t loc, OmpRecord kind) {
    return records[loc].counts.next[static_cast<size_t>(kind)];
  };
  plan.fork_to.resize(input.locations);
  plan.team_from.resize(input.locations);
  plan.barriers.resize(input.locations);
  plan.acquire_from.resize(input.locations);
  plan.release_to.resize(input.locations);
  for (uint32_t loc = 0; loc < input.locations; ++loc) {
    plan.fork_to[loc].resize(count(loc, OmpRecord::kFork));
    plan.team_from[loc].assign(count(loc, OmpRecord::kTeamBegin), kNone);
    plan.barriers[loc].resize(count(loc, OmpRecord::kBarrierEnter));
    plan.acquire_from[loc].assign(count(loc, OmpRecord::kAcquire), kNone);
    plan.release_to[loc].assign(count(loc, OmpRecord::kRelease), kNone);
  }
  for (const auto& [master, threads] : processes) {
    for (const Team& team : records[master].teams) {
      if (!HasNestedTeam(threads, records, team)) PlanTeam(threads, records, team, plan);
    }
    PlanLocks(threads, records, plan);
  }
  return plan;
}

}  // namespace cw::sim::internal
