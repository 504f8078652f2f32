// `causeway analyze` as one rank of an MPI analysis job (`mpirun -np K causeway analyze`).
//
// Every rank reads the definitions and partitions the locations (trace/partition.h); then it
// reads its own locations' events, matches them with the other ranks, finds their wait states,
// builds their synchronisation points, runs its part of the delay analysis's backward pass and
// walks the critical path where it crosses its locations. The first rank gathers what the report
// needs from every rank (severities, instances, counts, diagnostics, the critical path's facts,
// the event views), finishes the critical-path metrics, replays the trace on an ideal network
// for the POP efficiencies (streamed from the file, beside the analysis), and holds the report:
// the same report, value for value, as one process makes of the same trace. With `advice`, the
// ranks run the bottleneck analysis on their locations and the first finishes it
// (analysis/advice/advice.h) and replays the predicted savings from the file.
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
#include "driver/trace_analysis.h"
#include "report/event_views.h"
#include "report/report.h"
#include "trace/trace.h"

namespace cw::driver {

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
  std::vector<JobPhase> phases;       // read, match, wait states, [root causes,] report
  std::vector<uint64_t> peak_memory;  // bytes, per rank: its peak resident set so far
};

// Timestamp correction and the timeline still need the whole trace in one process.
// `options` as for one process (trace_analysis.h); time_correct is refused by the caller.
Result<std::optional<JobReport>> AnalyzeAsJobRank(const std::string& path,
                                                  const TraceAnalysisOptions& options,
                                                  comm::Communicator& comm);

}  // namespace cw::driver
