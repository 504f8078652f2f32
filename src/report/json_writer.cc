#include "report/json_writer.h"

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "base/check.h"
#include "report/output_file.h"

namespace cw::report {
namespace {

using nlohmann::json;

const char* UnitName(analysis::MetricUnit unit) {
  switch (unit) {
    case analysis::MetricUnit::kSeconds:
      return "seconds";
    case analysis::MetricUnit::kOccurrences:
      return "occurrences";
    case analysis::MetricUnit::kBytes:
      return "bytes";
  }
  return "";
}

json OptionalId(const std::optional<uint32_t>& id) { return id ? json(*id) : json(nullptr); }

// null where the trace does not say (other writers' traces).
json RankEndingsJson(const TraceSummary& t) {
  if (t.rank_endings.empty()) return nullptr;
  json endings = json::array();
  for (const auto& [rank, how] : t.rank_endings)
    endings.push_back({{"rank", rank}, {"ending", how}});
  return endings;
}

// null where the trace does not say (other writers' traces).
json SchedulingJson(const TraceSummary& t) {
  if (t.rank_schedules.empty()) return nullptr;
  auto seconds = [](int64_t ns) {
    return ns < 0 ? json(nullptr) : json(1e-9 * static_cast<double>(ns));
  };
  json ranks = json::array();
  for (const trace::Definitions::RankSchedule& s : t.rank_schedules) {
    ranks.push_back({{"rank", s.rank},
                     {"host", s.host},
                     {"cpus_allowed", s.cpus_allowed},
                     {"cpus_online", s.cpus_online},
                     {"ran", seconds(s.ran_ns)},
                     {"waited_for_cpu", seconds(s.waited_ns)},
                     {"node_cpu_time", seconds(s.node_ns)},
                     {"node_cpu_stolen", seconds(s.node_stolen_ns)},
                     {"computation_measured", seconds(s.computation_measured_ns)},
                     {"computation_descheduled", seconds(s.computation_descheduled_ns)}});
  }
  return {
      {"oversubscribed", t.oversubscribed}, {"cpu_contention", t.cpu_contention}, {"ranks", ranks}};
}

json TraceJson(const TraceSummary& t) {
  return json{{"path", t.path},
              {"locations", t.locations},
              {"processes", t.processes},
              {"events", t.events},
              {"duration", t.duration},
              {"timer_resolution", t.timer_resolution},
              {"clock_violations",
               {{"p2p", t.clock_violations_p2p},
                {"collective", t.clock_violations_collective},
                {"probe", t.clock_violations_probe}}},
              {"time_corrected", t.time_corrected},
              {"creator", t.creator},
              {"otf2_version", t.otf2_version},
              {"rank_endings", RankEndingsJson(t)},
              {"scheduling", SchedulingJson(t)}};
}

json MetricsJson() {
  json metrics = json::array();
  for (const analysis::MetricInfo& m : analysis::AllMetrics()) {
    metrics.push_back(
        {{"name", m.name},
         {"display", m.display},
         {"unit", UnitName(m.unit)},
         {"parent", m.parent ? json(analysis::Metric(*m.parent).name) : json(nullptr)},
         {"description", m.description}});
  }
  return metrics;
}

json LoadBalanceJson(const AdviceReport& a) {
  json processes = json::array();
  for (const ProcessBalanceEntry& b : a.processes) {
    processes.push_back({{"location", b.location},
                         {"computation", b.computation},
                         {"communication", b.communication},
                         {"synchronisation", b.synchronisation},
                         {"other", b.other}});
  }
  json blocks = json::array();
  for (const BlockBalanceEntry& b : a.blocks) {
    blocks.push_back({{"index", b.index},
                      {"closing", OptionalId(b.closing)},
                      {"begin", b.begin},
                      {"mean", b.mean},
                      {"max", b.max},
                      {"max_location", b.max_location}});
  }
  json callpaths = json::array();
  for (const CallpathBalanceEntry& b : a.callpath_balance) {
    callpaths.push_back({{"callpath", b.callpath},
                         {"mean", b.mean},
                         {"max", b.max},
                         {"max_location", b.max_location},
                         {"processes", b.processes}});
  }
  return {{"processes", processes},
          {"computation_imbalance", a.computation_imbalance},
          {"bottleneck_processes", a.bottleneck_processes},
          {"blocks", blocks},
          {"block_count", a.block_count},
          {"callpaths", callpaths}};
}

// report.json's `advice` (null without the analysis).
json AdviceJson(const Report& report) {
  auto optional = [](const std::optional<double>& v) { return v ? json(*v) : json(nullptr); };
  if (!report.advice) return nullptr;
  const AdviceReport& a = *report.advice;
  json findings = json::array();
  for (const AdviceFindingEntry& f : a.findings) {
    json counts = json::object();
    for (const auto& [pattern, n] : f.pattern_counts) {
      counts[std::string(analysis::AdvicePatternName(pattern))] = n;
    }
    json times = json::object();
    for (const auto& [pattern, seconds] : f.pattern_time) {
      times[std::string(analysis::AdvicePatternName(pattern))] = seconds;
    }
    json causes = json::array();
    for (const AdviceCauseEntry& c : f.causes) {
      causes.push_back({{"location", c.location},
                        {"callpath", c.callpath ? json(*c.callpath) : json(nullptr)},
                        {"time", c.time},
                        {"instances", c.instances},
                        {"first", c.first}});
    }
    json roots = json::array();
    for (const RootCauseEntry& rc : f.root_causes) {
      const bool delay = rc.source == analysis::RootCauseSource::kDelay;
      roots.push_back({{"callpath", rc.callpath},
                       {"location", rc.location},
                       {"source", delay ? "delay" : "imbalance"},
                       {"time", rc.time},
                       {"mean", rc.mean},
                       {"delay", delay ? json(rc.delay) : json(nullptr)}});
    }
    const std::string_view filter = analysis::DetectionFilterName(f.filter);
    findings.push_back(
        {{"pattern", analysis::AdvicePatternName(f.pattern)},
         {"callpath", f.callpath},
         {"generic_type", analysis::GenericTypeName(f.type)},
         {"locations", f.locations},
         {"filter", filter.empty() ? json(nullptr) : json(filter)},
         {"time", f.time},
         {"bottleneck_time", f.bottleneck_time},
         {"excess", f.excess},
         {"expected", optional(f.expected)},
         {"mean", f.mean},
         {"min", f.min},
         {"max", f.max},
         {"instances", f.instances},
         {"bottleneck_instances", f.bottleneck_instances},
         {"pattern_counts", counts},
         {"pattern_time", times},
         {"causes", causes},
         {"root_causes", roots},
         {"imbalanced_blocks", f.imbalanced_blocks},
         {"unseen", analysis::UnseenDependencyNames(f.unseen)},
         {"caused_wait", f.caused_wait},
         {"completed_by", f.completed_by},
         {"hints", f.hints},
         {"predicted_saving", optional(f.predicted_saving)},
         {"no_prediction", f.predicted_saving ? json(nullptr) : json(f.no_prediction)},
         {"same_fix_as", f.same_fix_as ? json(*f.same_fix_as) : json(nullptr)}});
  }
  json barriers = json::array();
  for (const RedundantBarrierEntry& b : a.redundant_barriers) {
    barriers.push_back({{"callpath", b.callpath},
                        {"instances", b.instances},
                        {"time", b.time},
                        {"unseen", analysis::UnseenDependencyNames(b.unseen)}});
  }
  const analysis::AdviceParameters& p = a.parameters;
  return {{"parameters",
           {{"hotspot_share", p.hotspot_share},
            {"baseline_ratio", p.baseline_ratio},
            {"deviation_high", p.deviation_high},
            {"deviation_low", p.deviation_low},
            {"max_findings", p.max_findings},
            {"imbalance", p.imbalance},
            {"frequent_count", p.frequent_count},
            {"frequent_mean", p.frequent_mean},
            {"transfer_run", p.transfer_run},
            {"small_bytes", p.small_bytes}}},
          {"baselines", a.baselines ? json(*a.baselines) : json(nullptr)},
          {"total_time", a.total_time},
          {"candidates", a.candidates},
          {"findings", findings},
          {"findings_left_out", a.findings_left_out},
          {"saving_nothing", a.saving_nothing},
          {"load_balance", LoadBalanceJson(a)},
          {"redundant_barriers", barriers}};
}

}  // namespace

namespace {

json LocationsJson(const Report& report) {
  json locations = json::array();
  for (const Location& l : report.locations) {
    locations.push_back(
        {{"id", l.id}, {"rank", OptionalId(l.rank)}, {"name", l.name}, {"group", l.group}});
  }
  return locations;
}

json CallpathsJson(const Report& report) {
  json callpaths = json::array();
  for (const Callpath& c : report.callpaths) {
    json entry = {{"id", c.id},
                  {"region", c.region},
                  {"parent", OptionalId(c.parent)},
                  {"generic_type", analysis::GenericTypeName(c.type)}};
    if (c.line != 0) {
      entry["file"] = c.file;
      entry["line"] = c.line;
      entry["call_sites"] = c.call_sites;
    }
    callpaths.push_back(std::move(entry));
  }
  return callpaths;
}

// The top-level "values" member as the document's dump writes it (one space per level, keys in
// order, numbers as the library formats them), written directly: an object per value in the
// document costs a dozen allocations, and a program of thousands of call paths has millions.
std::string ValuesText(const Report& report) {
  if (report.values.empty()) return "\"values\": []";
  std::vector<std::string> metric_names;  // by metric id, as JSON strings
  std::string out = "\"values\": [\n";
  out.reserve(report.values.size() * 96);
  for (size_t i = 0; i < report.values.size(); ++i) {
    const Value& v = report.values[i];
    const auto m = static_cast<size_t>(v.metric);
    if (m >= metric_names.size()) metric_names.resize(m + 1);
    if (metric_names[m].empty()) metric_names[m] = json(analysis::Metric(v.metric).name).dump();
    out += "  {\n   \"callpath\": ";
    out += std::to_string(v.callpath);
    out += ",\n   \"location\": ";
    out += std::to_string(v.location);
    out += ",\n   \"metric\": ";
    out += metric_names[m];
    out += ",\n   \"value\": ";
    out += json(v.value).dump();
    out += i + 1 < report.values.size() ? "\n  },\n" : "\n  }\n";
  }
  out += " ]";
  return out;
}

json InstancesJson(const Report& report) {
  json instances = json::array();
  for (const Instance& i : report.instances) {
    instances.push_back({{"metric", analysis::Metric(i.metric).name},
                         {"callpath", i.callpath},
                         {"location", i.location},
                         {"time", i.time},
                         {"value", i.value},
                         {"partner", OptionalId(i.partner)}});
  }
  return instances;
}

json InstanceCountsJson(const Report& report) {
  json counts = json::object();
  for (size_t m = 0; m < report.instance_counts.size(); ++m) {
    if (report.instance_counts[m] == 0) continue;
    counts[std::string(analysis::Metric(static_cast<analysis::MetricId>(m)).name)] =
        report.instance_counts[m];
  }
  return counts;
}

json MatchingJson(const match::MatchStats& s) {
  return {{"messages", s.messages},
          {"unmatched_sends", s.unmatched_sends},
          {"unmatched_receives", s.unmatched_receives},
          {"cancelled_requests", s.cancelled_requests},
          {"collective_instances", s.collective_instances},
          {"incomplete_collectives", s.incomplete_collectives},
          {"probes",
           {{"linked", s.probes_linked},
            {"inferred", s.probes_inferred},
            {"repeated", s.probes_repeated},
            {"unlinked", s.probes_unlinked},
            {"unresolved", s.probes_unresolved}}}};
}

json FileIoJson(const Report& report) {
  json file_io = json::array();
  for (const FileIo& f : report.file_io) {
    file_io.push_back({{"file", f.file},
                       {"location", f.location},
                       {"reads", f.reads},
                       {"writes", f.writes},
                       {"bytes_read", f.bytes_read},
                       {"bytes_written", f.bytes_written}});
  }
  return file_io;
}

json CriticalPathJson(const std::optional<CriticalPathSummary>& cp) {
  if (!cp) return nullptr;
  return {{"length", cp->length},
          {"window", {{"begin", cp->window_begin}, {"end", cp->window_end}}},
          {"end_location", OptionalId(cp->end_location)},
          {"segments", cp->segments},
          {"processes", cp->processes},
          {"unattributed_waiting", cp->unattributed_waiting},
          {"untracked", cp->untracked}};
}

json HybridPopJson(const std::optional<PopHybridSummary>& hybrid) {
  if (!hybrid) return nullptr;
  const PopHybridSummary& h = *hybrid;
  json outside = json::array();
  for (const auto& [location, seconds] : h.outside_mpi) {
    outside.push_back({{"location", location}, {"seconds", seconds}});
  }
  return {{"mpi_parallel_efficiency", h.mpi_parallel_efficiency},
          {"mpi_load_balance", h.mpi_load_balance},
          {"mpi_communication_efficiency", h.mpi_communication_efficiency},
          {"openmp_parallel_efficiency", h.omp_parallel_efficiency},
          {"openmp_load_balance", h.omp_load_balance},
          {"openmp_communication_efficiency", h.omp_communication_efficiency},
          {"average_outside_mpi", h.average_outside_mpi},
          {"max_outside_mpi", h.max_outside_mpi},
          {"max_master", OptionalId(h.max_master)},
          {"outside_mpi", outside}};
}

json PopJson(const PopSummary& pop) {
  auto optional_number = [](const std::optional<double>& v) {
    return v ? json(*v) : json(nullptr);
  };
  json computation = json::array();
  for (const auto& [location, seconds] : pop.computation) {
    computation.push_back({{"location", location}, {"seconds", seconds}});
  }
  return {
      {"runtime", pop.runtime},
      {"parallel_efficiency", pop.parallel_efficiency},
      {"load_balance", pop.load_balance},
      {"communication_efficiency", pop.communication_efficiency},
      {"serialisation_efficiency", optional_number(pop.serialisation_efficiency)},
      {"transfer_efficiency", optional_number(pop.transfer_efficiency)},
      {"ideal_runtime", optional_number(pop.ideal_runtime)},
      {"unavailable",
       pop.transfer_efficiency ? json(nullptr) : json("the ideal-network replay could not be run")},
      {"average_computation", pop.average_computation},
      {"max_computation", pop.max_computation},
      {"max_location", OptionalId(pop.max_location)},
      {"computation", computation},
      {"hybrid", HybridPopJson(pop.hybrid)}};
}

json ClockCorrectionJson(const std::optional<ClockCorrectionSummary>& c) {
  if (!c) return nullptr;
  auto violations = [](const clock::ClockViolationCounts& v) {
    return json{{"p2p", v.p2p}, {"collective", v.collective}, {"probe", v.probe}};
  };
  return {{"violations_before", violations(c->before)},
          {"violations_after", violations(c->after)},
          {"jumps", c->jumps},
          {"corrected_events", c->corrected_events},
          {"unresolved", c->unresolved},
          {"max_shift", c->max_shift},
          {"max_slope", c->max_slope}};
}

json DiagnosticsJson(const Report& report) {
  json diagnostics = json::array();
  for (const DiagnosticEntry& d : report.diagnostics) {
    diagnostics.push_back({{"name", d.name},
                           {"severity", d.severity},
                           {"count", d.count},
                           {"description", d.description},
                           {"example", d.example}});
  }
  return diagnostics;
}

}  // namespace

std::string ToJson(const Report& report) {
  json j;
  j["format"] = "causeway-report";
  j["version"] = kReportFormatVersion;
  j["semantics"] = report.semantics;
  j["trace"] = TraceJson(report.trace);
  j["locations"] = LocationsJson(report);
  j["callpaths"] = CallpathsJson(report);
  j["metrics"] = MetricsJson();
  j["values"] = json::array();  // written below
  j["instances"] = InstancesJson(report);
  j["instance_counts"] = InstanceCountsJson(report);
  j["matching"] = MatchingJson(report.matching);
  j["file_io"] = FileIoJson(report);
  j["critical_path"] = CriticalPathJson(report.critical_path);
  j["pop"] = PopJson(report.pop);
  j["clock_correction"] = ClockCorrectionJson(report.clock_correction);
  j["advice"] = AdviceJson(report);
  j["diagnostics"] = DiagnosticsJson(report);
  // Region names come from the trace and may hold invalid UTF-8; replace rather than fail.
  std::string text = j.dump(1, ' ', false, json::error_handler_t::replace) + "\n";
  // A top-level member is the only one indented by one space; strings hold no raw line breaks.
  const std::string empty_values = "\n \"values\": []";
  const size_t at = text.find(empty_values);
  CW_CHECK(at != std::string::npos);
  text.replace(at + 2, empty_values.size() - 2, ValuesText(report));
  return text;
}

Status WriteJson(const Report& report, const std::string& path) {
  return WriteTextFile(path, ToJson(report));
}

}  // namespace cw::report
