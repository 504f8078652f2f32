#include "report/whatif_report.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numeric>

#include <nlohmann/json.hpp>

#include "base/units.h"
#include "base/utf8.h"

namespace cw::report {
namespace {

using nlohmann::json;

constexpr size_t kCallpathsShown = 5;
constexpr size_t kCallpathsKept = 50;

std::string RelativeChange(double predicted, double measured) {
  if (measured <= 0) return "n/a";
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%+.2f%%", 100.0 * (predicted - measured) / measured);
  return buffer;
}

std::string Name(const WhatIfContext& c, uint32_t location) {
  return location < c.location_names.size() ? c.location_names[location]
                                            : "location " + std::to_string(location);
}

std::string Label(const WhatIfContext& c, uint32_t location) {
  return location < c.location_labels.size() ? c.location_labels[location] : Name(c, location);
}

void AppendCallpaths(std::string& out, const sim::WhatIfResult& r, const WhatIfContext& c,
                     bool absorbing) {
  std::vector<const sim::CallpathEffect*> chosen;
  for (const sim::CallpathEffect& e : r.callpaths) {
    double net = e.gained - e.absorbed;
    if (absorbing ? net < 0 : net > 0) chosen.push_back(&e);
  }
  std::sort(chosen.begin(), chosen.end(), [](auto* a, auto* b) {
    return std::fabs(a->gained - a->absorbed) > std::fabs(b->gained - b->absorbed);
  });
  if (chosen.empty()) {
    out += "  (none)\n";
    return;
  }
  for (size_t i = 0; i < chosen.size() && i < kCallpathsShown; ++i) {
    const sim::CallpathEffect& e = *chosen[i];
    out += "  " + FormatDuration(std::fabs(e.gained - e.absorbed)) + "  " +
           (c.callpath_label ? c.callpath_label : c.callpath)(e.callpath) + "  (" +
           std::to_string(e.visits) + " visits)\n";
  }
}

}  // namespace

std::string ToWhatIfText(const sim::WhatIfResult& r, const WhatIfContext& c) {
  std::string out = "causeway whatif: " + c.trace_path + "\n\nChanges\n";
  for (const std::string& line : r.changes) out += "  " + line + "\n";
  if (r.estimate) {
    out += "  traced network, estimated from its messages: latency " +
           (r.estimate->latency ? FormatDuration(*r.estimate->latency) : std::string("unknown")) +
           ", bandwidth " +
           (r.estimate->per_byte && *r.estimate->per_byte > 0
                ? std::to_string(1e-9 / *r.estimate->per_byte) + " GB/s"
                : std::string("unknown")) +
           "\n";
  }
  double mean = r.MeanPredicted();
  out += "\nRuntime\n  measured   " + FormatDuration(r.measured_runtime) + "\n  predicted  " +
         FormatDuration(mean) + "  (" + RelativeChange(mean, r.measured_runtime) + ")\n";
  if (r.predicted_runtimes.size() > 1) {
    out += "  over " + std::to_string(r.predicted_runtimes.size()) + " runs: min " +
           FormatDuration(r.Quantile(0)) + ", median " + FormatDuration(r.Quantile(0.5)) +
           ", 95th percentile " + FormatDuration(r.Quantile(0.95)) + ", max " +
           FormatDuration(r.Quantile(1)) + "\n";
  }
  // The locations whose end moves most.
  std::vector<uint32_t> order(r.measured_ends.size());
  std::iota(order.begin(), order.end(), 0u);
  std::stable_sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
    return std::fabs(r.predicted_ends[a] - r.measured_ends[a]) >
           std::fabs(r.predicted_ends[b] - r.measured_ends[b]);
  });
  out += "\nEnd of each location (measured -> predicted), largest changes first\n";
  for (size_t i = 0; i < order.size() && i < 8; ++i) {
    uint32_t l = order[i];
    out += "  " + Label(c, l) + ": " + FormatDuration(r.measured_ends[l]) + " -> " +
           FormatDuration(r.predicted_ends[l]) + "\n";
  }
  if (order.size() > 8)
    out += "  ... " + std::to_string(order.size() - 8) + " more in whatif.json\n";
  out += "\nCall paths that propagate the change (they took on delay)\n";
  AppendCallpaths(out, r, c, false);
  out += "\nCall paths that absorb it (their waiting swallowed delay)\n";
  AppendCallpaths(out, r, c, true);
  const sim::ReplayStats& s = r.stats;
  out += "\nReplay: " + std::to_string(s.events) + " events, " + std::to_string(s.messages) +
         " messages, " + std::to_string(s.collectives) + " collective calls\n";
  auto note = [&out](uint64_t n, const char* what) {
    if (n > 0) out += "  " + std::to_string(n) + " " + what + "\n";
  };
  note(s.lock_handovers,
       "lock hand-overs (OpenSHMEM locks, MPI window locks) replayed in the measured order (each "
       "lock goes to the same next holder as in the measured run, now when its holder releases "
       "it)");
  note(s.value_waits,
       "OpenSHMEM waits for a value replayed against the write that ended them in the measured "
       "run");
  note(s.omp_team_starts, "OpenMP worker team begins replayed after their master's fork");
  note(s.omp_barrier_arrivals,
       "OpenMP barrier arrivals replayed as a team (its threads leave after the last one "
       "arrived)");
  note(s.omp_lock_handovers,
       "OpenMP lock hand-overs (critical sections, lock routines) replayed in the measured order");
  note(s.eager_resolved, "rendezvous sends completed eagerly to resolve a dependency cycle");
  note(s.unmatched_receives, "receives without a send in the trace (completed on their own)");
  note(s.unmatched_sends, "sends without a receive in the trace");
  note(s.incomplete_collectives, "collective calls whose instance lacked members");
  note(s.cycles_broken, "waits given up to break a dependency cycle");
  note(s.undefined_comms, "records naming an undefined communicator (replayed as local)");
  note(s.unclosed_calls, "MPI calls without a Leave (the location's events end inside them)");
  note(s.cancelled_requests, "cancelled sends and receives (never matched)");
  note(s.unmatched_epoch_syncs,
       "RMA epoch calls whose partner never posted or completed (completed on their own)");
  for (const std::string& e : r.source_errors) {
    out += "  event stream broke off: " + DisplayText(e) + "\n";
  }
  // What reading repaired, as analyze lists it: the replay ran on the repaired events.
  if (WhatIfProblems(r).empty()) {
    out += "\nTrace problems: none.\n";
  } else if (!r.diagnostics.empty()) {
    out += "\nTrace problems (the replay used the repaired events; see also the notes above):\n";
    for (const Diagnostics::Entry& d : r.diagnostics.Sorted()) out += TraceProblemLine(d);
  }
  if (!c.simulated_trace.empty()) {
    out += "\nSimulated trace (first run): " + c.simulated_trace + "\n  " +
           std::to_string(c.simulated_records) + " records";
    if (c.simulated_left_out > 0) {
      out += "; " + std::to_string(c.simulated_left_out) +
             " metric, I/O, parameter and calling-context records left out (not replayed)";
    }
    out += "\n  causeway analyze " + c.simulated_trace +
           "   shows the wait states of the new conditions\n";
  }
  return out;
}

