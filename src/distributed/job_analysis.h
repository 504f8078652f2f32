// `causeway analyze` as one rank of an MPI analysis job (`mpirun -np K causeway analyze`).
//
// Every rank reads the definitions and partitions the locations (trace/partition.h); then it
// reads its own locations' events, matches them with the other ranks and finds their wait
// states. The first rank gathers what the report needs from every rank (severities, instances,
// counts, diagnostics, the event views), replays the trace on an ideal network for the POP
// efficiencies (streamed from the file, beside the analysis), and holds the report: the same
// report, value for value, as one process makes of the same trace.
//
// Every rank must call it, with the same options; errors are the same on every rank.
//
//   CW_ASSIGN_OR_RETURN(std::optional<JobReport> r, AnalyzeAsJobRank(path, options, comm));
//   if (r) { ... write r->report ... }   // the first rank only
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "base/status.h"
#include "comm/communicator.h"
#include "otf2/trace_reader.h"
#include "report/event_views.h"
#include "report/report.h"
#include "trace/trace.h"

namespace cw::distributed {

struct JobAnalysisOptions {
  otf2::ReadOptions read;  // threads: worker threads within the rank
  size_t instances_per_metric = 10;
};

// One phase of the job: the slowest rank's wall time and the bytes all ranks sent.
struct JobPhase {
  std::string name;
  double seconds = 0;
  uint64_t bytes_exchanged = 0;
};

struct JobReport {
  trace::Trace trace;  // the definitions and the call tree (the first rank's events only)
  report::Report report;
  report::EventViews views;
  std::vector<JobPhase> phases;       // read, match, wait states, report
  std::vector<uint64_t> peak_memory;  // bytes, per rank: its peak resident set so far
};

// Only the wait-state analysis runs across ranks so far: the root-cause and critical-path
// analyses, timestamp correction and the timeline still need the whole trace in one process.
Result<std::optional<JobReport>> AnalyzeAsJobRank(const std::string& path,
                                                  const JobAnalysisOptions& options,
                                                  comm::Communicator& comm);

}  // namespace cw::distributed
