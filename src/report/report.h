// The report model: what every report format shows, already converted to report units.
//
// Analyses produce severities in ticks per (metric, call path, location); BuildReport turns them
// into this self-contained model (seconds, names, sparse values, diagnostics), and the writers
// (json_writer.h, text_summary.h) only format it. Adding a format never touches an analysis.
//
//   report::Report r = report::BuildReport(trace, graph, analysis);
//   CW_RETURN_IF_ERROR(report::WriteJson(r, "out/report.json"));
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "analysis/generic/generic_types.h"
#include "analysis/metrics/metric_catalog.h"
#include "analysis/pipeline/analysis.h"
#include "base/diagnostics.h"
#include "clock/controlled_logical_clock.h"
#include "match/sync_graph.h"
#include "report/advice_section.h"
#include "trace/call_sites.h"
#include "trace/file_io.h"
#include "trace/trace.h"

namespace cw::report {

struct TraceSummary {
  std::string path;
  uint32_t locations = 0;
  uint32_t processes = 0;         // MPI ranks (location groups with a rank)
  uint64_t events = 0;            // events read from the file
  double duration = 0;            // seconds from the first to the last event
  double begin = 0;               // the first event, seconds since the clock's global offset
  uint64_t timer_resolution = 0;  // ticks per second
  uint64_t clock_violations_p2p = 0;
  uint64_t clock_violations_collective = 0;
  uint64_t clock_violations_probe = 0;
  bool time_corrected = false;
  std::string creator;
  std::string otf2_version;
  // How each rank's recording ended, by world rank, where the tracer noted it ("finalized",
  // "abort", "signal 11", "fatal error handler MPI_ERR_RANK: invalid rank", ...).
  std::vector<std::pair<uint32_t, std::string>> rank_endings;
  // Where each rank ran, where the tracer noted it (trace/scheduling.h), and whether a node had
  // more threads than CPUs.
  std::vector<trace::Definitions::RankSchedule> rank_schedules;
  bool oversubscribed = false;
  std::string oversubscription;  // which hosts, in words
  // How much of the ranks' computation their samples found descheduled, in words
  // (trace::DescheduledText); "" without samples.
  std::string descheduling;
  // A rank waited for a CPU kContendedShare or more on a node the run did not oversubscribe,
  // or a hypervisor stole that share of a rank's node's CPU time.
  bool cpu_contention = false;
  std::string contention;  // the rank that waited the largest share, in words
  // The largest share of a node's CPU time that a hypervisor stole while the run recorded (steal
  // time, trace::StolenShare), and that node; nullopt where no rank noted it.
  std::optional<double> stolen_share;
  std::string stolen_host;
  // Seconds the ranks' main threads waited for a CPU (those the kernel accounted for), and the
  // rank that waited most; nullopt if none was accounted for.
  std::optional<double> waited_for_cpu;
  uint32_t waited_most_rank = 0;
  double waited_most = 0;
};

// What one location read and wrote in one file (trace/file_io.h), with the file's name ("" when
// its handle names none).
struct FileIo {
  std::string file;
  uint32_t location = 0;
  uint64_t reads = 0;
  uint64_t writes = 0;
  uint64_t bytes_read = 0;
  uint64_t bytes_written = 0;
};

// One file's I/O over all locations, and the location that moved the most of its bytes.
struct FileTotal {
  std::string file;  // "" when the trace names no file
  uint64_t reads = 0;
  uint64_t writes = 0;
  uint64_t bytes_read = 0;
  uint64_t bytes_written = 0;
  uint32_t locations = 0;
  uint32_t busiest = 0;  // location id
  uint64_t busiest_bytes = 0;
  uint64_t bytes() const { return bytes_read + bytes_written; }
};

struct Location {
  uint32_t id;
  std::optional<uint32_t> rank;
  std::string name;   // "Master thread"
  std::string group;  // "MPI Rank 3"
};

struct Callpath {
  uint32_t id = 0;
  std::string region;
  std::optional<uint32_t> parent;
  // The generic operation type of its region (analysis/generic/construct_map.h).
  analysis::GenericType type = analysis::GenericType::kLocal;
  // Where it is called from, for walked call paths with debug information (trace/call_sites.h):
  // the file and line of the call (of several, the one the trace defines first), and how many
  // distinct lines of the caller make it.
  std::string file;
  uint32_t line = 0;
  uint32_t call_sites = 0;
  // How many innermost regions its text label keeps (Report::CallpathLabel): more than
  // trace::kPathLabelTail where fewer would read like another call path's label.
  uint32_t label_tail = 0;
};

struct Value {
  analysis::MetricId metric;
  uint32_t callpath;
  uint32_t location;
  double value;  // seconds, occurrences or bytes
};

struct Instance {
  analysis::MetricId metric;
  uint32_t callpath;
  uint32_t location;
  double time;   // seconds since the trace's global offset, when the waiting call was entered
  double value;  // seconds
  std::optional<uint32_t> partner;
};

// The critical path as a whole (its profile is in the values).
struct CriticalPathSummary {
  double length = 0;        // seconds: the sum of its segments
  double window_begin = 0;  // seconds since the trace's global offset
  double window_end = 0;
  std::optional<uint32_t> end_location;  // where it ends: the last process to enter Finalize
  uint64_t segments = 0;                 // stretches on one location between two jumps
  uint32_t processes = 0;
  double unattributed_waiting = 0;  // seconds of waiting no critical call path could take
  double untracked = 0;             // seconds on the path outside every region
};

// POP's hybrid model (a process with more than one thread; analysis/pop), times in seconds.
struct PopHybridSummary {
  double mpi_parallel_efficiency = 0;
  double mpi_load_balance = 0;
  double mpi_communication_efficiency = 0;
  double omp_parallel_efficiency = 0;
  double omp_load_balance = 0;
  double omp_communication_efficiency = 0;
  double average_outside_mpi = 0;
  double max_outside_mpi = 0;
  std::optional<uint32_t> max_master;
  std::vector<std::pair<uint32_t, double>> outside_mpi;  // (master location, seconds)
};

// The POP efficiencies (analysis/pop/pop_efficiency.h), times in seconds.
struct PopSummary {
  double runtime = 0;
  double load_balance = 0;
  double communication_efficiency = 0;
  double parallel_efficiency = 0;
  std::optional<double> serialisation_efficiency;  // absent: needs the ideal-network replay
  std::optional<double> transfer_efficiency;
  double average_computation = 0;
  double max_computation = 0;
  std::optional<uint32_t> max_location;
  std::vector<std::pair<uint32_t, double>> computation;  // (location, useful computation)
  std::optional<double> ideal_runtime;                   // seconds on an ideal network
  std::optional<PopHybridSummary> hybrid;  // programs with a process of several threads
};

// What `--time-correct` did (absent without it).
struct ClockCorrectionSummary {
  clock::ClockViolationCounts before;  // violations in the trace as recorded
  clock::ClockViolationCounts after;   // and after the correction (0 unless it was inconsistent)
  uint64_t jumps = 0;                  // receive-like events moved to their sources
  uint64_t corrected_events = 0;       // events whose timestamp changed
  uint64_t unresolved = 0;             // dependencies left out to break cycles
  double max_shift = 0;                // seconds: the largest change of a timestamp
  double max_slope = 0;                // the steepest backward amortisation line
};

struct DiagnosticEntry {
  std::string name;
  std::string severity;
  std::string description;
  uint64_t count;
  std::string example;
};

struct Report {
  // The definitions the metrics follow where causeway's and Scalasca's differ: "causeway" or
  // "scalasca" (--semantics).
  std::string semantics = "causeway";
  TraceSummary trace;
  std::vector<Location> locations;
  std::vector<Callpath> callpaths;
  std::vector<Value> values;              // non-zero only; by metric, location, call path
  std::vector<Instance> instances;        // most severe first
  std::vector<uint64_t> instance_counts;  // by metric
  match::MatchStats matching;
  std::optional<CriticalPathSummary> critical_path;  // absent without root-cause analysis
  std::optional<ClockCorrectionSummary> clock_correction;
  PopSummary pop;
  std::vector<FileIo> file_io;               // by file name, then location
  std::vector<FileTotal> file_totals;        // by bytes moved, most first
  std::optional<AdviceReport> advice;        // the automatic bottleneck analysis, if it ran
  std::vector<DiagnosticEntry> diagnostics;  // reader, matching and analysis, worst first