std::string TraceProblemLine(const Diagnostics::Entry& d) {
  std::string line = "  [" + std::string(SeverityName(d.kind->severity)) + "] " +
                     std::string(d.kind->name) + " x" + std::to_string(d.count) + ": " +
                     std::string(d.kind->description);
  if (!d.example.empty()) line += " (first: " + DisplayText(d.example) + ")";
  return line + "\n";
}

std::vector<std::string> WhatIfProblems(const sim::WhatIfResult& r) {
  std::vector<std::string> problems;
  for (const Diagnostics::Entry& d : r.diagnostics.Sorted()) problems.emplace_back(d.kind->name);
  const sim::ReplayStats& s = r.stats;
  auto add = [&problems](uint64_t n, const char* what) {
    if (n > 0) problems.push_back(std::to_string(n) + " " + what);
  };
  add(s.unmatched_receives, "unmatched receives");
  add(s.unmatched_sends, "unmatched sends");
  add(s.incomplete_collectives, "incomplete collectives");
  add(s.undefined_comms, "records on an undefined communicator");
  add(s.unclosed_calls, "unclosed MPI calls");
  add(s.unmatched_epoch_syncs, "unmatched RMA epoch calls");
  add(r.source_errors.size(), "event streams broken off");
  return problems;
}

std::string ToWhatIfJson(const sim::WhatIfResult& r, const WhatIfContext& c) {
  json locations = json::array();
  for (uint32_t l = 0; l < r.measured_ends.size(); ++l) {
    const bool ranked = l < c.location_ranks.size() && c.location_ranks[l];
    locations.push_back({{"id", l},
                         {"rank", ranked ? json(*c.location_ranks[l]) : json(nullptr)},
                         {"name", Name(c, l)},
                         {"measured_end", r.measured_ends[l]},
                         {"predicted_end", r.predicted_ends[l]}});
  }
  json callpaths = json::array();
  for (size_t i = 0; i < r.callpaths.size() && i < kCallpathsKept; ++i) {
    const sim::CallpathEffect& e = r.callpaths[i];
    callpaths.push_back({{"callpath", c.callpath(e.callpath)},
                         {"absorbed", e.absorbed},
                         {"gained", e.gained},
                         {"visits", e.visits}});
  }
  json estimate = nullptr;
  if (r.estimate) {
    estimate = {
        {"latency", r.estimate->latency ? json(*r.estimate->latency) : json(nullptr)},
        {"seconds_per_byte", r.estimate->per_byte ? json(*r.estimate->per_byte) : json(nullptr)},
        {"small_samples", r.estimate->small_samples},
        {"large_samples", r.estimate->large_samples}};
  }
  const sim::ReplayStats& s = r.stats;
  json out = {{"format", "causeway-whatif"},
              {"version", 1},
              {"trace", c.trace_path},
              {"changes", r.changes},
              {"runs", r.predicted_runtimes.size()},
              {"seed", c.seed},
              {"measured_runtime", r.measured_runtime},
              {"predicted_runtime",
               {{"mean", r.MeanPredicted()},
                {"min", r.Quantile(0)},
                {"median", r.Quantile(0.5)},
                {"p95", r.Quantile(0.95)},
                {"max", r.Quantile(1)},
                {"runs", r.predicted_runtimes}}},
              {"traced_network", estimate},
              {"locations", locations},
              {"callpaths", callpaths},
              {"replay",
               {{"events", s.events},
                {"messages", s.messages},
                {"collective_calls", s.collectives},
                {"eager_resolved", s.eager_resolved},
                {"unmatched_receives", s.unmatched_receives},
                {"unmatched_sends", s.unmatched_sends},
                {"incomplete_collectives", s.incomplete_collectives},
                {"cycles_broken", s.cycles_broken},
                {"undefined_communicators", s.undefined_comms},
                {"unclosed_calls", s.unclosed_calls},
                {"cancelled_requests", s.cancelled_requests},
                {"epoch_notifications", s.epoch_syncs},
                {"unmatched_epoch_notifications", s.unmatched_epoch_syncs},
                {"lock_handovers", s.lock_handovers},
                {"value_waits", s.value_waits},
                {"omp_team_starts", s.omp_team_starts},
                {"omp_barrier_arrivals", s.omp_barrier_arrivals},
                {"omp_lock_handovers", s.omp_lock_handovers},
                {"peak_messages_in_flight", s.peak_messages_in_flight},
                {"peak_read_ahead", s.peak_buffered_events},
                {"stream_errors", r.source_errors}}}};
  json& diagnostics = out["diagnostics"] = json::array();
  for (const Diagnostics::Entry& d : r.diagnostics.Sorted()) {
    diagnostics.push_back({{"name", d.kind->name},
                           {"severity", SeverityName(d.kind->severity)},
                           {"description", d.kind->description},
                           {"count", d.count},
                           {"example", ValidUtf8(d.example)}});
  }
  if (!c.simulated_trace.empty()) {
    out["simulated_trace"] = {{"path", c.simulated_trace},
                              {"records", c.simulated_records},
                              {"left_out", c.simulated_left_out}};
  } else {
    out["simulated_trace"] = nullptr;
  }
  return out.dump(1) + "\n";
}

}  // namespace cw::report
