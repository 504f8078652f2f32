#include "trace/scheduling.h"

#include <algorithm>
#include <cstdio>
#include <map>
#include <set>

namespace cw::trace {

std::vector<HostLoad> HostLoads(const Definitions& defs) {
  std::vector<HostLoad> loads;
  std::map<std::string, size_t> index;
  std::map<uint32_t, uint32_t> threads_of_rank;
  for (uint32_t l = 0; l < defs.locations.size(); ++l) {
    const LocationType type = defs.locations[l].type;
    if (type != LocationType::kCpuThread && type != LocationType::kUnknown) continue;
    const uint32_t rank = defs.RankOfLocation(l);
    if (rank != kNone) ++threads_of_rank[rank];
  }
  for (const Definitions::RankSchedule& r : defs.rank_schedules) {
    auto [it, inserted] = index.try_emplace(r.host, loads.size());
    if (inserted) loads.push_back(HostLoad{r.host, 0, 0, 0, 0});
    HostLoad& h = loads[it->second];
    ++h.processes;
    auto threads = threads_of_rank.find(r.rank);
    h.threads += threads == threads_of_rank.end() ? 1 : threads->second;
    h.cpus = std::max(h.cpus, r.cpus_online);
    if (r.waited_ns > 0) h.waited_ns += static_cast<uint64_t>(r.waited_ns);
  }
  return loads;
}

bool Oversubscribed(const Definitions& defs) {
  const std::vector<HostLoad> loads = HostLoads(defs);
  return std::any_of(loads.begin(), loads.end(),
                     [](const HostLoad& h) { return h.oversubscribed(); });
}

std::string OversubscriptionText(const Definitions& defs) {
  std::string text;
  for (const HostLoad& h : HostLoads(defs)) {
    if (!h.oversubscribed()) continue;
    if (!text.empty()) text += "; ";
    text += "host " + h.host + ": " + std::to_string(h.processes) + " processes with " +
            std::to_string(h.threads) + " threads on " + std::to_string(h.cpus) + " CPUs";
  }
  return text;
}

double WaitedShare(const Definitions::RankSchedule& r) {
  if (r.waited_ns < 0 || r.ran_ns < 0 || r.ran_ns + r.waited_ns <= 0) return -1;
  return static_cast<double>(r.waited_ns) / static_cast<double>(r.ran_ns + r.waited_ns);
}

namespace {

// The contended ranks on hosts the run did not oversubscribe (there the run's own threads
// explain the waiting), the one that waited the largest share first.
std::vector<const Definitions::RankSchedule*> ContendedRanks(const Definitions& defs) {
  std::set<std::string> oversubscribed;
  for (const HostLoad& h : HostLoads(defs)) {
    if (h.oversubscribed()) oversubscribed.insert(h.host);
  }
  std::vector<const Definitions::RankSchedule*> ranks;
  for (const Definitions::RankSchedule& r : defs.rank_schedules) {
    if (!oversubscribed.contains(r.host) && WaitedShare(r) >= kContendedShare) ranks.push_back(&r);
  }
  std::stable_sort(ranks.begin(), ranks.end(),
                   [](const auto* a, const auto* b) { return WaitedShare(*a) > WaitedShare(*b); });
  return ranks;
}

// The rank whose node lost the largest share of its CPU time to the hypervisor, if that share
// is kContendedShare or more.
const Definitions::RankSchedule* MostStolenFrom(const Definitions& defs) {
  const Definitions::RankSchedule* most = nullptr;
  for (const Definitions::RankSchedule& r : defs.rank_schedules) {
    if (StolenShare(r) >= kContendedShare &&
        (most == nullptr || StolenShare(r) > StolenShare(*most)))
      most = &r;
  }
  return most;
}

}  // namespace

double StolenShare(const Definitions::RankSchedule& r) {
  if (r.node_ns <= 0 || r.node_stolen_ns < 0 || r.node_stolen_ns > r.node_ns) return -1;
  return static_cast<double>(r.node_stolen_ns) / static_cast<double>(r.node_ns);
}

double DescheduledShare(const Definitions::RankSchedule& r) {
  if (r.computation_measured_ns <= 0 || r.computation_descheduled_ns < 0 ||
      r.computation_descheduled_ns > r.computation_measured_ns) {
    return -1;
  }
  return static_cast<double>(r.computation_descheduled_ns) /
         static_cast<double>(r.computation_measured_ns);
}

const Definitions::RankSchedule* MostDescheduled(const Definitions& defs) {
  const Definitions::RankSchedule* most = nullptr;
  for (const Definitions::RankSchedule& r : defs.rank_schedules) {
    if (DescheduledShare(r) >= 0 &&
        (most == nullptr || DescheduledShare(r) > DescheduledShare(*most)))
      most = &r;
  }
  return most;
}

std::string DescheduledText(const Definitions& defs) {
  const Definitions::RankSchedule* most = MostDescheduled(defs);
  if (most == nullptr) return "";
  double measured = 0, descheduled = 0;
  for (const Definitions::RankSchedule& r : defs.rank_schedules) {
    if (DescheduledShare(r) < 0) continue;
    measured += static_cast<double>(r.computation_measured_ns);
    descheduled += static_cast<double>(r.computation_descheduled_ns);
  }
  char text[200];
  std::snprintf(text, sizeof text,
                "the ranks' computation was descheduled %.0f %% of the %.3g s their samples "
                "measured (rank %u the most: %.0f %% of %.3g s)",
                100 * descheduled / measured, 1e-9 * measured, most->rank,
                100 * DescheduledShare(*most),
                1e-9 * static_cast<double>(most->computation_measured_ns));
  return text;
}

bool ContendedForCpus(const Definitions& defs) {
  return !ContendedRanks(defs).empty() || MostStolenFrom(defs) != nullptr;
}

std::string CpuContentionText(const Definitions& defs) {
  std::string out;
  const std::vector<const Definitions::RankSchedule*> ranks = ContendedRanks(defs);
  char text[200];
  if (!ranks.empty()) {
    const Definitions::RankSchedule& r = *ranks.front();
    std::snprintf(text, sizeof text,
                  "rank %u waited %.3g s for a CPU (%.0f %% of the time it could run)", r.rank,
                  1e-9 * static_cast<double>(r.waited_ns), 100 * WaitedShare(r));
    out = text;
    if (ranks.size() > 1) {
      out += "; " + std::to_string(ranks.size()) + " ranks waited " +
             std::to_string(static_cast<int>(100 * kContendedShare)) + " % or more";
    }
  }
  if (const Definitions::RankSchedule* r = MostStolenFrom(defs)) {
    std::snprintf(text, sizeof text,
                  "the hypervisor took %.0f %% of host %s's CPU time (steal) "
                  "while rank %u recorded",
                  100 * StolenShare(*r), r->host.c_str(), r->rank);
    out += (out.empty() ? "" : "; ") + std::string(text);
  }
  return out;
}

}  // namespace cw::trace