  // Where each metric's values lie in `values`, [begin, end) by metric id, when they are
  // grouped by metric (IndexValues; BuildReport calls it): the sums below then read only the
  // metric's own values, not all of them (a program of thousands of call paths has millions).
  std::vector<std::pair<size_t, size_t>> value_ranges;
  size_t indexed_values = 0;  // `values`' size when they were indexed
  void IndexValues();

  // The file I/O of every file together (`file` "", `busiest` unset).
  FileTotal FileIoTotal() const;
  // Sum of `metric` over call paths and locations.
  double Total(analysis::MetricId metric) const;
  // Sum of `metric` per location (indexed by location id).
  std::vector<double> PerLocation(analysis::MetricId metric) const;
  // Sum of `metric` per call path (indexed by call-path id).
  std::vector<double> PerCallpath(analysis::MetricId metric) const;
  // "main/foo/MPI_Send".
  std::string CallpathName(uint32_t callpath) const;
  // Calls `fn` with each of `metric`'s values, in the order of `values`.
  template <typename Fn>
  void ForEachValue(analysis::MetricId metric, Fn&& fn) const {
    const auto m = static_cast<size_t>(metric);
    if (indexed_values == values.size() && indexed_values > 0) {
      if (m >= value_ranges.size()) return;
      for (size_t i = value_ranges[m].first; i < value_ranges[m].second; ++i) fn(values[i]);
      return;
    }
    for (const Value& v : values) {
      if (v.metric == metric) fn(v);
    }
  }
  // The name with the call site where it is known: "main/step/exchange/MPI_Sendrecv
  // (nested_compute.c:31)", for the text a person reads; a path deeper than six regions keeps
  // its root and its innermost four ("main/.../a/b/c/MPI_Send"), or more where four would read
  // like another call path's label (Callpath::label_tail).
  std::string CallpathLabel(uint32_t callpath) const;
  // "rank 3" for a process's master location, else "rank 3 / OMP thread 1" or the name.
  std::string LocationLabel(uint32_t location) const;
};

// "rank 3" for a process's master thread, "rank 3 / Thread 1" for its other threads; a location
// without a rank is named by its group and its name ("GPU / stream 1"), or its name alone.
std::string LocationLabelOf(std::optional<uint32_t> rank, std::string_view group,
                            std::string_view name);

// What a report states of the whole trace and its matching beyond the definitions and the call
// tree. One process reads it off its trace and graph (TraceFactsOf); the first rank of an MPI
// analysis job gathers it from every rank's share (driver/job_analysis.h).
struct TraceFacts {
  std::vector<trace::LocationSpan> spans;  // every location
  match::MatchStats matching;
  Diagnostics diagnostics;                     // the reader's, then the matcher's
  std::vector<trace::FileIoUse> file_io;       // every location's, in any order
  std::vector<trace::CallSiteUse> call_sites;  // every location's, in any order
};
TraceFacts TraceFactsOf(const trace::Trace& trace, const match::SyncGraph& graph);

// `correction`: what timestamp correction did before the analysis, if it ran.
// Sets each call path's label_tail: kPathLabelTail, or as many more innermost regions as make its
// label differ from every other's (or show it whole).
void AssignLabelTails(std::vector<Callpath>& callpaths);

Report BuildReport(const trace::Trace& trace, const match::SyncGraph& graph,
                   const analysis::AnalysisResult& analysis,
                   const clock::ClockCorrection* correction = nullptr);
// The same where `trace` gives only the definitions, the call tree and the path, and `facts`
// the rest.
Report BuildReport(const trace::Trace& trace, const TraceFacts& facts,
                   const analysis::AnalysisResult& analysis,
                   const clock::ClockCorrection* correction = nullptr);

}  // namespace cw::report
