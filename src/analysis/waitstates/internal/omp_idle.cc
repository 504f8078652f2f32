#include "analysis/waitstates/internal/omp_idle.h"

#include <map>

#include "analysis/waitstates/internal/omp_patterns.h"
#include "base/check.h"

namespace cw::analysis::internal {
namespace {

struct CallpathTime {
  uint32_t callpath;
  double ticks;
};

// A thread's time outside OpenMP regions (exclusive, per call path) and in each outermost
// OpenMP region (its exclusive times below the region, summed).
struct ThreadTimes {
  std::vector<CallpathTime> serial;
  std::vector<CallpathTime> regions;
};

// The outermost OpenMP region on each call path, kNone where there is none. Parents come
// before their children in the call tree.
std::vector<uint32_t> OutermostOmpRegions(const trace::Trace& t) {
  std::vector<uint32_t> outer(t.call_tree.size(), trace::kNone);
  for (uint32_t c = 0; c < t.call_tree.size(); ++c) {
    const uint32_t parent = t.call_tree.parent(c);
    const uint32_t region = t.CallpathRegion(c);
    if (parent != trace::kNone && outer[parent] != trace::kNone) {
      outer[c] = outer[parent];
    } else if (region < t.defs.regions.size() &&
               t.defs.regions[region].paradigm == trace::Paradigm::kOpenMp) {
      outer[c] = c;
    }
  }
  return outer;
}

// From the thread's time tree (its profile, with the management of its teams).
ThreadTimes TimesOf(const LocationSeverities& severities, const std::vector<uint32_t>& outer) {
  ThreadTimes times;
  const std::vector<double>* time = severities.Values(MetricId::kTime);
  if (time == nullptr) return times;
  std::map<uint32_t, double> regions;
  for (uint32_t c = 0; c < time->size() && c < outer.size(); ++c) {
    if ((*time)[c] == 0) continue;
    if (outer[c] == trace::kNone) {
      times.serial.push_back({c, (*time)[c]});
    } else {
      regions[outer[c]] += (*time)[c];
    }
  }
  for (const auto& [callpath, ticks] : regions) times.regions.push_back({callpath, ticks});
  return times;
}

}  // namespace

void AddOmpIdleThreads(const Context& ctx, std::vector<LocationSeverities>& severities) {
  const trace::Trace& t = ctx.trace;
  if (!HasOpenMp(t.defs)) return;
  const std::vector<uint32_t> outer = OutermostOmpRegions(t);
  // Scalasca's master is the first thread of its process.
  std::map<uint32_t, ThreadTimes> masters;
  const std::vector<std::vector<uint32_t>> processes = ThreadsOfProcesses(t.defs);
  for (const std::vector<uint32_t>& threads : processes) {
    if (threads.size() < 2) continue;
    const uint32_t master = threads.front();
    masters[master] = ctx.Holds(master) && master < severities.size()
                          ? TimesOf(severities[master], outer)
                          : ThreadTimes{};
  }
  // Distributed, the rank that holds a master holds its threads too (trace/partition.h).
  // Scalasca ignores differences below 1e-10 s in parallel regions (its measurement threshold).
  const double threshold = 1e-10 * static_cast<double>(t.defs.clock.resolution);
  for (const std::vector<uint32_t>& threads : processes) {
    if (threads.size() < 2) continue;
    const ThreadTimes& master = masters.at(threads.front());
    for (size_t i = 1; i < threads.size(); ++i) {
      const uint32_t thread = threads[i];
      if (!ctx.Holds(thread) || thread >= severities.size()) continue;
      LocationSeverities& sev = severities[thread];
      // Its own time in the regions, before its idle time joins its time tree.
      std::map<uint32_t, double> own;
      for (const CallpathTime& r : TimesOf(sev, outer).regions) own[r.callpath] = r.ticks;
      for (const CallpathTime& serial : master.serial) {
        AddWithAncestors(sev, MetricId::kOmpIdleThreads, serial.callpath, serial.ticks);
      }
      for (const CallpathTime& region : master.regions) {
        const double idle = region.ticks - own[region.callpath];
        if (idle >= threshold && idle > 0) {
          AddWithAncestors(sev, MetricId::kOmpLimitedParallelism, region.callpath, idle);
        }
      }
    }
  }
}

}  // namespace cw::analysis::internal
