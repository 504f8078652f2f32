#include "report/report.h"

#include <algorithm>
#include <map>
#include <tuple>

#include "trace/scheduling.h"

namespace cw::report {

using analysis::MetricId;

FileTotal Report::FileIoTotal() const {
  FileTotal all;
  for (const FileTotal& f : file_totals) {
    all.reads += f.reads;
    all.writes += f.writes;
    all.bytes_read += f.bytes_read;
    all.bytes_written += f.bytes_written;
    all.locations += f.locations;
  }
  return all;
}

void Report::IndexValues() {
  value_ranges.clear();
  indexed_values = 0;
  for (size_t i = 0; i < values.size();) {
    const auto m = static_cast<size_t>(values[i].metric);
    size_t end = i;
    while (end < values.size() && values[end].metric == values[i].metric) ++end;
    if (m >= value_ranges.size()) value_ranges.resize(m + 1, {0, 0});
    if (value_ranges[m].second != 0) {  // a metric in two places: not grouped, not indexed
      value_ranges.clear();
      return;
    }
    value_ranges[m] = {i, end};
    i = end;
  }
  indexed_values = values.size();
}

double Report::Total(MetricId metric) const {
  double total = 0;
  ForEachValue(metric, [&total](const Value& v) { total += v.value; });
  return total;
}

std::vector<double> Report::PerLocation(MetricId metric) const {
  std::vector<double> per(locations.size(), 0.0);
  ForEachValue(metric, [&per](const Value& v) { per[v.location] += v.value; });
  return per;
}

std::vector<double> Report::PerCallpath(MetricId metric) const {
  std::vector<double> per(callpaths.size(), 0.0);
  ForEachValue(metric, [&per](const Value& v) { per[v.callpath] += v.value; });
  return per;
}

namespace {

// The chain of `callpath` from itself up to the root.
std::vector<uint32_t> Chain(const std::vector<Callpath>& callpaths, uint32_t callpath) {
  std::vector<uint32_t> chain;
  for (std::optional<uint32_t> c = callpath; c && *c < callpaths.size(); c = callpaths[*c].parent)
    chain.push_back(*c);
  return chain;
}

// "root/.../a/b/c/d": the root and the innermost `tail` regions of `chain`.
std::string ElidedLabel(const std::vector<Callpath>& callpaths, const std::vector<uint32_t>& chain,
                        size_t tail) {
  std::string label = callpaths[chain.back()].region + "/...";
  for (size_t k = tail; k-- > 0;) label += "/" + callpaths[chain[k]].region;
  return label;
}

}  // namespace

void AssignLabelTails(std::vector<Callpath>& callpaths) {
  // Each call path's depth and root, found without walking any path twice: call trees can be
  // tens of thousands deep (a recursion), and a walk per call path would be quadratic.
  const uint32_t n = static_cast<uint32_t>(callpaths.size());
  std::vector<uint32_t> depth(n, 0), root(n, 0), walk;
  for (uint32_t cp = 0; cp < n; ++cp) {
    if (depth[cp] != 0) continue;  // on the walk of a call path before it
    walk.clear();
    uint32_t known = trace::kNone;
    for (uint32_t c = cp; depth[c] == 0 && walk.size() <= n;) {
      walk.push_back(c);
      const std::optional<uint32_t>& parent = callpaths[c].parent;
      if (!parent || *parent >= n) break;
      c = *parent;
      if (depth[c] != 0) known = c;
    }
    uint32_t d = known == trace::kNone ? 0 : depth[known];
    const uint32_t r = known == trace::kNone ? walk.back() : root[known];
    for (auto it = walk.rbegin(); it != walk.rend(); ++it) {
      depth[*it] = ++d;
      root[*it] = r;
    }
  }
  // The call paths whose label leaves regions out; those whose labels collide keep one more
  // innermost region each round, until their labels differ, show the whole path, or keep
  // kMaxLabelTail regions (labels that still collide then stay alike).
  constexpr uint32_t kMaxLabelTail = 12;
  auto label = [&](uint32_t cp) {
    std::string text = callpaths[root[cp]].region + "/...";
    std::vector<const std::string*> tail;
    for (uint32_t c = cp, k = 0; k < callpaths[cp].label_tail; ++k, c = *callpaths[c].parent)
      tail.push_back(&callpaths[c].region);
    for (auto it = tail.rbegin(); it != tail.rend(); ++it) text += "/" + **it;
    return text;
  };
  std::vector<uint32_t> pending;
  for (uint32_t cp = 0; cp < n; ++cp) {
    callpaths[cp].label_tail = static_cast<uint32_t>(trace::kPathLabelTail);
    if (depth[cp] > trace::kPathLabelTail + 2) pending.push_back(cp);
  }
  while (!pending.empty()) {
    std::map<std::string, std::vector<uint32_t>> by_label;
    for (uint32_t cp : pending) by_label[label(cp)].push_back(cp);
    pending.clear();
    for (const auto& [text, members] : by_label) {
      if (members.size() < 2) continue;
      for (uint32_t cp : members) {
        if (callpaths[cp].label_tail >= kMaxLabelTail) continue;
        if (depth[cp] <= ++callpaths[cp].label_tail + 2) continue;  // whole now
        pending.push_back(cp);
      }
    }
  }
}

std::string Report::CallpathLabel(uint32_t callpath) const {
  // A walked call path can be dozens of functions deep: the text keeps its root and its
  // innermost regions (kPathLabelTail, or more where that would read like another call path),
  // which say where the call is.
  const size_t tail = callpath < callpaths.size()
                          ? std::max<size_t>(trace::kPathLabelTail, callpaths[callpath].label_tail)
                          : trace::kPathLabelTail;
  const std::vector<uint32_t> chain = Chain(callpaths, callpath);
  std::string label;
  if (chain.size() <= tail + 2) {
    label = CallpathName(callpath);
  } else {
    label = ElidedLabel(callpaths, chain, tail);
  }
  if (callpath >= callpaths.size() || callpaths[callpath].line == 0) return label;
  const Callpath& c = callpaths[callpath];
  const size_t slash = c.file.rfind('/');
  label += " (" + c.file.substr(slash == std::string::npos ? 0 : slash + 1) + ":" +
           std::to_string(c.line) + ")";
  return label;
}

std::string Report::CallpathName(uint32_t callpath) const {
  std::vector<uint32_t> chain;
  for (std::optional<uint32_t> c = callpath; c && *c < callpaths.size(); c = callpaths[*c].parent) {
    chain.push_back(*c);
  }
  std::string name;
  for (auto it = chain.rbegin(); it != chain.rend(); ++it) {
    if (!name.empty()) name += '/';
    name += callpaths[*it].region;
  }
  return name;
}

std::string LocationLabelOf(std::optional<uint32_t> rank, std::string_view group,
                            std::string_view name) {
  if (!rank)
    return group.empty() ? std::string(name) : std::string(group) + " / " + std::string(name);
  std::string label = "rank " + std::to_string(*rank);
  if (name != "Master thread") label += " / " + std::string(name);
  return label;
}

std::string Report::LocationLabel(uint32_t location) const {
  const Location& loc = locations.at(location);
  return LocationLabelOf(loc.rank, loc.group, loc.name);
}

namespace {

TraceSummary Summarize(const trace::Trace& trace, const TraceFacts& facts,
                       const analysis::WaitStateResult& waitstates) {
  TraceSummary s;
  s.path = trace.path;
  s.locations = trace.location_count();
  for (const trace::LocationGroup& g : trace.defs.location_groups) {
    if (g.defined && g.rank != trace::kNone) ++s.processes;
  }
  // As Trace::BeginTime and EndTime: over the locations with events, 0 when there are none.
  uint64_t begin = UINT64_MAX, end = 0;
  for (const trace::LocationSpan& span : facts.spans) {
    s.events += span.recorded_events;
    if (span.empty) continue;
    begin = std::min(begin, span.first);
    end = std::max(end, span.last);
  }
  if (begin == UINT64_MAX) begin = 0;
  s.duration = trace.Seconds(end - begin);
  s.begin = trace.SecondsSinceStart(begin);
  s.timer_resolution = trace.defs.clock.resolution;
  s.clock_violations_p2p = waitstates.violations.p2p;
  s.clock_violations_collective = waitstates.violations.collective;
  s.clock_violations_probe = waitstates.violations.probe;
  s.creator = trace.defs.creator;
  s.otf2_version = trace.defs.otf2_version;
  s.rank_endings = trace.defs.rank_endings;
  s.rank_schedules = trace.defs.rank_schedules;
  s.oversubscribed = trace::Oversubscribed(trace.defs);
  s.oversubscription = trace::OversubscriptionText(trace.defs);
  s.descheduling = trace::DescheduledText(trace.defs);
  s.cpu_contention = trace::ContendedForCpus(trace.defs);
  s.contention = trace::CpuContentionText(trace.defs);
  for (const trace::Definitions::RankSchedule& r : trace.defs.rank_schedules) {
    if (r.waited_ns < 0) continue;
    const double waited = 1e-9 * static_cast<double>(r.waited_ns);
    if (!s.waited_for_cpu || waited > s.waited_most) {
      s.waited_most = waited;
      s.waited_most_rank = r.rank;
    }
    s.waited_for_cpu = s.waited_for_cpu.value_or(0) + waited;
  }
  for (const trace::Definitions::RankSchedule& r : trace.defs.rank_schedules) {
    const double stolen = trace::StolenShare(r);
    if (stolen >= 0 && (!s.stolen_share || stolen > *s.stolen_share)) {
      s.stolen_share = stolen;
      s.stolen_host = r.host;
    }
  }
  return s;
}

std::vector<FileIo> NamedFileIo(const trace::Definitions& defs,
                                const std::vector<trace::FileIoUse>& uses) {
  std::vector<FileIo> rows;
  rows.reserve(uses.size());
  for (const trace::FileIoUse& u : uses) {
    const bool named = u.file < defs.io_files.size() && defs.io_files[u.file].defined;
    rows.push_back(FileIo{named ? std::string(defs.str(defs.io_files[u.file].name)) : "",
                          u.location, u.reads, u.writes, u.bytes_read, u.bytes_written});
  }
  std::sort(rows.begin(), rows.end(), [](const FileIo& a, const FileIo& b) {
    return std::tie(a.file, a.location) < std::tie(b.file, b.location);
  });
  return rows;
}

std::vector<FileTotal> FileTotals(const std::vector<FileIo>& rows) {
  std::map<std::string, FileTotal> by_name;
  for (const FileIo& row : rows) {
    FileTotal& f = by_name[row.file];
    f.file = row.file;
    f.reads += row.reads;
    f.writes += row.writes;
    f.bytes_read += row.bytes_read;
    f.bytes_written += row.bytes_written;
    ++f.locations;
    if (f.locations == 1 || row.bytes_read + row.bytes_written > f.busiest_bytes) {
      f.busiest = row.location;
      f.busiest_bytes = row.bytes_read + row.bytes_written;
    }
  }
  std::vector<FileTotal> totals;
  for (auto& [name, f] : by_name) totals.push_back(f);
  std::stable_sort(totals.begin(), totals.end(),
                   [](const FileTotal& a, const FileTotal& b) { return a.bytes() > b.bytes(); });
  return totals;
}

double ToReportUnit(MetricId metric, double stored, const trace::Trace& trace) {
  if (analysis::Metric(metric).unit == analysis::MetricUnit::kSeconds) {
    return stored / static_cast<double>(trace.defs.clock.resolution);
  }
  return stored;
}

CriticalPathSummary SummarizePath(const trace::Trace& trace,
                                  const analysis::CriticalPathResult& cp) {
  CriticalPathSummary s;
  s.length = trace.Seconds(static_cast<uint64_t>(std::max<int64_t>(cp.length, 0)));
  s.window_begin = trace.SecondsSinceStart(static_cast<uint64_t>(cp.window.begin));
  s.window_end = trace.SecondsSinceStart(static_cast<uint64_t>(cp.window.end));
  if (cp.window.end_location != trace::kNone) s.end_location = cp.window.end_location;
  s.segments = cp.segments.size();
  s.processes = static_cast<uint32_t>(cp.processes);
  s.unattributed_waiting =
      cp.unattributed_waiting / static_cast<double>(trace.defs.clock.resolution);
  s.untracked = trace.Seconds(static_cast<uint64_t>(std::max<int64_t>(cp.untracked, 0)));
  return s;
}

}  // namespace

TraceFacts TraceFactsOf(const trace::Trace& trace, const match::SyncGraph& graph) {
  TraceFacts facts;
  facts.spans = trace::LocationSpans(trace);
  facts.matching = graph.stats;
  facts.diagnostics.Merge(trace.diagnostics);
  facts.diagnostics.Merge(graph.diagnostics);
  for (uint32_t loc = 0; loc < trace.location_count(); ++loc) {
    std::vector<trace::FileIoUse> uses = trace::FileIoOf(trace, loc);
    facts.file_io.insert(facts.file_io.end(), uses.begin(), uses.end());
    std::vector<trace::CallSiteUse> sites = trace::CallSiteUses(trace, loc);
    facts.call_sites.insert(facts.call_sites.end(), sites.begin(), sites.end());
  }
  return facts;
}

Report BuildReport(const trace::Trace& trace, const match::SyncGraph& graph,
                   const analysis::AnalysisResult& analysis,
                   const clock::ClockCorrection* correction) {
  return BuildReport(trace, TraceFactsOf(trace, graph), analysis, correction);
}

Report BuildReport(const trace::Trace& trace, const TraceFacts& facts,
                   const analysis::AnalysisResult& analysis,
                   const clock::ClockCorrection* correction) {
  const analysis::WaitStateResult& waitstates = analysis.waitstates;
  Report r;
  r.semantics = std::string(analysis::SemanticsName(analysis.semantics));
  r.trace = Summarize(trace, facts, waitstates);
  const trace::Definitions& defs = trace.defs;
  for (uint32_t i = 0; i < trace.location_count(); ++i) {
    const trace::Location& loc = defs.locations[i];
    Location out{i, std::nullopt, std::string(defs.str(loc.name)), ""};
    if (loc.group < defs.location_groups.size()) {
      const trace::LocationGroup& g = defs.location_groups[loc.group];
      out.group = std::string(defs.str(g.name));
      if (g.rank != trace::kNone) out.rank = g.rank;
    }
    r.locations.push_back(std::move(out));
  }
  const std::vector<trace::CallSite> sites =
      trace::CallSites(facts.call_sites, trace.call_tree.size());
  for (uint32_t cp = 0; cp < trace.call_tree.size(); ++cp) {
    uint32_t parent = trace.call_tree.parent(cp);
    const uint32_t region = trace.call_tree.region(cp);
    Callpath c;
    c.id = cp;
    c.region = std::string(defs.RegionName(region));
    c.parent = parent == trace::kNone ? std::nullopt : std::optional<uint32_t>(parent);
    c.type = region < analysis.region_types.size() ? analysis.region_types[region]
                                                   : analysis::GenericType::kLocal;
    if (const trace::CallSite& site = sites[cp]; site.location != trace::kNone) {
      const trace::SourceLocation& at = defs.source_locations[site.location];
      c.file = std::string(defs.str(at.file));
      c.line = at.line;
      c.call_sites = site.sites;
    }
    r.callpaths.push_back(std::move(c));
  }
  AssignLabelTails(r.callpaths);
  for (const analysis::MetricInfo& metric : analysis::AllMetrics()) {
    for (uint32_t loc = 0; loc < waitstates.severities.size(); ++loc) {
      const std::vector<double>* values = waitstates.severities[loc].Values(metric.id);
      if (values == nullptr) continue;
      for (uint32_t cp = 0; cp < values->size(); ++cp) {
        double v = (*values)[cp];
        if (v != 0)
          r.values.push_back(Value{metric.id, cp, loc, ToReportUnit(metric.id, v, trace)});
      }
    }
  }
  r.IndexValues();
  for (const analysis::Instance& i : waitstates.instances) {
    r.instances.push_back(
        Instance{i.metric, i.callpath, i.location, trace.SecondsSinceStart(i.time),
                 ToReportUnit(i.metric, i.value, trace),
                 i.partner == trace::kNone ? std::nullopt : std::optional<uint32_t>(i.partner)});
  }
  r.instance_counts = waitstates.instance_counts;
  r.matching = facts.matching;
  r.file_io = NamedFileIo(trace.defs, facts.file_io);
  r.file_totals = FileTotals(r.file_io);
  if (analysis.critical_path) r.critical_path = SummarizePath(trace, *analysis.critical_path);
  const analysis::PopEfficiency& pop = analysis.pop;
  r.pop = PopSummary{
      trace.Seconds(static_cast<uint64_t>(pop.runtime)),
      pop.load_balance,
      pop.communication_efficiency,
      pop.parallel_efficiency,
      pop.serialisation_efficiency,
      pop.transfer_efficiency,
      pop.average_computation / static_cast<double>(trace.defs.clock.resolution),
      pop.max_computation / static_cast<double>(trace.defs.clock.resolution),
      pop.max_location == trace::kNone ? std::nullopt : std::optional<uint32_t>(pop.max_location),
      {},
      std::nullopt,
      std::nullopt};
  if (pop.ideal_runtime) {
    r.pop.ideal_runtime = *pop.ideal_runtime / static_cast<double>(trace.defs.clock.resolution);
  }
  const double resolution = static_cast<double>(trace.defs.clock.resolution);
  for (size_t k = 0; k < pop.locations.size(); ++k) {
    r.pop.computation.emplace_back(pop.locations[k], pop.computation[k] / resolution);
  }
  if (pop.hybrid) {
    const analysis::PopHybrid& h = *pop.hybrid;
    PopHybridSummary& out = r.pop.hybrid.emplace();
    out.mpi_parallel_efficiency = h.mpi_parallel_efficiency;
    out.mpi_load_balance = h.mpi_load_balance;
    out.mpi_communication_efficiency = h.mpi_communication_efficiency;
    out.omp_parallel_efficiency = h.omp_parallel_efficiency;
    out.omp_load_balance = h.omp_load_balance;
    out.omp_communication_efficiency = h.omp_communication_efficiency;
    out.average_outside_mpi = h.average_outside_mpi / resolution;
    out.max_outside_mpi = h.max_outside_mpi / resolution;
    if (h.max_master != trace::kNone) out.max_master = h.max_master;
    for (size_t k = 0; k < h.masters.size(); ++k) {
      out.outside_mpi.emplace_back(h.masters[k], h.outside_mpi[k] / resolution);
    }
  }
  if (analysis.advice) r.advice = SummarizeAdvice(*analysis.advice, trace);
  Diagnostics all;
  if (correction != nullptr) {
    r.trace.time_corrected = true;
    r.clock_correction = ClockCorrectionSummary{
        correction->before,     correction->after,
        correction->jumps,      correction->corrected_events,
        correction->unresolved, trace.Seconds(static_cast<uint64_t>(correction->max_shift)),
        correction->max_slope};
    all.Merge(correction->diagnostics);
  }
  all.Merge(facts.diagnostics);
  if (analysis.sync_points) all.Merge(analysis.sync_points->diagnostics);
  if (analysis.delay) all.Merge(analysis.delay->diagnostics);
  if (analysis.critical_path) all.Merge(analysis.critical_path->diagnostics);
  for (const Diagnostics::Entry& e : all.Sorted()) {
    r.diagnostics.push_back(DiagnosticEntry{std::string(e.kind->name),
                                            SeverityName(e.kind->severity),
                                            std::string(e.kind->description), e.count, e.example});
  }
  return r;
}

}  // namespace cw::report
