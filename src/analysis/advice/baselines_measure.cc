// Baselines::Measure, ToText and Replace: the writing side of the baselines file.
#include <algorithm>
#include <cstdio>
#include <set>

#include "analysis/advice/baselines.h"
#include "analysis/advice/records.h"
#include "trace/event_kind.h"

namespace cw::analysis {
namespace {

using trace::EventKind;

bool Measured(GenericType t) {
  switch (t) {
    case GenericType::kLocal:
    case GenericType::kInitialization:
    case GenericType::kTermination:
    case GenericType::kEnvironmentInquiry:
    case GenericType::kWorkSharing:
    case GenericType::kMeasurement:  // the tracer's own regions (flushes, the write marker)
      return false;
    default:
      return true;
  }
}

}  // namespace

Baselines Baselines::Measure(const trace::Trace& trace, std::span<const GenericType> region_types) {
  const uint32_t processes = ProcessCount(trace.defs);
  std::map<std::pair<uint32_t, uint64_t>, uint64_t> shortest;  // (region, bytes) -> ticks
  for (const trace::LocationEvents& ev : trace.locations) {
    struct Open {
      uint32_t enter;
      uint64_t bytes = 0;
    };
    std::vector<Open> open;
    std::span<const EventKind> kinds = ev.kinds();
    for (uint32_t i = 0; i < kinds.size(); ++i) {
      if (kinds[i] == EventKind::kEnter) {
        open.push_back(Open{i});
      } else if (kinds[i] == EventKind::kLeave) {
        if (open.empty()) continue;
        const Open o = open.back();
        open.pop_back();
        const uint32_t region = trace.CallpathRegion(ev.ref(o.enter));
        if (region >= region_types.size() || !Measured(region_types[region])) continue;
        const uint64_t ticks = ev.time(i) - ev.time(o.enter);
        auto [it, inserted] = shortest.try_emplace({region, o.bytes}, ticks);
        if (!inserted) it->second = std::min(it->second, ticks);
      } else if (!open.empty()) {
        open.back().bytes += RecordBytes(ev, i);
      }
    }
  }
  Baselines b;
  const double resolution = static_cast<double>(trace.defs.clock.resolution);
  for (const auto& [key, ticks] : shortest) {
    const std::string name(trace.defs.RegionName(key.first));
    b.entries_[name].push_back(
        Entry{processes, key.second, static_cast<double>(ticks) / resolution});
  }
  return b;
}

void Baselines::Replace(const Baselines& other) {
  std::set<uint32_t> measured;
  for (const auto& [construct, entries] : other.entries_) {
    for (const Entry& e : entries) measured.insert(e.processes);
  }
  for (auto& [construct, entries] : entries_) {
    std::erase_if(entries, [&](const Entry& e) { return measured.count(e.processes) > 0; });
  }
  for (const auto& [construct, entries] : other.entries_) {
    std::vector<Entry>& mine = entries_[construct];
    mine.insert(mine.end(), entries.begin(), entries.end());
    std::sort(mine.begin(), mine.end(), [](const Entry& x, const Entry& y) {
      return std::tie(x.processes, x.bytes) < std::tie(y.processes, y.bytes);
    });
  }
  std::erase_if(entries_, [](const auto& kv) { return kv.second.empty(); });
}

std::string Baselines::ToText() const {
  std::string out =
      "# causeway baselines: the shortest instance of each construct on this machine\n"
      "# construct processes bytes seconds\n";
  char line[64];
  for (const auto& [construct, entries] : entries_) {
    for (const Entry& e : entries) {
      std::snprintf(line, sizeof(line), " %u %llu %.9g\n", e.processes,
                    static_cast<unsigned long long>(e.bytes), e.seconds);
      out += construct + line;
    }
  }
  return out;
}

}  // namespace cw::analysis
