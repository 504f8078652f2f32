// `causeway info TRACE`: what is in a trace, before any analysis.
#include <algorithm>
#include <array>
#include <cstdio>
#include <string>
#include <tuple>
#include <vector>

#include <nlohmann/json.hpp>

#include "base/parallel.h"
#include "base/utf8.h"
#include "cli/subcommand.h"
#include "match/matcher.h"
#include "otf2/trace_reader.h"
#include "trace/event_kind.h"

namespace cw::cli {
namespace {

using nlohmann::json;

// Recorded events by kind (synthetic repair events excluded), summed over locations.
std::array<uint64_t, trace::kEventKindCount> CountKinds(const trace::Trace& t) {
  std::array<uint64_t, trace::kEventKindCount> counts{};
  for (const trace::LocationEvents& loc : t.locations) {
    std::span<const uint32_t> synthetic = loc.synthetic();
    size_t next_synthetic = 0;
    for (uint32_t i = 0; i < loc.size(); ++i) {
      if (next_synthetic < synthetic.size() && synthetic[next_synthetic] == i) {
        ++next_synthetic;
        continue;
      }
      ++counts[static_cast<size_t>(loc.kind(i))];
    }
  }
  return counts;
}

size_t CountDefined(const auto& table) {
  size_t n = 0;
  for (const auto& entry : table) n += entry.defined ? 1u : 0u;
  return n;
}

// Every region with visits: its visits and exclusive time over every location and call path,
// most time first (ties by name).
json RegionsJson(const trace::Trace& t) {
  const trace::Definitions& d = t.defs;
  std::vector<uint64_t> visits(d.regions.size(), 0), exclusive(d.regions.size(), 0);
  for (uint32_t l = 0; l < t.location_count(); ++l) {
    for (const trace::LocationEvents::CallpathTime& c : t.location(l).profile()) {
      const uint32_t region = t.CallpathRegion(c.callpath);
      if (region >= d.regions.size()) continue;
      visits[region] += c.visits;
      exclusive[region] += c.exclusive;
    }
  }
  std::vector<uint32_t> order;
  for (uint32_t r = 0; r < d.regions.size(); ++r) {
    if (visits[r] > 0) order.push_back(r);
  }
  std::sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
    return std::make_tuple(exclusive[b], d.RegionName(a)) <
           std::make_tuple(exclusive[a], d.RegionName(b));
  });
  json regions = json::array();
  for (uint32_t r : order) {
    regions.push_back({{"name", std::string(d.RegionName(r))},
                       {"paradigm", trace::ParadigmName(d.regions[r].paradigm)},
                       {"visits", visits[r]},
                       {"exclusive", t.Seconds(exclusive[r])}});
  }
  return regions;
}

json InfoJson(const trace::Trace& t, const Diagnostics& problems) {
  const trace::Definitions& d = t.defs;
  json j;
  j["path"] = t.path;
  j["creator"] = d.creator;
  j["otf2_version"] = d.otf2_version;
  j["clock"] = {{"resolution", d.clock.resolution},
                {"global_offset", d.clock.global_offset},
                {"trace_length", d.clock.trace_length}};
  j["duration"] = t.Seconds(t.EndTime() - t.BeginTime());
  j["events"] = t.RecordedEventCount();
  json kinds = json::object();
  auto counts = CountKinds(t);
  for (int k = 0; k < trace::kEventKindCount; ++k) {
    if (counts[static_cast<size_t>(k)] > 0) {
      kinds[trace::EventKindName(static_cast<trace::EventKind>(k))] =
          counts[static_cast<size_t>(k)];
    }
  }
  j["events_by_kind"] = kinds;
  size_t mpi_regions = 0;
  for (const trace::Region& r : d.regions) mpi_regions += r.defined && r.mpi.is_mpi() ? 1u : 0u;
  j["definitions"] = {{"strings", d.strings.size()},
                      {"regions", CountDefined(d.regions)},
                      {"mpi_regions", mpi_regions},
                      {"callpaths", t.call_tree.size()},
                      {"system_tree_nodes", CountDefined(d.system_tree)},
                      {"location_groups", CountDefined(d.location_groups)},
                      {"groups", CountDefined(d.groups)},
                      {"communicators", CountDefined(d.comms)},
                      {"rma_windows", CountDefined(d.windows)},
                      {"metrics", CountDefined(d.metrics)}};
  j["regions"] = RegionsJson(t);
  json& locations = j["locations"] = json::array();
  for (uint32_t i = 0; i < t.location_count(); ++i) {
    const trace::Location& loc = d.locations[i];
    uint32_t rank = d.RankOfLocation(i);
    std::string group = loc.group < d.location_groups.size()
                            ? std::string(d.str(d.location_groups[loc.group].name))
                            : "";
    locations.push_back({{"id", i},
                         {"otf2_id", loc.otf2_id},
                         {"name", std::string(d.str(loc.name))},
                         {"type", trace::LocationTypeName(loc.type)},
                         {"group", group},
                         {"rank", rank == trace::kNone ? json(nullptr) : json(rank)},
                         {"events", t.location(i).recorded_size()},
                         {"first", t.SecondsSinceStart(t.location(i).first_time())},
                         {"last", t.SecondsSinceStart(t.location(i).last_time())}});
  }
  json& diagnostics = j["diagnostics"] = json::array();
  for (const Diagnostics::Entry& e : problems.Sorted()) {
    diagnostics.push_back({{"name", e.kind->name},
                           {"severity", SeverityName(e.kind->severity)},
                           {"count", e.count},
                           {"example", e.example}});
  }
  return j;
}

