// `causeway compare`: several runs of one program side by side (Su 2010 §5.2.3: scalability
// and revision analysis; Extra-P's scaling models per call path; Scalasca's multi-run POP
// tables).
//
// Runs with different process counts are a scaling study: grouped by process count (the runs of
// one count are repetitions of it), each group's parallel efficiency against the group with the
// fewest processes, for the whole run and per call path, and with three or more process counts
// a scaling model per call path and per metric total, its prediction at the target size and the
// call paths that will dominate there. Runs that all have one process count are revisions:
// grouped by label (runs of one label are repetitions), each compared with the first, and their
// repetitions tell a real change from noise.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "base/status.h"
#include "compare/run_summary.h"
#include "compare/scaling_model.h"

namespace cw::compare {

struct CompareOptions {
  bool weak = false;              // weak scaling: E = T(p0) / T(p)
  std::optional<double> predict;  // target process count; default 4x the largest
  // Without repetitions, a change counts if it is at least this share of the base value.
  double change_threshold = 0.05;
  size_t top_callpaths = 10;  // PPW's revision view
};

// One configuration: the runs of one process count (scaling) or of one label (revisions).
struct RunGroup {
  std::string label;  // the runs' labels, distinct ones joined by ", "
  uint32_t processes = 0;
  size_t repetitions = 0;
  double runtime = 0;  // mean over the repetitions
  double runtime_min = 0, runtime_max = 0, runtime_stddev = 0;
  std::optional<double> efficiency;  // parallel efficiency against the first group (scaling)
  PopFigures pop;                    // the repetitions' mean of each known figure
  // POP's computation scalability: the first group's total computation (strong scaling) or
  // computation per process (weak) against this group's; unknown without computation times.
  std::optional<double> computation_scalability;
};

// A value per group (mean over its repetitions) with its spread.
struct Series {
  std::vector<double> mean;
  std::vector<double> stddev;
};

struct CallpathComparison {
  std::string path;
  bool setup = false;  // initialisation or termination: not ranked
  Series time;         // seconds: the slowest process's exclusive time, per group
  std::vector<std::optional<double>> efficiency;  // scaling: per group; revisions: empty
  std::vector<double> share;                      // of the group's runtime
  std::optional<ScalingModel> model;              // three or more process counts
  std::optional<double> predicted;                // seconds at the target size
  // 1 to kDominantPaths: its place among the paths that will dominate at the target size (not
  // setup, predicted above 1 % of the runtime there or of the largest group's); else none.
  std::optional<int> dominant;
};
inline constexpr int kDominantPaths = 5;

struct MetricComparison {
  std::string name;
  Series total;
  std::optional<ScalingModel> model;
  std::optional<double> predicted;
};

// A category of the time (computation, MPI, ...) per group: seconds over every process.
struct CategoryComparison {
  std::string metric;
  std::string display;
  Series seconds;
};

// A revision's difference to the first group in one value.
struct Change {
  std::string what;   // "runtime", a call path or "metric <name>"
  size_t group = 0;   // the later group
  double before = 0;  // the first group's mean
  double after = 0;
  bool significant = false;  // beyond the noise the repetitions show (or the threshold)
  bool confirmed = false;    // both groups had repetitions to tell noise from change
};

struct Comparison {
  bool scaling = false;  // else revisions
  bool weak = false;
  std::vector<RunGroup> groups;  // scaling: by process count, ascending; revisions: in order
  // Scaling: by predicted time, else by time; initialisation and termination last.
  std::vector<CallpathComparison> callpaths;
  std::vector<MetricComparison> metrics;
  std::vector<CategoryComparison> categories;  // in the first run's order
  std::optional<double> target_processes;
  std::optional<ScalingModel> runtime_model;
  std::optional<double> predicted_runtime;
  std::vector<Change> changes;        // revisions: significant ones first, by size
  std::vector<std::string> warnings;  // e.g. runs of different programs
};

// At least two runs; refuses a single one.
Result<Comparison> Compare(const std::vector<RunSummary>& runs, const CompareOptions& options);

}  // namespace cw::compare
