#include "report/text_summary.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numeric>

#include "base/utf8.h"
#include "report/internal/breakdown.h"
#include "report/internal/file_io_text.h"
#include "report/output_file.h"
#include "report/wait_patterns.h"

namespace cw::report {
namespace {

using analysis::MetricId;

std::string Format(const char* format, double value) {
  char buffer[64];
  std::snprintf(buffer, sizeof(buffer), format, value);
  return buffer;
}

// "37.4 %", right-aligned to 6 characters before the sign.
std::string Percent(double part, double whole) {
  if (whole <= 0) return "";
  return Format("%5.1f %%", 100.0 * part / whole);
}

std::string PercentTrimmed(double part, double whole) {
  std::string p = Percent(part, whole);
  return p.substr(p.find_first_not_of(' '));
}

std::string Pad(std::string s, size_t width) {
  if (s.size() < width) s.append(width - s.size(), ' ');
  return s;
}

std::string PadLeft(std::string s, size_t width) {
  if (s.size() < width) s.insert(0, width - s.size(), ' ');
  return s;
}

// How the ranks ended, where the tracer noted it: one line if all finalized, else each rank
// that did not.
void RankEndingsLine(const TraceSummary& t, std::string& out) {
  if (t.rank_endings.empty()) return;
  size_t finalized = 0;
  std::string others;
  for (const auto& [rank, how] : t.rank_endings) {
    if (how == "finalized") {
      ++finalized;
    } else {
      others += "; rank " + std::to_string(rank) + ": " + how;
    }
  }
  if (others.empty()) {
    out += "         every rank finished normally\n";
    return;
  }
  out += "Ended:   " + std::to_string(finalized) + " of " + std::to_string(t.rank_endings.size()) +
         " ranks finished normally" + others + "\n";
}

// Where the ranks ran, where the tracer noted it: an oversubscribed node and how long the ranks'
// main threads waited for a CPU, the most on one rank, how much of the computation the samples
// found descheduled, and whether other processes took the CPUs of a node the run did not
// oversubscribe.
void SchedulingLine(const TraceSummary& t, std::string& out) {
  if (t.rank_schedules.empty()) return;
  std::string line = t.oversubscribed ? "oversubscribed (" + t.oversubscription + ")"
                                      : "no node had more threads than CPUs";
  if (t.waited_for_cpu) {
    line += "; the ranks' main threads waited " + FormatSeconds(*t.waited_for_cpu) +
            " for a CPU (rank " + std::to_string(t.waited_most_rank) + " " +
            FormatSeconds(t.waited_most) + ")";
  }
  // Steal time shows only on virtual nodes; 0 says nothing there and on bare metal.
  if (t.stolen_share && *t.stolen_share > 0) {
    char stolen[96];
    std::snprintf(stolen, sizeof stolen, "; the hypervisor took %.1f %% of host ",
                  100 * *t.stolen_share);
    line += stolen + t.stolen_host + "'s CPU time (steal)";
  }
  out += "Run:     " + line + "\n";
  if (!t.descheduling.empty()) out += "         " + t.descheduling + "\n";
  if (t.cpu_contention) {
    out += "         other processes or machines took the CPUs: " + t.contention + "\n";
  }
}

void TraceSection(const Report& r, std::string& out) {
  const TraceSummary& t = r.trace;
  out += "causeway analysis\n\n";
  out += "Trace:   " + t.path + "\n";
  if (!t.creator.empty())
    out += "         written by " + t.creator + " (OTF2 " + t.otf2_version + ")\n";
  out += "         " + std::to_string(t.processes) + " processes, " + std::to_string(t.locations) +
         " locations, " + std::to_string(t.events) + " events, " + FormatSeconds(t.duration) +
         " from first to last event\n";
  RankEndingsLine(t, out);
  SchedulingLine(t, out);
  if (r.semantics == "scalasca") {
    out += "Metrics: Scalasca 2.6's definitions where causeway's differ (--semantics scalasca)\n";
  }
  out += "\n";
}

void BreakdownSection(const Report& r, std::string& out) {
  const double total = r.Total(MetricId::kTime);
  out += "Time breakdown (all locations together: " + FormatSeconds(total) + ")\n";
  for (const internal::BreakdownRow& row : internal::BreakdownRows(r)) {
    const std::string label = std::string(static_cast<size_t>(2 + 2 * row.depth), ' ') + row.label;
    out += Pad(label, 34) + PadLeft(FormatSeconds(row.seconds), 10) + "  " +
           Percent(row.seconds, total) + "\n";
  }
  out += "\n";
}

// Largest entries of `per` as "label value (share)", at most `limit`.
template <typename Label>
std::string Largest(const std::vector<double>& per, double total, size_t limit, Label label) {
  std::vector<uint32_t> order(per.size());
  std::iota(order.begin(), order.end(), 0u);
  std::stable_sort(order.begin(), order.end(),
                   [&](uint32_t a, uint32_t b) { return per[a] > per[b]; });
  std::string text;
  size_t shown = 0;
  for (uint32_t i : order) {
    if (per[i] <= 0 || shown == limit) break;
    if (shown++ > 0) text += ", ";
    text += label(i) + " " + FormatSeconds(per[i]) + " (" +
            Format("%.0f %%", 100.0 * per[i] / total) + ")";
  }
  size_t rest =
      static_cast<size_t>(std::count_if(per.begin(), per.end(), [](double v) { return v > 0; }));
  if (rest > shown) text += ", and " + std::to_string(rest - shown) + " more";
  return text;
}

void PatternBlock(const Report& r, const WaitPattern& p, int rank, double time_total,
                  std::string& out) {
  double value = r.Total(p.metric);
  size_t metric_index = static_cast<size_t>(p.metric);
  uint64_t count = metric_index < r.instance_counts.size() ? r.instance_counts[metric_index] : 0;
  out += Format("%2.0f. ", rank) + Pad(std::string(p.name()), 26) +
         PadLeft(FormatSeconds(value), 10) + "  " + Percent(value, time_total) + " of all time";
  if (count > 0) out += ", " + std::to_string(count) + (count == 1 ? " instance" : " instances");
  out += "\n    " + std::string(p.explanation) + ".\n";
  if (p.metric == MetricId::kMpiLateSender) {
    double wrong = r.Total(MetricId::kMpiLateSenderWo);
    if (wrong > 0) {
      out += "    Of this, " + FormatSeconds(wrong) +
             " waited for messages received in the wrong "
             "order (same source " +
             FormatSeconds(r.Total(MetricId::kMpiLswoSame)) + ", different sources " +
             FormatSeconds(r.Total(MetricId::kMpiLswoDifferent)) + ").\n";
    }
  }
  out +=
      "    Where: " +
      Largest(r.PerCallpath(p.metric), value, 3, [&](uint32_t cp) { return r.CallpathLabel(cp); }) +
      "\n";
  out += "    Who:   " +
         Largest(r.PerLocation(p.metric), value, 4,
                 [&](uint32_t loc) { return r.LocationLabel(loc); }) +
         "\n";
  for (const Instance& i : r.instances) {
    if (i.metric != p.metric) continue;
    out += "    Worst: " + r.LocationLabel(i.location) + " waited " + FormatSeconds(i.value);
    if (i.partner) out += " for " + r.LocationLabel(*i.partner);
    out += " in " + r.CallpathLabel(i.callpath) + ", entered at " + Format("%.6f", i.time) + " s\n";
    break;
  }
}

void WaitStateSection(const Report& r, std::string& out) {
  double time_total = r.Total(MetricId::kTime);
  std::vector<const WaitPattern*> found;
  double waiting = 0;
  for (const WaitPattern& p : WaitPatterns()) {
    double v = r.Total(p.metric);
    if (v <= 0) continue;
    found.push_back(&p);
    waiting += v;
  }
  std::stable_sort(found.begin(), found.end(), [&](const WaitPattern* a, const WaitPattern* b) {
    return r.Total(a->metric) > r.Total(b->metric);
  });
  if (found.empty()) {
    out += "Wait states: none found.\n\n";
    return;
  }
  out += "Wait states: " + FormatSeconds(waiting) + ", " + PercentTrimmed(waiting, time_total) +
         " of all time, ranked by total time\n";
  int rank = 1;
  for (const WaitPattern* p : found) PatternBlock(r, *p, rank++, time_total, out);
  out += "\n";
}

// "rank 3", "ranks 12-15", "ranks 0, 4-6" for a set of locations that are all process masters;
// otherwise the labels.
std::string LocationSet(const Report& r, std::vector<uint32_t> locations) {
  std::vector<uint32_t> ranks;
  for (uint32_t loc : locations) {
    const Location& l = r.locations.at(loc);
    if (!l.rank || l.name != "Master thread") ranks.clear();
    if (!l.rank || l.name != "Master thread") break;
    ranks.push_back(*l.rank);
  }
  if (ranks.size() != locations.size()) {
    std::string text;
    for (size_t i = 0; i < locations.size(); ++i) {
      if (i > 0) text += ", ";
      text += r.LocationLabel(locations[i]);
    }
    return text;
  }
  std::sort(ranks.begin(), ranks.end());
  std::string text = ranks.size() == 1 ? "rank " : "ranks ";
  for (size_t i = 0; i < ranks.size();) {
    size_t j = i;
    while (j + 1 < ranks.size() && ranks[j + 1] == ranks[j] + 1) ++j;
    if (i > 0) text += ", ";
    text += std::to_string(ranks[i]);
    if (j > i) text += (j == i + 1 ? ", " : "-") + std::to_string(ranks[j]);
    i = j + 1;
  }
  return text;
}

// The fewest locations that hold at least 80 % of `per`'s total, largest first (at most 8).
std::vector<uint32_t> MainContributors(const std::vector<double>& per) {
  double total = std::accumulate(per.begin(), per.end(), 0.0);
  std::vector<uint32_t> order(per.size());
  std::iota(order.begin(), order.end(), 0u);
  std::stable_sort(order.begin(), order.end(),
                   [&](uint32_t a, uint32_t b) { return per[a] > per[b]; });
  std::vector<uint32_t> chosen;
  double covered = 0;
  for (uint32_t loc : order) {
    if (per[loc] <= 0 || covered >= 0.8 * total || chosen.size() == 8) break;
    chosen.push_back(loc);
    covered += per[loc];
  }
  return chosen;
}

// Per call path, per location: the sum of the given metrics.
std::vector<std::vector<double>> Matrix(const Report& r, std::initializer_list<MetricId> metrics) {
  std::vector<std::vector<double>> m(r.callpaths.size());
  for (const Value& v : r.values) {
    if (std::find(metrics.begin(), metrics.end(), v.metric) == metrics.end()) continue;
    std::vector<double>& row = m[v.callpath];
    if (row.empty()) row.assign(r.locations.size(), 0.0);
    row[v.location] += v.value;
  }
  return m;
}

void RootCauseSection(const Report& r, std::string& out) {
  double waiting = r.Total(MetricId::kDelay);
  if (!r.critical_path || waiting <= 0) return;
  out += "Root causes (delay analysis): the call paths whose excess time made others wait\n";
  std::vector<std::vector<double>> cost =
      Matrix(r, {MetricId::kDelayMpi, MetricId::kDelayShmem, MetricId::kDelayOmp});
  std::vector<std::vector<double>> long_term = Matrix(
      r,
      {MetricId::kDelayLateSenderLongterm, MetricId::kDelayLateReceiverLongterm,
       MetricId::kDelayBarrierLongterm, MetricId::kDelayN2nLongterm, MetricId::kDelay12nLongterm,
       MetricId::kDelayN21Longterm, MetricId::kDelayScanLongterm, MetricId::kDelayFinalizeLongterm,
       MetricId::kDelaySendersLongterm, MetricId::kDelayRmaCollectiveLongterm,
       MetricId::kDelayRmaLatePostLongterm, MetricId::kDelayRmaEarlyWaitLongterm,
       MetricId::kDelayRmaLockLongterm, MetricId::kDelayShmemBarrierWaitLongterm,
       MetricId::kDelayShmemCollectiveWaitLongterm, MetricId::kDelayShmemLockContentionLongterm,
       MetricId::kDelayShmemWaitOnValueLongterm, MetricId::kDelayOmpBarrierLongterm});
  std::vector<double> per_callpath(r.callpaths.size(), 0.0);
  for (size_t cp = 0; cp < cost.size(); ++cp) {
    per_callpath[cp] = std::accumulate(cost[cp].begin(), cost[cp].end(), 0.0);
  }
  std::vector<uint32_t> order(per_callpath.size());
  std::iota(order.begin(), order.end(), 0u);
  std::stable_sort(order.begin(), order.end(),
                   [&](uint32_t a, uint32_t b) { return per_callpath[a] > per_callpath[b]; });
  int shown = 0;
  for (uint32_t cp : order) {
    double c = per_callpath[cp];
    if (c <= 0.01 * waiting || shown == 5) break;
    double lt = long_term[cp].empty()
                    ? 0.0
                    : std::accumulate(long_term[cp].begin(), long_term[cp].end(), 0.0);
    out += Format("%2.0f. ", ++shown) + PercentTrimmed(c, waiting) + " of all waiting (" +
           FormatSeconds(c) + ") is caused by " + r.CallpathLabel(cp) + " on " +
           LocationSet(r, MainContributors(cost[cp])) + ", " +
           (lt > 0.5 * c ? "mostly through propagation" : "mostly directly") + " (" +
           FormatSeconds(c - lt) + " direct, " + FormatSeconds(lt) + " propagated)\n";
  }
  double indirect = r.Total(MetricId::kMpiWaitIndirect) + r.Total(MetricId::kShmemWaitIndirect);
  double propagating =
      r.Total(MetricId::kMpiWaitPropagating) + r.Total(MetricId::kShmemWaitPropagating);
  out += "    Of all waiting, " + PercentTrimmed(indirect, waiting) +
         " was itself caused by waiting elsewhere (indirect), and " +
         PercentTrimmed(propagating, waiting) + " caused further waiting (propagating).\n\n";
}

void CriticalPathSection(const Report& r, std::string& out) {
  if (!r.critical_path) return;
  const CriticalPathSummary& cp = *r.critical_path;
  double window = cp.window_end - cp.window_begin;
  const bool scalasca = r.semantics == "scalasca";
  // Without MPI (an OpenSHMEM program) the path spans the processes' first and last events.
  const bool mpi = r.Total(MetricId::kMpi) > 0;
  out += "Critical path: " + FormatSeconds(cp.length) +
         (!mpi       ? " from the last process's first event to the last event"
          : scalasca ? " from MPI_Init to the last MPI_Finalize"
                     : " from the last MPI_Init to the last MPI_Finalize") +
         " (" + std::to_string(cp.segments) + " stretch" + (cp.segments == 1 ? "" : "es");
  if (cp.end_location) out += ", ending on " + r.LocationLabel(*cp.end_location);
  out += ")\n";
  if (cp.length + cp.untracked < window * (1 - 1e-9)) {
    out += "    It covers " + FormatSeconds(cp.length + cp.untracked) + " of the " +
           FormatSeconds(window) +
           " window: timestamps that violate the clock condition left gaps.\n";
  }
  std::vector<double> on_path = r.PerCallpath(MetricId::kCriticalPath);
  std::vector<double> imbalance = r.PerCallpath(MetricId::kCriticalPathImbalance);
  std::vector<double> costs = r.PerCallpath(MetricId::kCriticalImbalanceImpact);
  std::vector<double> inter = r.PerCallpath(MetricId::kInterPartitionImbalance);
  out += "    On it: " +
         Largest(on_path, cp.length, 4, [&](uint32_t c) { return r.CallpathLabel(c); }) + "\n";
  std::vector<uint32_t> order(costs.size());
  std::iota(order.begin(), order.end(), 0u);
  std::stable_sort(order.begin(), order.end(),
                   [&](uint32_t a, uint32_t b) { return costs[a] > costs[b]; });
  double all_costs = r.Total(MetricId::kCriticalImbalanceImpact);
  if (all_costs <= 0) {
    out += "    No call path on it takes longer than on the processes that wait.\n\n";
    return;
  }
  out +=
      "    Call paths whose imbalance costs the most (waiting they cause, critical-path "
      "imbalance):\n";
  int shown = 0;
  for (uint32_t c : order) {
    if (costs[c] <= 0.01 * all_costs || shown == 5) break;
    ++shown;
    out += "    " + Pad(r.CallpathLabel(c), 30) + " costs " + FormatSeconds(costs[c]) + " (" +
           PercentTrimmed(costs[c], all_costs) + ")";
    if (inter[c] > 0.5 * costs[c]) out += ", mostly between partitions";
    out += "; " + FormatSeconds(imbalance[c]) + " longer on the path than on average\n";
  }
  out += "\n";
}

// Why the POP efficiencies are not computed for a trace with no computation.
constexpr const char* kNoComputation =
    "the trace records no computation (no time in the program's own code between its MPI or "
    "OpenSHMEM calls: it was traced without a program region, or it only communicates), and "
    "every efficiency is a share of the computation";

// POP's hybrid model: the parallel efficiency as MPI's part (with OpenMP's runtime as useful)
// times OpenMP's.
void HybridPopSection(const Report& r, const PopHybridSummary& h, std::string& out) {
  out += "  = MPI parallel efficiency   " + Percent(h.mpi_parallel_efficiency, 1) +
         "  OpenMP's runtime counted as useful\n";
  out += "    MPI load balance          " + Percent(h.mpi_load_balance, 1) +
         "  time outside MPI per process: average " + FormatSeconds(h.average_outside_mpi) +
         ", maximum " + FormatSeconds(h.max_outside_mpi);
  if (h.max_master) out += " on " + r.LocationLabel(*h.max_master);
  out += "\n";
  out += "    MPI communication eff.    " + Percent(h.mpi_communication_efficiency, 1) +
         "  maximum time outside MPI / runtime\n";
  out += "  x OpenMP parallel eff.      " + Percent(h.omp_parallel_efficiency, 1) + "\n";
  out += "    OpenMP load balance       " + Percent(h.omp_load_balance, 1) +
         "  load balance / MPI load balance\n";
  out += "    OpenMP communication eff. " + Percent(h.omp_communication_efficiency, 1) +
         "  maximum computation / maximum time outside MPI\n";
}

void PopSection(const Report& r, std::string& out) {
  const PopSummary& p = r.pop;
  if (p.computation.empty() || p.runtime <= 0) return;
  if (p.max_computation <= 0) {
    // Every efficiency would be 0 %: a statement about the trace, not the program.
    out += "Efficiency (POP model): not computed: " + std::string(kNoComputation) + "\n\n";
    return;
  }
  const bool one_per_process = p.computation.size() == r.trace.processes;
  out += "Efficiency (POP model, " + std::to_string(p.computation.size()) +
         (one_per_process ? " processes, " : " threads of execution, ") + FormatSeconds(p.runtime) +
         " runtime):\n";
  out += "  Parallel efficiency         " + Percent(p.parallel_efficiency, 1) +
         "  = load balance x communication efficiency\n";
  out += "    Load balance              " + Percent(p.load_balance, 1) +
         "  useful computation: average " + FormatSeconds(p.average_computation) + ", maximum " +
         FormatSeconds(p.max_computation);
  if (p.max_location) out += " on " + r.LocationLabel(*p.max_location);
  out += "\n";
  out += "    Communication efficiency  " + Percent(p.communication_efficiency, 1) +
         "  maximum computation / runtime\n";
  if (p.serialisation_efficiency && p.transfer_efficiency) {
    out += "      Serialisation           " + Percent(*p.serialisation_efficiency, 1) + "\n";
    out += "      Transfer                " + Percent(*p.transfer_efficiency, 1) + "\n";
  } else {
    out += "      Serialisation, transfer unavailable: they need the runtime on an ideal network\n";
  }
  if (p.hybrid) HybridPopSection(r, *p.hybrid, out);
  out += "\n";
}

void CommunicationSection(const Report& r, std::string& out) {
  const match::MatchStats& m = r.matching;
  out += "Communication: " + std::to_string(m.messages) + " messages matched (" +
         FormatBytes(r.Total(MetricId::kBytesSent)) + " sent), " +
         std::to_string(m.collective_instances) + " collective operation" +
         (m.collective_instances == 1 ? "" : "s");
  // One-sided transfers (MPI windows, OpenSHMEM puts and gets) have no message to match.
  const double puts = r.Total(MetricId::kCommsRmaPuts), gets = r.Total(MetricId::kCommsRmaGets);
  if (puts + gets > 0) {
    out += ", " + Format("%.0f", puts + gets) + " one-sided transfers (" + Format("%.0f", puts) +
           " puts of " + FormatBytes(r.Total(MetricId::kBytesPut)) + ", " + Format("%.0f", gets) +
           " gets of " + FormatBytes(r.Total(MetricId::kBytesGet)) + ")";
  }
  if (m.unmatched_sends + m.unmatched_receives + m.incomplete_collectives > 0) {
    out += "; not matched: " + std::to_string(m.unmatched_sends) + " sends, " +
           std::to_string(m.unmatched_receives) + " receives, " +
           std::to_string(m.incomplete_collectives) + " incomplete collectives";
  }
  out += "\n";
  if (m.probes_linked > 0) {
    out += "Probes: " + std::to_string(m.probes_linked) + " found their message";
    if (m.probes_inferred > 0) {
      out += " (" + std::to_string(m.probes_inferred) +
             " inferred from the next receive: the trace does not record what probes found)";
    }
    out += "; their waits are Late Senders in the probe\n";
  }
  uint64_t violations = r.trace.clock_violations_p2p + r.trace.clock_violations_collective +
                        r.trace.clock_violations_probe;
  if (const std::optional<ClockCorrectionSummary>& c = r.clock_correction) {
    out += "Clock condition: " + std::to_string(c->before.p2p) + " point-to-point, " +
           std::to_string(c->before.probe) + " probe and " + std::to_string(c->before.collective) +
           " collective violations as recorded; " + std::to_string(c->after.total()) +
           " after timestamp correction (" + std::to_string(c->corrected_events) +
           " events moved, at most " + FormatSeconds(c->max_shift) + ").\n";
  } else if (violations == 0) {
    out += "Clock condition: no violations.\n";
  } else {
    out += "Clock condition: " + std::to_string(r.trace.clock_violations_p2p) +
           " point-to-point, " + std::to_string(r.trace.clock_violations_probe) + " probe and " +
           std::to_string(r.trace.clock_violations_collective) +
           " collective violations; the affected waits were clamped to the time spent in the "
           "call (--time-correct repairs the timestamps).\n";
  }
}

// Where to go from here: the sections of report.html, and the worst waits with the commands
// that show them on a timeline.
void NextSection(const Report& r, const std::string& raw_path, std::string& out) {
  out += "What to look at next (report.html in this directory, one page, no network needed):\n";
  out += "  report.html#overview   the efficiencies, the time breakdown and the main findings\n";
  out += "  report.html#browser    metrics, call paths and locations side by side, as in Cube\n";
  out +=
      "  report.html#charts     time per location, waiting per call path and location, the\n"
      "                         communication matrix and the message sizes\n";
  std::vector<const Instance*> worst;
  for (const Instance& i : r.instances) worst.push_back(&i);
  std::stable_sort(worst.begin(), worst.end(),
                   [](const Instance* a, const Instance* b) { return a->value > b->value; });
  if (worst.empty()) {
    out += "\n";
    return;
  }
  out += "  report.html#instances  timelines of the worst waits:\n";
  for (size_t k = 0; k < worst.size() && k < 3; ++k) {
    const Instance& i = *worst[k];
    out += "    " + std::to_string(k + 1) + ". " + std::string(analysis::Metric(i.metric).display) +
           " " + FormatSeconds(i.value) + " at " + r.CallpathLabel(i.callpath) + " on " +
           r.LocationLabel(i.location) + ", from " + Format("%.6f", i.time) + " s\n";
  }
  // The worst one in Perfetto: a window of its length on either side, in seconds from the
  // trace's first event (what --window takes).
  const Instance& w = *worst.front();
  const double from = std::max(0.0, w.time - r.trace.begin - w.value);
  const double to = w.time - r.trace.begin + 2 * w.value;
  // Quoted for the shell, so that pasting the command runs nothing a directory name holds.
  out += "  causeway export chrome " + DisplayText(ShellQuoted(raw_path)) +
         " -o worst.json --window " + Format("%.6f", from) + ":" + Format("%.6f", to) + "\n";
  out += "                         the worst wait on a timeline (open it in ui.perfetto.dev)\n\n";
}

void DiagnosticsSection(const Report& r, std::string& out) {
  if (r.diagnostics.empty()) {
    out += "Trace problems: none.\n";
    return;
  }
  out += "Trace problems (what causeway repaired or could not use):\n";
  for (const DiagnosticEntry& d : r.diagnostics) {
    out +=
        "  [" + d.severity + "] " + d.name + " x" + std::to_string(d.count) + ": " + d.description;
    if (!d.example.empty()) out += " (first: " + d.example + ")";
    out += "\n";
  }
}

}  // namespace

std::string FormatSeconds(double seconds) {
  // Three significant digits, trailing zeros kept ("30.0 s"), in the largest fitting unit.
  auto three = [](double v, const char* unit) {
    double a = std::fabs(v);
    const char* format = a >= 100 ? "%.0f %s" : a >= 10 ? "%.1f %s" : "%.2f %s";
    char buffer[64];
    std::snprintf(buffer, sizeof(buffer), format, v, unit);
    return std::string(buffer);
  };
  double a = std::fabs(seconds);
  if (a == 0) return "0 s";
  if (a >= 1) return three(seconds, "s");
  if (a >= 1e-3) return three(seconds * 1e3, "ms");
  if (a >= 1e-6) return three(seconds * 1e6, "us");
  return three(seconds * 1e9, "ns");
}

std::string FormatBytes(double bytes) {
  if (bytes >= 1e9) return Format("%.3g GB", bytes / 1e9);
  if (bytes >= 1e6) return Format("%.3g MB", bytes / 1e6);
  if (bytes >= 1e3) return Format("%.3g kB", bytes / 1e3);
  return Format("%.0f B", bytes);
}

namespace {

// Everything the trace names (its path, creator, locations, regions, the examples of its
// problems) is untrusted text: a region name holding a newline could forge a report line, one
// holding an escape sequence could drive the terminal. The summary shows a copy of the report
// whose text is escaped for display; report.json keeps the names as recorded.
Report ForDisplay(const Report& raw) {
  Report r = raw;
  r.trace.path = DisplayText(r.trace.path);
  r.trace.creator = DisplayText(r.trace.creator);
  r.trace.otf2_version = DisplayText(r.trace.otf2_version);
  for (auto& ending : r.trace.rank_endings) ending.second = DisplayText(ending.second);
  r.trace.oversubscription = DisplayText(r.trace.oversubscription);  // host names
  r.trace.contention = DisplayText(r.trace.contention);
  for (auto& schedule : r.trace.rank_schedules) schedule.host = DisplayText(schedule.host);
  for (Location& l : r.locations) {
    l.name = DisplayText(l.name);
    l.group = DisplayText(l.group);
  }
  for (Callpath& c : r.callpaths) c.region = DisplayText(c.region);
  for (DiagnosticEntry& d : r.diagnostics) d.example = DisplayText(d.example);
  return r;
}

}  // namespace

std::string ToSummaryText(const Report& raw) {
  const Report report = ForDisplay(raw);
  std::string out;
  TraceSection(report, out);
  AdviceTextSection(report, out);
  BreakdownSection(report, out);
  PopSection(report, out);
  WaitStateSection(report, out);
  RootCauseSection(report, out);
  CriticalPathSection(report, out);
  CommunicationSection(report, out);
  internal::AppendFileIoLines(report, out);
  NextSection(report, raw.trace.path, out);
  DiagnosticsSection(report, out);
  return out;
}

Status WriteSummary(const Report& report, const std::string& path) {
  return WriteTextFile(path, ToSummaryText(report));
}

}  // namespace cw::report
