#include "report/internal/html_data.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <numeric>

#include <nlohmann/json.hpp>

#include "analysis/metrics/metric_catalog.h"
#include "report/internal/breakdown.h"
#include "report/text_summary.h"
#include "report/wait_patterns.h"

namespace cw::report::internal {
namespace {

using analysis::MetricId;
using nlohmann::json;
using trace::kNone;

constexpr size_t kHeatmapCallpaths = 20;

std::string FormatSig(double v, int digits = 6) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.*g", digits, v);
  return buf;
}

// "12.3 %" for a share of 0.123.
std::string Percent(double share) { return FormatSig(100 * share, 3) + " %"; }

// Values rounded to what a page shows (6 significant digits), so that the file stays small.
// strtod, not stod: a long-term delay cost scaled down wait after wait along a long chain ends
// below the smallest normal double (MPICH's coll/nonblocking3: 1e-323 s), which stod refuses
// with an exception.
double Round(double v) { return v == 0 ? 0 : std::strtod(FormatSig(v).c_str(), nullptr); }

std::vector<double> Waiting(const Report& r) {
  std::vector<double> per(r.locations.size(), 0.0);
  for (const WaitPattern& p : WaitPatterns()) {
    std::vector<double> v = r.PerLocation(p.metric);
    for (size_t l = 0; l < per.size() && l < v.size(); ++l) per[l] += v[l];
  }
  return per;
}

json Overview(const Report& r) {
  const TraceSummary& t = r.trace;
  json breakdown = json::array();
  const double total = r.Total(MetricId::kTime);
  for (const BreakdownRow& row : BreakdownRows(r)) {
    breakdown.push_back({{"label", row.label},
                         {"seconds", Round(row.seconds)},
                         {"share", total > 0 ? Round(row.seconds / total) : 0.0},
                         {"depth", row.depth}});
  }
  const PopSummary& p = r.pop;
  json pop = nullptr;
  if (!p.computation.empty() && p.runtime > 0 && p.max_computation <= 0) {
    pop = {{"runtime", Round(p.runtime)},
           {"unavailable",
            "not computed: the trace records no computation (no time in the program's own code "
            "between its MPI or OpenSHMEM calls), and every efficiency is a share of it"}};
  } else if (!p.computation.empty() && p.runtime > 0) {
    pop = {{"runtime", Round(p.runtime)},
           {"parallel_efficiency", Round(p.parallel_efficiency)},
           {"load_balance", Round(p.load_balance)},
           {"communication_efficiency", Round(p.communication_efficiency)},
           {"serialisation_efficiency",
            p.serialisation_efficiency ? json(Round(*p.serialisation_efficiency)) : json(nullptr)},
           {"transfer_efficiency",
            p.transfer_efficiency ? json(Round(*p.transfer_efficiency)) : json(nullptr)}};
    if (p.hybrid) {
      pop["mpi_parallel_efficiency"] = Round(p.hybrid->mpi_parallel_efficiency);
      pop["mpi_load_balance"] = Round(p.hybrid->mpi_load_balance);
      pop["mpi_communication_efficiency"] = Round(p.hybrid->mpi_communication_efficiency);
      pop["openmp_parallel_efficiency"] = Round(p.hybrid->omp_parallel_efficiency);
      pop["openmp_load_balance"] = Round(p.hybrid->omp_load_balance);
      pop["openmp_communication_efficiency"] = Round(p.hybrid->omp_communication_efficiency);
    }
  }
  json file_io = nullptr;
  if (!r.file_totals.empty()) {
    const FileTotal all = r.FileIoTotal();
    file_io = {{"reads", all.reads},
               {"writes", all.writes},
               {"bytes_read", all.bytes_read},
               {"bytes_written", all.bytes_written},
               {"files", r.file_totals.size()}};
  }
  // Messages matched, collectives, and one-sided transfers, which have no message to match.
  json communication = {{"messages", r.matching.messages},
                        {"bytes_sent", r.Total(MetricId::kBytesSent)},
                        {"collectives", r.matching.collective_instances},
                        {"puts", r.Total(MetricId::kCommsRmaPuts)},
                        {"bytes_put", r.Total(MetricId::kBytesPut)},
                        {"gets", r.Total(MetricId::kCommsRmaGets)},
                        {"bytes_got", r.Total(MetricId::kBytesGet)}};
  return {{"path", t.path},           {"duration", Round(t.duration)},
          {"processes", t.processes}, {"locations", t.locations},
          {"events", t.events},       {"creator", t.creator},
          {"breakdown", breakdown},   {"pop", pop},
          {"file_io", file_io},       {"communication", communication}};
}

// The three findings worth reading first, in words.
json Findings(const Report& r) {
  json findings = json::array();
  const double total = r.Total(MetricId::kTime);
  auto share = [total](double v) { return total > 0 ? Percent(v / total) : "-"; };
  // 1. The costliest wait state, where and on whom.
  const WaitPattern* worst = nullptr;
  for (const WaitPattern& p : WaitPatterns()) {
    if (r.Total(p.metric) > 0 && (!worst || r.Total(p.metric) > r.Total(worst->metric))) {
      worst = &p;
    }
  }
  if (worst != nullptr) {
    std::vector<double> cp = r.PerCallpath(worst->metric), loc = r.PerLocation(worst->metric);
    size_t c = static_cast<size_t>(std::max_element(cp.begin(), cp.end()) - cp.begin());
    size_t l = static_cast<size_t>(std::max_element(loc.begin(), loc.end()) - loc.begin());
    findings.push_back(std::string(worst->name()) + " costs " +
                       FormatSeconds(r.Total(worst->metric)) + " (" +
                       share(r.Total(worst->metric)) + " of all time): " + worst->explanation +
                       ". Most of it at " + r.CallpathName(static_cast<uint32_t>(c)) +
                       ", most on " + r.LocationLabel(static_cast<uint32_t>(l)) + ".");
  } else {
    findings.push_back(std::string("No wait states were found."));
  }
  // 2. What limits parallel efficiency (not computed without computation).
  const PopSummary& p = r.pop;
  if (!p.computation.empty() && p.runtime > 0 && p.max_computation > 0) {
    bool balance = p.load_balance <= p.communication_efficiency;
    std::string text =
        "Parallel efficiency is " + Percent(p.parallel_efficiency) + ", limited most by " +
        (balance ? "load balance (" + Percent(p.load_balance) + ": the busiest process computes " +
                       FormatSeconds(p.max_computation) + " against " +
                       FormatSeconds(p.average_computation) + " on average)"
                 : "communication (" + Percent(p.communication_efficiency) + " efficiency)");
    if (!balance && p.serialisation_efficiency && p.transfer_efficiency) {
      text += *p.serialisation_efficiency < *p.transfer_efficiency
                  ? ", mostly serialisation (waiting that an ideal network would not remove)"
                  : ", mostly transfer (time an ideal network would save)";
    }
    if (p.hybrid) {
      // Which runtime loses more: the threads inside the processes, or MPI between them.
      const bool threads = p.hybrid->omp_parallel_efficiency < p.hybrid->mpi_parallel_efficiency;
      text +=
          "; " + std::string(threads ? "OpenMP" : "MPI") + " loses more (parallel efficiency " +
          Percent(threads ? p.hybrid->omp_parallel_efficiency : p.hybrid->mpi_parallel_efficiency) +
          " against " + std::string(threads ? "MPI's " : "OpenMP's ") +
          Percent(threads ? p.hybrid->mpi_parallel_efficiency : p.hybrid->omp_parallel_efficiency) +
          ")";
    }
    findings.push_back(text + ".");
  }
  // 3. The most imbalanced computation.
  std::vector<double> comp_cp = r.PerCallpath(MetricId::kComp);
  if (!comp_cp.empty() && !r.locations.empty()) {
    // A row per call path that computes somewhere (the others have nothing above the mean).
    std::vector<std::vector<double>> per(comp_cp.size());
    r.ForEachValue(MetricId::kComp, [&](const Value& v) {
      if (per[v.callpath].empty()) per[v.callpath].assign(r.locations.size(), 0.0);
      per[v.callpath][v.location] = v.value;
    });
    double best = 0;
    size_t best_cp = 0, best_loc = 0;
    for (size_t c = 0; c < per.size(); ++c) {
      if (per[c].empty()) continue;
      double mean =
          std::accumulate(per[c].begin(), per[c].end(), 0.0) / static_cast<double>(per[c].size());
      auto max = std::max_element(per[c].begin(), per[c].end());
      if (*max - mean > best) {
        best = *max - mean;
        best_cp = c;
        best_loc = static_cast<size_t>(max - per[c].begin());
      }
    }
    if (best > 0) {
      findings.push_back("The most imbalanced computation is " +
                         r.CallpathName(static_cast<uint32_t>(best_cp)) + ": " +
                         r.LocationLabel(static_cast<uint32_t>(best_loc)) + " spends " +
                         FormatSeconds(best) + " more in it than the average location (" +
                         share(best) + " of all time).");
    }
  }
  return findings;
}

// Metrics with values (and their ancestors), call paths, locations and every value.
json Browser(const Report& r) {
  std::vector<bool> keep(analysis::kMetricCount, false);
  for (const Value& v : r.values) keep[static_cast<size_t>(v.metric)] = true;
  for (auto it = analysis::AllMetrics().rbegin(); it != analysis::AllMetrics().rend(); ++it) {
    if (keep[static_cast<size_t>(it->id)] && it->parent) {
      keep[static_cast<size_t>(*it->parent)] = true;
    }
  }
  std::map<MetricId, int> index;
  json metrics = json::array();
  for (const analysis::MetricInfo& m : analysis::AllMetrics()) {
    if (!keep[static_cast<size_t>(m.id)]) continue;
    index[m.id] = static_cast<int>(metrics.size());
    metrics.push_back({{"name", m.name},
                       {"display", m.display},
                       {"unit", m.unit == analysis::MetricUnit::kSeconds ? "s"
                                : m.unit == analysis::MetricUnit::kBytes ? "B"
                                                                         : ""},
                       {"parent", m.parent ? index.at(*m.parent) : -1},
                       {"description", m.description}});
  }
  json callpaths = json::array();
  for (const Callpath& c : r.callpaths) {
    // [region, parent, call site ("file.c:31", "" where unknown)]
    std::string site;
    if (c.line != 0) {
      const size_t slash = c.file.rfind('/');
      site =
          c.file.substr(slash == std::string::npos ? 0 : slash + 1) + ":" + std::to_string(c.line);
    }
    callpaths.push_back({c.region, c.parent ? static_cast<int64_t>(*c.parent) : -1, site});
  }
  json locations = json::array();
  for (const Location& l : r.locations) {
    locations.push_back({r.LocationLabel(l.id), l.rank ? json(*l.rank) : json(nullptr)});
  }
  json values = json::array();
  for (const Value& v : r.values) {
    values.push_back({index.at(v.metric), v.callpath, v.location, Round(v.value)});
  }
  return {
      {"metrics", metrics}, {"callpaths", callpaths}, {"locations", locations}, {"values", values}};
}

json Categories(const Report& r) {
  const size_t n = r.locations.size();
  auto per = [&](MetricId m) {
    std::vector<double> v = r.PerLocation(m);
    v.resize(n, 0.0);
    return v;
  };
  auto sum = [&](std::initializer_list<MetricId> ms) {
    std::vector<double> out(n, 0.0);
    for (MetricId m : ms) {
      std::vector<double> v = per(m);
      for (size_t l = 0; l < n; ++l) out[l] += v[l];
    }
    return out;
  };
  std::vector<double> comp = per(MetricId::kComp), mpi = per(MetricId::kMpi);
  std::vector<double> time = per(MetricId::kTime);
  std::vector<double> waiting = Waiting(r);
  std::vector<double> p2p = per(MetricId::kMpiPoint2Point);
  std::vector<double> p2p_wait = sum({MetricId::kMpiLateSender, MetricId::kMpiLateReceiver});
  std::vector<double> coll = sum({MetricId::kMpiCollective, MetricId::kMpiSyncCollective});
  std::vector<double> coll_wait =
      sum({MetricId::kMpiBarrierWait, MetricId::kMpiBarrierCompletion, MetricId::kMpiWaitNxn,
           MetricId::kMpiNxnCompletion, MetricId::kMpiLateBroadcast, MetricId::kMpiEarlyReduce,
           MetricId::kMpiEarlyScan, MetricId::kMpiWaitSenders});
  json rows = json::array();
  for (size_t l = 0; l < n; ++l) {
    double point = std::max(0.0, p2p[l] - p2p_wait[l]);
    double collective = std::max(0.0, coll[l] - coll_wait[l]);
    double other = std::max(0.0, mpi[l] - point - collective - waiting[l]);
    double rest = std::max(0.0, time[l] - comp[l] - mpi[l]);  // OpenMP, CUDA, overhead, ...
    rows.push_back({Round(comp[l]), Round(point), Round(collective), Round(waiting[l]),
                    Round(other), Round(rest)});
  }
  return {{"names",
           {"Computation", "Point-to-point", "Collective", "Waiting", "Other MPI",
            "OpenMP, CUDA and other"}},
          {"rows", rows}};
}

json Heatmap(const Report& r) {
  const size_t n = r.locations.size();
  std::map<uint32_t, std::vector<double>> by_callpath;
  for (const Value& v : r.values) {
    bool waiting = false;
    for (const WaitPattern& p : WaitPatterns()) waiting = waiting || p.metric == v.metric;
    if (!waiting) continue;
    std::vector<double>& row = by_callpath[v.callpath];
    row.resize(n, 0.0);
    row[v.location] += v.value;
  }
  std::vector<std::pair<double, uint32_t>> order;
  for (const auto& [cp, row] : by_callpath) {
    order.emplace_back(std::accumulate(row.begin(), row.end(), 0.0), cp);
  }
  std::sort(order.rbegin(), order.rend());
  if (order.size() > kHeatmapCallpaths) order.resize(kHeatmapCallpaths);
  json callpaths = json::array(), rows = json::array();
  for (const auto& [total, cp] : order) {
    callpaths.push_back(r.CallpathName(cp));
    json row = json::array();
    for (double v : by_callpath[cp]) row.push_back(Round(v));
    rows.push_back(row);
  }
  return {{"callpaths", callpaths}, {"rows", rows}};
}

json Communication(const CommunicationMatrix& matrix) {
  json bytes = json::array(), messages = json::array();
  for (uint32_t s = 0; s < matrix.side; ++s) {
    const size_t row = size_t{s} * matrix.side;
    bytes.push_back(
        std::vector<double>(matrix.bytes.begin() + static_cast<ptrdiff_t>(row),
                            matrix.bytes.begin() + static_cast<ptrdiff_t>(row + matrix.side)));
    messages.push_back(
        std::vector<uint64_t>(matrix.messages.begin() + static_cast<ptrdiff_t>(row),
                              matrix.messages.begin() + static_cast<ptrdiff_t>(row + matrix.side)));
  }
  json histogram = json::array();
  for (const auto& [bucket, n] : matrix.sizes) {
    histogram.push_back({{"from", bucket < 0 ? 0.0 : std::ldexp(1.0, bucket)},
                         {"to", bucket < 0 ? 0.0 : std::ldexp(1.0, bucket + 1)},
                         {"count", n}});
  }
  return {{"by", matrix.by_rank ? "rank" : "location"},
          {"bin", matrix.bin},
          {"side", matrix.side},
          {"bytes", bytes},
          {"messages", messages},
          {"sizes", histogram}};
}

json Timelines(const Report& r, const trace::Trace& trace,
               const std::vector<InstanceTimeline>& timelines) {
  json out = json::array();
  for (const InstanceTimeline& timeline : timelines) {
    const Instance& in = r.instances.at(timeline.instance);
    json track_list = json::array();
    for (const TimelineTrack& track : timeline.tracks) {
      json list = json::array();
      for (const TimelineSlice& slice : track.slices) {
        list.push_back({slice.depth, slice.from, slice.to,
                        trace.defs.RegionName(trace.CallpathRegion(slice.callpath))});
      }
      track_list.push_back({{"label", r.LocationLabel(track.location)}, {"slices", list}});
    }
    json arrows = json::array();
    for (const TimelineArrow& a : timeline.arrows) {
      arrows.push_back({a.from_track, a.sent, a.to_track, a.received});
    }
    out.push_back({{"metric", analysis::Metric(in.metric).display},
                   {"seconds", in.value},
                   {"callpath", r.CallpathName(in.callpath)},
                   {"location", r.LocationLabel(in.location)},
                   {"from", timeline.from},
                   {"to", timeline.to},
                   {"wait_from", in.time},
                   {"wait_to", in.time + in.value},
                   {"tracks", track_list},
                   {"arrows", arrows}});
  }
  return out;
}

// The bottleneck analysis (report.json's `advice`) as PPW's multi-table view shows it:
// findings, then for the one selected its instances by pattern, its remote causes, the hints
// and the event-level load balance of its call path (its time on each location).
json Advice(const Report& r) {
  if (!r.advice) return nullptr;
  const AdviceReport& a = *r.advice;
  std::vector<std::vector<double>> time_by_location;  // per finding, per location
  json findings = json::array();
  for (const AdviceFindingEntry& f : a.findings) {
    json where = json::array();
    for (uint32_t l : f.locations) {
      if (where.size() == 8) break;
      where.push_back(r.LocationLabel(l));
    }
    json counts = json::array();
    for (const auto& [pattern, n] : f.pattern_counts) {
      counts.push_back({analysis::AdvicePatternName(pattern), n});
    }
    json causes = json::array();
    for (const AdviceCauseEntry& c : f.causes) {
      if (causes.size() == 20) break;
      causes.push_back({r.LocationLabel(c.location),
                        c.callpath ? r.CallpathName(*c.callpath) : std::string("(no region)"),
                        Round(c.time), c.instances});
    }
    // [location, call path, its computation there, "imbalance" or "delay", delay cost, mean]
    json roots = json::array();
    for (const RootCauseEntry& rc : f.root_causes) {
      const bool delay = rc.source == analysis::RootCauseSource::kDelay;
      roots.push_back({r.LocationLabel(rc.location), r.CallpathName(rc.callpath), Round(rc.time),
                       delay ? "delay" : "imbalance", Round(rc.delay), Round(rc.mean)});
    }
    json balance = json::array();
    r.ForEachValue(analysis::MetricId::kTime, [&](const Value& v) {
      if (v.callpath == f.callpath)
        balance.push_back({r.LocationLabel(v.location), Round(v.value)});
    });
    const std::string_view filter = analysis::DetectionFilterName(f.filter);
    findings.push_back(
        {{"pattern", analysis::AdvicePatternName(f.pattern)},
         {"callpath", r.CallpathName(f.callpath)},
         {"where", where},
         {"more", f.locations.size() - where.size()},
         {"filter", filter.empty() ? std::string("global analysis") : std::string(filter)},
         {"excess", Round(f.excess)},
         {"expected", f.expected ? json(Round(*f.expected)) : json(nullptr)},
         {"saving", f.predicted_saving ? json(Round(*f.predicted_saving)) : json(nullptr)},
         {"no_prediction", f.no_prediction},
         {"same_fix_as", f.same_fix_as ? json(*f.same_fix_as + 1) : json(nullptr)},
         {"instances", f.instances},
         {"bottleneck_instances", f.bottleneck_instances},
         {"counts", counts},
         {"causes", causes},
         {"roots", roots},
         {"hints", f.hints},
         {"balance", balance}});
  }
  json saving_nothing = json::array();
  for (uint32_t cp : a.saving_nothing) saving_nothing.push_back(r.CallpathName(cp));
  return {{"baselines", a.baselines ? json(*a.baselines) : json(nullptr)},
          {"findings", findings},
          {"left_out", a.findings_left_out},
          {"saving_nothing", saving_nothing}};
}

}  // namespace

std::string HtmlData(const Report& report, const trace::Trace& trace, const EventViews& views) {
  json data = {{"overview", Overview(report)},
               {"findings", Findings(report)},
               {"browser", Browser(report)},
               {"categories", Categories(report)},
               {"heatmap", Heatmap(report)},
               {"communication", Communication(views.communication)},
               {"timelines", Timelines(report, trace, views.timelines)},
               {"advice", Advice(report)}};
  // Names from the trace may be invalid UTF-8: replaced, never an exception.
  return data.dump(-1, ' ', false, json::error_handler_t::replace);
}

}  // namespace cw::report::internal