void PrintText(const json& j) {
  // Names, the creator and the path are the trace's text: escaped for the terminal.
  auto text = [](const json& value) { return DisplayText(value.get<std::string>()); };
  std::printf("Trace        %s\n", text(j["path"]).c_str());
  std::printf("Written by   %s (OTF2 %s)\n", text(j["creator"]).c_str(),
              text(j["otf2_version"]).c_str());
  const json& clock = j["clock"];
  std::printf("Clock        %llu ticks/s, global offset %llu, length %llu ticks\n",
              static_cast<unsigned long long>(clock["resolution"].get<uint64_t>()),
              static_cast<unsigned long long>(clock["global_offset"].get<uint64_t>()),
              static_cast<unsigned long long>(clock["trace_length"].get<uint64_t>()));
  std::printf("Duration     %.9f s from the first to the last event\n",
              j["duration"].get<double>());
  std::printf("Events       %llu\n", static_cast<unsigned long long>(j["events"].get<uint64_t>()));
  for (const auto& [kind, count] : j["events_by_kind"].items()) {
    std::printf("  %-34s %12llu\n", kind.c_str(),
                static_cast<unsigned long long>(count.get<uint64_t>()));
  }
  std::printf("Definitions");
  for (const auto& [name, count] : j["definitions"].items()) {
    std::printf(" %s=%llu", name.c_str(), static_cast<unsigned long long>(count.get<uint64_t>()));
  }
  std::printf("\nLocations    %zu\n", j["locations"].size());
  std::printf("  %5s %5s  %-22s %-18s %-12s %10s %14s %14s\n", "id", "rank", "name", "type",
              "group", "events", "first (s)", "last (s)");
  for (const json& loc : j["locations"]) {
    std::string rank = loc["rank"].is_null() ? "-" : std::to_string(loc["rank"].get<uint32_t>());
    std::printf("  %5u %5s  %-22s %-18s %-12s %10llu %14.6f %14.6f\n", loc["id"].get<uint32_t>(),
                rank.c_str(), text(loc["name"]).c_str(), loc["type"].get<std::string>().c_str(),
                text(loc["group"]).c_str(),
                static_cast<unsigned long long>(loc["events"].get<uint64_t>()),
                loc["first"].get<double>(), loc["last"].get<double>());
  }
  const json& regions = j["regions"];
  constexpr size_t kShown = 25;
  std::printf("Regions      %zu visited, by exclusive time (all locations)\n", regions.size());
  std::printf("  %-40s %-12s %12s %14s\n", "name", "paradigm", "visits", "exclusive (s)");
  for (size_t i = 0; i < regions.size() && i < kShown; ++i) {
    const json& r = regions[i];
    std::printf("  %-40s %-12s %12llu %14.6f\n", text(r["name"]).c_str(),
                r["paradigm"].get<std::string>().c_str(),
                static_cast<unsigned long long>(r["visits"].get<uint64_t>()),
                r["exclusive"].get<double>());
  }
  if (regions.size() > kShown)
    std::printf("  ... and %zu more (--json)\n", regions.size() - kShown);
  if (j["diagnostics"].empty()) {
    std::printf("Trace problems: none\n");
  } else {
    std::printf("Trace problems\n");
    for (const json& d : j["diagnostics"]) {
      std::printf("  [%s] %s x%llu (first: %s)\n", d["severity"].get<std::string>().c_str(),
                  d["name"].get<std::string>().c_str(),
                  static_cast<unsigned long long>(d["count"].get<uint64_t>()),
                  text(d["example"]).c_str());
    }
  }
}

class InfoSubcommand final : public Subcommand {
 public:
  const char* name() const override { return "info"; }
  const char* description() const override {
    return "Show what an OTF2 trace holds: locations, events by kind, definitions, clock";
  }
  void AddOptions(CLI::App& app) override {
    app.add_option("trace", trace_, "OTF2 anchor file (traces.otf2) or the directory holding it")
        ->required();
    app.add_option("--threads", threads_,
                   "worker threads (default: " + std::to_string(DefaultThreadCount()) +
                       ", the CPUs this process may run on)")
        ->check(CLI::Range(1u, 1024u));
    app.add_flag("--json", json_, "print JSON instead of text");
    app.add_flag("--partial", partial_, "show what can be read from a truncated trace");
  }
  Status Run() override {
    otf2::ReadOptions options;
    options.threads = threads_ == 0 ? DefaultThreadCount() : threads_;
    options.allow_partial = partial_;
    CW_ASSIGN_OR_RETURN(trace::Trace t, otf2::ReadTrace(trace_, options));
    // Matching finds what reading cannot (messages on undefined communicators, collectives
    // that do not match): info lists every problem analyze would, at a fraction of its cost.
    Diagnostics problems = t.diagnostics;
    problems.Merge(match::MatchTrace(t, options.threads).diagnostics);
    json j = InfoJson(t, problems);
    if (json_) {
      std::puts(j.dump(1, ' ', false, json::error_handler_t::replace).c_str());
    } else {
      PrintText(j);
    }
    return OkStatus();
  }

 private:
  std::string trace_;
  unsigned threads_ = 0;
  bool json_ = false;
  bool partial_ = false;
};

}  // namespace

std::unique_ptr<Subcommand> MakeInfoSubcommand() { return std::make_unique<InfoSubcommand>(); }

}  // namespace cw::cli
